"""sysbench-regressions: in-memory sysbench, MySQL 5.6.49 vs 5.7.31 vs 8.0.18/8.0.21/8.0.22.

Inputs are the author's report summaries (F10): `o.qps.abs` (QPS per test at 1, 2, 3 clients),
`o.met` (HW efficiency per test at 1 client) and the `my.cnf.cx6d.<version>` files. Every ratio
is computed here from the absolute values; `o.qps.rel` and the relative rows of `o.met` are only
used to cross-check them (a disagreement beyond rounding is reported as a problem).

Tests are named as in the archive without `sb.r.qps.`/`sb.met.` and `.pk1`(`.dop1`), e.g.
`point-query.pre.range100`. The file order is the run order, and the run groups are derived
from it: `.pre` tests ran read-only before the write-heavy tests; a test whose `.pre` twin exists
is the same read-only test after them; the tests between the two read-only groups are the
write-heavy group, and those after the last read-only test are the insert/delete group.
"""

from __future__ import annotations

import re

from ingest.derive.tables import col, one_file, ratio, table
from ingest.parse.mycnf import settings_diff
from ingest.problems import Problem

BASE_VERSION = "5.6.49"
GROUPS = {
    "read-only-pre": "Read-only, before the write-heavy tests",
    "write-heavy": "Write-heavy",
    "read-only-post": "Read-only, after the write-heavy tests",
    "insert-delete": "Insert and delete",
}
TOLERANCE = 0.011  # the author's ratios have 2 decimals
# Figures the original states only in its text are the manifest's `quoted:` (docs/manifest.md):
# `band` ("QPS in 8.0 is often 60% to 90% of 5.6": the band whose share of tests `qps-spread`
# counts) and `load` (the load step: 8.0.22 and 5.7.31 relative to 5.6.49, and whether a version
# read from storage while building the secondary index at the end of the prepare step).


def version_of(tag: str, file: str = "sysbench-regressions", line: int | None = None) -> str:
    """'x.my5649.x6d.pk1' -> '5.6.49'."""
    m = re.search(r"\bmy(\d)(\d)(\d+)\b", tag)
    if not m:
        raise Problem(file, line, f"run tag {tag!r} has no my<version>")
    return ".".join(m.groups())


def test_of(block: str) -> str:
    """'sb.r.qps.point-query.pre.range100.pk1' or 'sb.met.<...>.pk1.dop1 / absolute' -> test name."""
    name = block.split(" / ")[0]
    name = re.sub(r"^sb\.(r\.qps|met)\.", "", name)
    return re.sub(r"\.pk\d+(\.dop\d+)?$", "", name)


def groups_of(tests: list[str]) -> dict[str, str]:
    """Run group of each test, from the run order and the `.pre` names (module docstring)."""
    pre = [t for t in tests if ".pre." in t]
    twins = {t.replace(".pre.", ".") for t in pre}
    rest = [t for t in tests if t not in pre]
    post_idx = [i for i, t in enumerate(rest) if t in twins]
    if not pre or not post_idx:
        raise Problem(
            "o.qps.abs",
            None,
            "cannot derive the run groups: no .pre tests or no read-only repeat of them",
        )
    groups = {t: "read-only-pre" for t in pre}
    for i, t in enumerate(rest):
        groups[t] = (
            "write-heavy"
            if i < post_idx[0]
            else "read-only-post"
            if i <= post_idx[-1]
            else "insert-delete"
        )
    return groups


def build(ctx) -> list[dict]:
    cnfs = {
        version_of("my" + m.rsplit(".", 1)[-1], p.file): p.settings
        for m, p in ctx.files.items()
        if re.search(r"my\.cnf\.[^/]*\.\d+$", m)
    }
    man = ctx.manifest.path
    quoted = {"band": ctx.quoted("band")[0], "load": ctx.quoted("load")}
    tables, problems = derive(
        one_file(ctx.files, r"o\.qps\.abs", man),
        one_file(ctx.files, r"o\.met", man),
        cnfs,
        one_file(ctx.files, r"o\.qps\.rel", man),
        quoted,
    )
    ctx.problems.extend(problems)
    return tables


def qps_records(abs_parsed) -> list[dict]:
    """One record per test, version and client count, in file order."""
    out = []
    for t in abs_parsed.tables:
        clients = [c for c in t.columns if re.fullmatch(r"c\d+", c)]
        for r in t.rows:
            for c in clients:
                out.append(
                    {
                        "test": test_of(t.name),
                        "version": version_of(r["dbms"], abs_parsed.file, t.line),
                        "clients": int(c[1:]),
                        "qps": r[c],
                    }
                )
    return out


def met_records(met_parsed) -> list[dict]:
    out = []
    for t in met_parsed.tables:
        if not t.name.endswith("/ absolute"):
            continue
        for r in t.rows:
            out.append(
                {
                    "test": test_of(t.name),
                    "version": version_of(r["dbms"], met_parsed.file, t.line),
                    "cpu_per_op": r["cpu/o"],
                    "rkb_per_op": r["rKB/o"],
                    "wkb_per_op": r["wKB/o"],
                    "ops_per_s": r["o/s"],
                }
            )
    return out


def derive(
    abs_parsed, met_parsed, cnfs: dict[str, dict], rel_parsed=None, quoted: dict | None = None
) -> tuple[list[dict], list[Problem]]:
    """The study's tables and cross-check problems; `quoted`: the manifest's `band` row and `load`
    rows (without them, no `qps-spread` or `load` table)."""
    qps = qps_records(abs_parsed)
    met = met_records(met_parsed)
    tests = list(dict.fromkeys(r["test"] for r in qps))
    versions = list(dict.fromkeys(r["version"] for r in qps))
    group = groups_of(tests)
    q = {(r["test"], r["version"], r["clients"]): r["qps"] for r in qps}
    m = {(r["test"], r["version"]): r for r in met}
    absolute, relative = qps_rows(qps, group, q)
    hw = hw_rows(met, group, m)
    rel_cpu = [
        {"test": r["test"], "version": r["version"], "cpu_ratio": r["cpu_ratio"]}
        for r in hw
        if r["version"] != BASE_VERSION
    ]
    tables = whole_tables(absolute, relative, rel_cpu, hw)
    for g, title in GROUPS.items():
        tables += group_tables(g, title, absolute, hw)
    tables += inlist_tables(tests, group, q, m)
    tables.append(base_anomalies(tests, versions, q))
    if quoted:
        tables += [
            qps_spread(relative, versions, quoted["band"]),
            load_table(versions, quoted["load"]),
        ]
    tables.append(config_table(cnfs, versions))
    problems = cross_check(relative, rel_cpu_all=hw, rel_parsed=rel_parsed, met_parsed=met_parsed)
    return tables, problems


def qps_rows(qps: list[dict], group: dict, q: dict) -> tuple[list[dict], list[dict]]:
    """(absolute, relative): each QPS record with its test's group, and each one of a version
    other than BASE_VERSION as a ratio to the base version's at the same client count."""
    absolute = [
        {
            "test": r["test"],
            "group": group[r["test"]],
            "version": r["version"],
            "clients": r["clients"],
            "qps": r["qps"],
        }
        for r in qps
    ]
    relative = [
        {
            "test": r["test"],
            "version": r["version"],
            "clients": r["clients"],
            "qps_ratio": ratio(r["qps"], q.get((r["test"], BASE_VERSION, r["clients"])), 2),
        }
        for r in qps
        if r["version"] != BASE_VERSION
    ]
    return absolute, relative


def hw_rows(met: list[dict], group: dict, m: dict) -> list[dict]:
    """The HW efficiency per operation of each test and version, with its ratios to
    BASE_VERSION's."""
    hw = []
    for r in met:
        b = m.get((r["test"], BASE_VERSION), {})
        hw.append(
            {
                "test": r["test"],
                "group": group[r["test"]],
                "version": r["version"],
                "cpu_per_op": r["cpu_per_op"],
                "rkb_per_op": r["rkb_per_op"],
                "wkb_per_op": r["wkb_per_op"],
                "ops_per_s": r["ops_per_s"],
                **{
                    f"{k}_ratio": ratio(r[f"{k}_per_op"], b.get(f"{k}_per_op"), 2)
                    for k in ("cpu", "rkb", "wkb")
                },
            }
        )
    return hw


def whole_tables(absolute, relative, rel_cpu, hw) -> list[dict]:
    """The tables over every test: absolute and relative QPS, relative CPU, HW efficiency."""
    return [
        table(
            "absolute-qps",
            "QPS per test, version and client count",
            [
                col("test", "Test", "label"),
                col("group", "Group", "label"),
                col("version", "Version", "label"),
                col("clients", "Clients", "number", 0),
                col("qps", "QPS", "number", 0),
            ],
            absolute,
        ),
        table(
            "relative-qps",
            f"QPS relative to {BASE_VERSION}",
            [
                col("test", "Test", "label"),
                col("version", "Version", "label"),
                col("clients", "Clients", "number", 0),
                col("qps_ratio", f"QPS / {BASE_VERSION}", "ratio", 2),
            ],
            relative,
        ),
        table(
            "relative-cpu",
            f"CPU per operation relative to {BASE_VERSION}, 1 client",
            [
                col("test", "Test", "label"),
                col("version", "Version", "label"),
                col("cpu_ratio", f"CPU/op / {BASE_VERSION}", "ratio", 2),
            ],
            rel_cpu,
        ),
        table(
            "hw-efficiency",
            "HW efficiency per operation, 1 client",
            [
                col("test", "Test", "label"),
                col("group", "Group", "label"),
                col("version", "Version", "label"),
                col("cpu_per_op", "CPU/op (us+sy % per op/s)", "number", 6),
                col("rkb_per_op", "KB read/op", "number", 3),
                col("wkb_per_op", "KB written/op", "number", 3),
                col("ops_per_s", "Ops/s", "number", 0),
                col("cpu_ratio", f"CPU/op / {BASE_VERSION}", "ratio", 2),
                col("rkb_ratio", f"rKB/op / {BASE_VERSION}", "ratio", 2),
                col("wkb_ratio", f"wKB/op / {BASE_VERSION}", "ratio", 2),
            ],
            hw,
        ),
    ]


def group_tables(g: str, title: str, absolute, hw) -> list[dict]:
    """The QPS per client count and the 1-client CPU per operation of one group of tests."""
    return [
        table(
            f"qps-{g}",
            f"{title}: QPS per client count",
            [
                col("test", "Test", "label"),
                col("clients", "Clients", "label"),
                col("version", "Version", "label"),
                col("qps", "QPS", "number", 0),
            ],
            [
                {
                    "test": r["test"],
                    "clients": r["clients"],
                    "version": r["version"],
                    "qps": r["qps"],
                }
                for r in absolute
                if r["group"] == g
            ],
        ),
        table(
            f"cpu-{g}",
            f"{title}: CPU per operation at 1 client",
            [
                col("test", "Test", "label"),
                col("version", "Version", "label"),
                col("cpu_per_op", "CPU/op (us+sy % per op/s)", "number", 6),
            ],
            [
                {"test": r["test"], "version": r["version"], "cpu_per_op": r["cpu_per_op"]}
                for r in hw
                if r["group"] == g
            ],
        ),
    ]


def inlist_tables(tests, group, q, m, old="8.0.21", new="8.0.22") -> list[dict]:
    """1-client QPS and CPU/op of two adjacent releases (what changed between them alone), wide
    for reading and long (test, version, qps) for a heat table with `old` as the base."""
    pair = f"v{new.replace('.', '')}-vs-v{old.replace('.', '')}"
    long_rows = [
        {"test": t, "version": v, "qps": q.get((t, v, 1))} for t in tests for v in (old, new)
    ]
    return [
        _inlist_wide(tests, group, q, m, old, new, pair),
        table(
            f"{pair}-qps",
            f"QPS at 1 client, {old} and {new}",
            [
                col("test", "Test", "label"),
                col("version", "Version", "label"),
                col("qps", "QPS", "number", 0),
            ],
            long_rows,
        ),
    ]


def _inlist_wide(tests, group, q, m, old, new, pair) -> dict:
    rows = []
    for t in tests:
        rows.append(
            {
                "test": t,
                "group": group[t],
                "qps_old": q.get((t, old, 1)),
                "qps_new": q.get((t, new, 1)),
                "qps_ratio": ratio(q.get((t, new, 1)), q.get((t, old, 1)), 2),
                "cpu_ratio": ratio(
                    m.get((t, new), {}).get("cpu_per_op"), m.get((t, old), {}).get("cpu_per_op"), 2
                ),
            }
        )
    return table(
        pair,
        f"{new} against {old}, 1 client",
        [
            col("test", "Test", "label"),
            col("group", "Group", "label"),
            col("qps_old", f"QPS {old}", "number", 0),
            col("qps_new", f"QPS {new}", "number", 0),
            col("qps_ratio", f"QPS {new} / {old}", "ratio", 2),
            col("cpu_ratio", f"CPU/op {new} / {old}", "ratio", 2),
        ],
        rows,
    )


def config_table(cnfs: dict[str, dict], versions: list[str]) -> dict:
    """my.cnf settings that differ between versions (missing: the file does not set it)."""
    order = [v for v in versions if v in cnfs] + sorted(v for v in cnfs if v not in versions)
    rows = [
        {"setting": d["key"], **{f"v{v.replace('.', '_')}": d["values"][v] for v in order}}
        for d in settings_diff({v: cnfs[v] for v in order})
    ]
    return table(
        "config-diff",
        "my.cnf settings that differ between versions (n/a: not set, the default applies)",
        [
            col("setting", "Setting", "label"),
            *[col(f"v{v.replace('.', '_')}", v, "text") for v in order],
        ],
        rows,
    )


def cross_check(relative, rel_cpu_all, rel_parsed, met_parsed) -> list[Problem]:
    """Problems where our ratios and the author's (o.qps.rel, o.met relative rows) disagree."""
    return [
        Problem(
            where[0],
            where[1],
            f"{key[0]} {key[1]} {key[2]}: computed ratio {got} but the report says {value}",
        )
        for key, got, value, where in ratio_pairs(relative, rel_cpu_all, rel_parsed, met_parsed)
        if abs(got - value) > TOLERANCE
    ]


def ratio_pairs(relative, hw, rel_parsed, met_parsed) -> list[tuple]:
    """(key, ours, the author's, where) for every ratio both sides define."""
    mine = {(r["test"], r["version"], f"c{r['clients']}"): r["qps_ratio"] for r in relative}
    mine.update(
        {(r["test"], r["version"], k): r[f"{k}_ratio"] for r in hw for k in ("cpu", "rkb", "wkb")}
    )
    theirs = []
    cols = {"cpu/o": "cpu", "rKB/o": "rkb", "wKB/o": "wkb"}
    for parsed in (p for p in (rel_parsed, met_parsed) if p is not None):
        for t in parsed.tables:
            if t.name.endswith("/ absolute"):
                continue
            for r in t.rows:
                for c in t.columns[:-1]:
                    key = (
                        test_of(t.name),
                        version_of(r["dbms"], parsed.file, t.line),
                        cols.get(c, c),
                    )
                    if c in cols or re.fullmatch(r"c\d+", c):
                        theirs.append((key, r[c], (parsed.file, t.line)))
    return [
        (key, mine[key], value, where)
        for key, value, where in theirs
        if mine.get(key) is not None and value is not None
    ]


# A base run is taken as anomalous where its QPS falls by more than this share when one client is
# added: the database is in memory and 3 clients do not saturate the 4 cores, so QPS should not fall.
FALL = 0.10


def base_anomalies(tests, versions, q, fall=FALL) -> dict:
    """Tests where the base version's QPS falls by more than `fall` from one client count to the
    next, and the highest ratio to the base that the fall paints at the larger count."""
    rows = []
    for t in tests:
        for c in (2, 3):
            before, after = q.get((t, BASE_VERSION, c - 1)), q.get((t, BASE_VERSION, c))
            if not before or after is None or after >= before * (1 - fall):
                continue
            others = [(ratio(q.get((t, v, c)), after, 2), v) for v in versions if v != BASE_VERSION]
            top, top_v = max((x for x in others if x[0] is not None), default=(None, None))
            rows.append(
                {
                    "test": t,
                    "clients_before": c - 1,
                    "clients": c,
                    "qps_before": before,
                    "qps": after,
                    "change": ratio(after, before, 2),
                    "highest_ratio": top,
                    "highest_version": top_v,
                }
            )
    return table(
        "base-anomalies",
        f"Where {BASE_VERSION}'s QPS falls by more than {fall:.0%} when a client is added",
        [
            col("test", "Test", "label"),
            col("clients_before", "Clients from", "number", 0),
            col("clients", "to", "number", 0),
            col("qps_before", "QPS from", "number", 0),
            col("qps", "QPS to", "number", 0),
            col("change", "To / from", "ratio", 2),
            col("highest_ratio", f"Top ratio to {BASE_VERSION}", "ratio", 2),
            col("highest_version", "in", "label"),
        ],
        rows,
    )


def qps_spread(relative: list[dict], versions: list[str], band: dict) -> dict:
    """Per version at 1 client: how many tests have a QPS ratio to the base inside the quoted
    band (`low` to `high`), below it and above it, and the median ratio."""
    low, high = band["low"], band["high"]
    rows = []
    for v in versions:
        r = sorted(
            x["qps_ratio"]
            for x in relative
            if x["version"] == v and x["clients"] == 1 and x["qps_ratio"] is not None
        )
        if not r:
            continue
        rows.append(
            {
                "version": v,
                "tests": len(r),
                "in_band": sum(low <= x <= high for x in r),
                "below": sum(x < low for x in r),
                "above": sum(x > high for x in r),
                "median": r[len(r) // 2]
                if len(r) % 2
                else round((r[len(r) // 2 - 1] + r[len(r) // 2]) / 2, 3),
                "band_low": low,
                "band_high": high,
                "band_low_pct": round(low * 100),
                "band_high_pct": round(high * 100),
            }
        )
    return table(
        "qps-spread",
        f"QPS / {BASE_VERSION} at 1 client: tests inside {low:.2f} to {high:.2f}",
        [
            col("version", "Version", "label"),
            col("tests", "Tests", "number", 0),
            col("in_band", f"{low:.2f} to {high:.2f}", "number", 0),
            col("below", f"below {low:.2f}", "number", 0),
            col("above", f"above {high:.2f}", "number", 0),
            col("median", "Median ratio", "ratio", 2),
            col("band_low", "Band from", "ratio", 2),
            col("band_high", "to", "ratio", 2),
            col("band_low_pct", "Band from (% of 5.6)", "number", 0),
            col("band_high_pct", "to (%)", "number", 0),
        ],
        rows,
    )


def load_table(versions: list[str], load: list[dict]) -> dict:
    """The load step as the original states it (the manifest's `quoted: load`, not in the
    archive), versions in run order."""
    by = {str(r["version"]): r for r in load}
    rows = [by[v] for v in versions if v in by]
    notes = {
        f"{i}/ips_about": "about" for i, r in enumerate(rows) if r.get("ips_about") is not None
    }
    return table(
        "load",
        f"The load step, as published (relative to {BASE_VERSION})",
        [
            col("version", "Version", "label"),
            col("ips_about", "Inserts/s", "number", 0),
            col("ips_ratio", f"Inserts/s / {BASE_VERSION}", "ratio", 2),
            col("cpu_ratio", f"CPU/insert / {BASE_VERSION}", "ratio", 2),
            col("index_reads", "Read from storage during the index build", "text"),
        ],
        rows,
        notes,
    )
