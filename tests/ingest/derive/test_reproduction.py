"""The reproduction check (ingest/derive/reproduction.py): the comparison rule, the manifest section,
the reproduction table on our own numbers, and the real studies that declare a check."""

from __future__ import annotations

import csv
import io
import math
import re
import tarfile

import pytest

from ingest.derive import reproduction
from ingest.derive.context import StudyContext
from ingest.derive.reproduction import compare, decimals, summary
from ingest.parse import by_name
from ingest.problems import Problem
from ingest.read.manifest import load
from tests.kit import fastyaml
from tests.kit.golden import ROOT, SHARED

# -- the rule ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "published, derived, digits, agrees",
    [
        ("132.67", 132.6669, 2, "exact"),  # rounds to the published value
        ("132.66", 132.6669, 2, "truncation"),  # only cutting the third decimal gives it
        ("132.60", 132.6669, 2, "differs"),
        ("132.68", 132.6669, 2, "differs"),  # one unit above: neither
        ("-1.24", -1.2369, 2, "exact"),  # negative numbers round to nearest ...
        ("-1.23", -1.2369, 2, "truncation"),  # ... and truncate towards zero
        ("-1.25", -1.2369, 2, "differs"),
        (24298, 24297.6, 0, "exact"),  # integers: no decimals
        (24297, 24297.6, 0, "truncation"),
        (24296, 24297.6, 0, "differs"),
        (500, 500, 0, "exact"),
        ("0.12", 0.125, 2, "exact"),  # halfway: either neighbour is a rounding of it
        ("0.13", 0.125, 2, "exact"),
        ("4.7", 4.7834, 1, "truncation"),
        ("2.45", 2.4523, 2, "exact"),
        ("81,012", 81012.4, 0, "exact"),  # a thousands separator as printed
    ],
)
def test_rule(published, derived, digits, agrees):
    assert compare(published, derived, digits)[0] == agrees


def test_rule_says_why():
    agrees, reason = compare("132.66", 132.6669, 2)
    assert agrees == "truncation" and "132.67" in reason and "truncated" in reason
    agrees, reason = compare("132.60", 132.6669, 2)
    assert agrees == "differs" and "132.67" in reason
    assert compare("132.67", 132.6669, 2) == ("exact", "")


def test_a_missing_derived_value_is_never_exact():
    agrees, reason = compare("1", None, 0)
    assert agrees == "differs" and "no derived value" in reason


def test_a_derived_value_stored_rounded_cannot_pass_for_a_truncation():
    agrees, reason = compare("132.66", 132.67, 2)  # 132.67 already rounded: the cut is unknowable
    assert agrees == "differs" and "no more decimals" in reason


@pytest.mark.parametrize(
    "printed, n",
    [("132.60", 2), ("24298", 0), ("4.7", 1), (0.8, 1), (12, 0), (1e-05, 5), ("1,234.5", 1)],
)
def test_decimals_as_printed(printed, n):
    assert decimals(printed) == n


# -- the manifest section and the table, on our own numbers -----------------------------------
PUBLISHED = """# Published tables of a made-up study

## Average TPS
| engine | disk | avg tps |
|---|---|---|
| Alpha | fast | 210.50 |
| Alpha | slow | 99.99 |
| Beta | fast | 305.3 |
| Beta | slow | 120.25 |
| Gamma | fast | 77.00 |
| Beta | huge | |
"""

MANIFEST = """study: made-up
title: A made-up study
inputs:
  - {name: published.md, kind: published-tables, sha256: %s, origin: made up}
reproduction:
  - name: Average TPS
    published: {input: published.md, format: markdown-tables, table: Average TPS}
    derived: avg
    keys:
      engine: {column: engine, map: {Alpha: a, Beta: b, Gamma: g}}
      disk: disk
    values:
      - {published: avg tps, derived: tps}
  - published: {quote: "about 2.9x"}
    derived: avg
    where: {engine: b, disk: fast}
    value: ratio
"""

DERIVED = {
    "id": "avg",
    "columns": [{"key": k} for k in ("engine", "disk", "tps", "ratio")],
    "rows": [
        {
            "engine": "a",
            "disk": "fast",
            "tps": 210.4951,
            "ratio": None,
        },  # rounds to 210.50 (printed 2 decimals)
        {
            "engine": "a",
            "disk": "slow",
            "tps": 99.9987,
            "ratio": None,
        },  # 100.00 rounded: the original cut it
        {
            "engine": "b",
            "disk": "fast",
            "tps": 305.3449,
            "ratio": 2.9931,
        },  # column printed with 2 decimals: 305.34
        {"engine": "b", "disk": "slow", "tps": 121.0, "ratio": None},  # a real difference
    ],
}  # Gamma: no derived row at all


def _check(tmp_path, manifest=MANIFEST, derived=DERIVED):
    path = tmp_path / "manifest.yaml"
    path.write_text(manifest % ("a" * 64))
    ctx = StudyContext(
        manifest=load(path),
        runs=[],
        series={},
        inputs={"published.md": PUBLISHED},
        tables=[derived],
    )
    return reproduction.build(ctx)[0]


def test_table_check_on_own_numbers(tmp_path):
    t = _check(tmp_path)
    assert [c["key"] for c in t["columns"]][:5] == [
        "table",
        "cell",
        "published",
        "derived",
        "agrees",
    ]
    got = {r["key"]: r for r in t["rows"]}
    assert got["tps at engine=a; disk=fast"]["agrees"] == "exact"
    assert got["tps at engine=a; disk=slow"]["agrees"] == "truncation"
    # "305.3" is printed in a 2-decimal column: 305.34 rounded, 305.30 is neither
    assert got["tps at engine=b; disk=fast"]["agrees"] == "differs"
    assert got["tps at engine=b; disk=fast"]["published"] == "305.30"
    assert got["tps at engine=b; disk=slow"]["agrees"] == "differs"
    missing = got["tps at engine=g; disk=fast"]
    assert (
        missing["agrees"] == "differs"
        and missing["derived"] is None
        and "no row" in missing["reason"]
    )
    assert "tps at engine=b; disk=huge" not in got  # an empty published cell is no figure
    quoted = got["ratio at engine=b; disk=fast"]
    assert (quoted["published"], quoted["agrees"], quoted["digits"]) == ("2.9", "truncation", 1)
    assert 'published as "about 2.9x"' in quoted["reason"]
    assert summary(t["rows"]) == {"exact": 1, "truncation": 2, "differs": 3, "not comparable": 0}


def test_declared_digits_override_the_printed_ones(tmp_path):
    t = _check(
        tmp_path,
        MANIFEST.replace(
            "    derived: avg\n    keys:", "    derived: avg\n    digits: 1\n    keys:"
        ),
    )
    got = {r["key"]: r for r in t["rows"]}
    assert got["tps at engine=b; disk=fast"]["agrees"] == "exact"  # 305.3 at 1 decimal


def test_cells_are_named_for_readers_and_keyed_for_programs(tmp_path):
    """`cell` uses the derived table's headings and the manifest's display names;
    the raw keys stay in `key`."""
    labelled = {
        **DERIVED,
        "columns": [
            {"key": "engine", "label": "Engine"},
            {"key": "disk", "label": "Disk"},
            {"key": "tps", "label": "Avg TPS"},
            {"key": "ratio", "label": "B / A"},
        ],
    }
    manifest = MANIFEST.replace(
        "reproduction:", "display:\n  engine: {b: Beta engine}\nreproduction:"
    )
    t = _check(tmp_path, manifest, labelled)
    got = {r["key"]: r["cell"] for r in t["rows"]}
    assert got["ratio at engine=b; disk=fast"] == "B / A: Engine Beta engine, Disk fast"
    assert got["tps at engine=a; disk=slow"] == "Avg TPS: Engine a, Disk slow"
    assert not any("=" in cell for cell in got.values())


CAUSES = MANIFEST.replace(
    "      - {published: avg tps, derived: tps}\n",
    "      - {published: avg tps, derived: tps}\n"
    "    causes:\n"
    "      - {key: 'engine=g\\b', cause: the original typed this row}\n"
    "      - {cause: not explained}\n",
)


def test_causes_name_why_cells_are_not_exact(tmp_path):
    """A check's `causes:` (the first whose key regex matches a cell's key; one without a key
    takes the rest) go on the cells that are not exact only, apart from the per-cell reason."""
    t = _check(tmp_path, CAUSES)
    assert [c["key"] for c in t["columns"]][-1] == "cause"
    got = {r["key"]: r for r in t["rows"]}
    assert got["tps at engine=g; disk=fast"]["cause"] == "the original typed this row"
    assert "no row" in got["tps at engine=g; disk=fast"]["reason"]  # the reason stays
    assert got["tps at engine=b; disk=slow"]["cause"] == "not explained"
    assert got["tps at engine=a; disk=slow"]["cause"] == "not explained"  # a truncation too
    assert got["tps at engine=a; disk=fast"]["cause"] is None  # exact: nothing to explain
    assert got["ratio at engine=b; disk=fast"]["cause"] is None  # the quote declares none


@pytest.mark.parametrize(
    "causes, message",
    [
        ("      - {key: x}\n", "`cause`"),
        ("      - {cause: '  '}\n", "cause must say why"),
        ("      - {cause: why, when: now}\n", "unknown field `when`"),
        ("      - {cause: why, key: 'a(b'}\n", "bad key regex"),
    ],
)
def test_a_cause_needs_its_words_and_a_valid_key(tmp_path, causes, message):
    path = tmp_path / "manifest.yaml"
    text = MANIFEST.replace(
        "      - {published: avg tps, derived: tps}\n",
        "      - {published: avg tps, derived: tps}\n    causes:\n" + causes,
    )
    path.write_text(text % ("a" * 64))
    with pytest.raises(Problem, match=re.escape(message)):
        load(path)


RATIOS = MANIFEST.replace(
    "      - {published: avg tps, derived: tps}",
    "      - {published: avg tps, derived: ratio, of: tps, base: {engine: a}}",
)


@pytest.mark.parametrize(
    "base_tps, a_tps, expect, agrees",
    [
        (0.0, 0.0, "0/0 is undefined", "not comparable"),  # both 0: the author's 1 is a convention
        (0.0, 5.0, "a ratio to 0 is undefined", "not comparable"),  # only the base is 0
        (2.0, 5.0, "leaves ratio missing", "differs"),  # a base that is not 0: no excuse
    ],
)
def test_a_ratio_whose_base_is_0_is_not_comparable(tmp_path, base_tps, a_tps, expect, agrees):
    """A declared ratio (of/base) missing because its base is 0 is `not
    comparable` (an undefined ratio neither agrees nor differs), and the reason says the ratio
    is undefined and what the original prints; missing for any other reason, it `differs`."""
    rows = [
        {"engine": "a", "disk": "fast", "tps": base_tps, "ratio": None},
        {"engine": "b", "disk": "fast", "tps": a_tps, "ratio": None},
    ]
    t = _check(tmp_path, RATIOS, {**DERIVED, "rows": rows})
    row = next(r for r in t["rows"] if r["key"] == "ratio at engine=b; disk=fast")
    assert row["agrees"] == agrees and row["derived"] is None
    assert expect in row["reason"], row["reason"]
    if base_tps == 0:
        assert "the original prints 305.30" in row["reason"]


def test_of_and_base_go_together(tmp_path):
    with pytest.raises(Problem, match="`of` and `base` go together"):
        _check(tmp_path, RATIOS.replace(", base: {engine: a}", ""))


def test_ambiguous_derived_rows_are_an_error(tmp_path):
    twice = {**DERIVED, "rows": DERIVED["rows"] + [dict(DERIVED["rows"][0])]}
    with pytest.raises(Problem, match="2 rows of 'avg' match"):
        _check(tmp_path, derived=twice)


def test_unknown_derived_table_or_column(tmp_path):
    with pytest.raises(Problem, match="no derived table 'avg'"):
        _check(tmp_path, derived={**DERIVED, "id": "other"})
    with pytest.raises(Problem, match="has no column tps"):
        _check(
            tmp_path,
            derived={**DERIVED, "columns": [{"key": k} for k in ("engine", "disk", "ratio")]},
        )


@pytest.mark.parametrize(
    "change, message",
    [
        (
            ("    derived: avg\n    keys:", "    derived: avg\n    colour: red\n    keys:"),
            "unknown field `colour`",
        ),
        (('{quote: "about 2.9x"}', '{quote: "about twice"}'), "holds no number"),
        (("    where: {engine: b, disk: fast}\n", ""), "needs `where`"),
        (
            ("{input: published.md, format", "{input: nope.md, format"),
            "not a published-tables input",
        ),
        (
            (
                "{input: published.md, format: markdown-tables, table: Average TPS}",
                "{input: published.md, quote: x1, table: Average TPS}",
            ),
            "exactly one of",
        ),
        (("table: Average TPS}", "table: 'Average (TPS'}"), "bad table regex"),
    ],
)
def test_manifest_errors_point_at_the_line(tmp_path, change, message):
    path = tmp_path / "manifest.yaml"
    path.write_text((MANIFEST % ("a" * 64)).replace(*change))
    with pytest.raises(Problem, match=re.escape(message)) as e:
        load(path)
    assert e.value.line > 4  # inside the reproduction section, not the file's first line


# -- the real studies -------------------------------------------------------------------------
def _rows(data, study):
    return fastyaml.load((data / study / "tables" / "reproduction.yaml").read_text())["rows"]


def _published(agrees_expected, published: str, derived: float) -> str:
    """The rule restated in floats, independently of the module."""
    d = len(published.split(".")[1]) if "." in published else 0
    p, unit = float(published), 10**-d
    if abs(derived - p) <= unit / 2 + 1e-12:
        return "exact"
    return "truncation" if abs(math.trunc(derived / unit) * unit - p) < unit / 1000 else "differs"


def test_cloud_ratios_against_the_runs(cloud_ingest):
    """The two ratios the original quotes, recomputed here from the ingested window means."""
    rows = {r["key"]: r for r in _rows(cloud_ingest["data"], "myrocks-cloud-cost")}
    runs = fastyaml.load((cloud_ingest["data"] / "myrocks-cloud-cost" / "runs.yaml").read_text())[
        "runs"
    ]
    mean = {r["id"]: r["window"]["mean"] for r in runs}
    seen = set()
    for tier, key in (
        ("10000gp2", "ratio at iops=10000gp2; cache_gb=54"),
        ("30000", "ratio at iops=30000; cache_gb=54"),
    ):
        ratio = mean[f"rocksdb-{tier}-54"] / mean[f"innodb-{tier}-54"]
        row = rows[key]
        assert row["derived"] == pytest.approx(ratio, abs=1e-4)
        assert row["agrees"] == _published(None, row["published"], ratio)
        seen.add(row["agrees"])
    assert rows["ratio at iops=10000gp2; cache_gb=54"]["published"] == "4.7"  # from "about 4.7x"
    assert seen == {"exact", "truncation"}  # the rule told them apart


def test_cloud_average_tps_table_against_the_runs(cloud_ingest):
    """The original's 24 average TPS (published-avg-tps.md, read here with the Markdown parser),
    each compared with the window mean of its run computed by the ingest from the raw log: every
    published cell has its row, the verdict is the rule's on those numbers, and none differs (the
    post says each is our average at the two decimals printed, rounded or cut)."""
    text = (SHARED / "studies" / "myrocks-cloud-cost" / "published-avg-tps.md").read_text()
    (table,) = by_name("markdown-tables").parse(text, "published-avg-tps.md").tables
    runs = fastyaml.load((cloud_ingest["data"] / "myrocks-cloud-cost" / "runs.yaml").read_text())
    mean = {
        (r["labels"]["engine"], r["labels"]["iops"], str(r["labels"]["cache_gb"])): r["window"][
            "mean"
        ]
        for r in runs["runs"]
        if r["published"]
    }
    rows = {
        r["key"]: r
        for r in _rows(cloud_ingest["data"], "myrocks-cloud-cost")
        if r["table"] == "Average TPS"
    }
    assert len(rows) == len(table.rows) == len(mean)
    for p in table.rows:
        key = (p["engine"], str(p["IOPS"]), str(p["cache GB"]))
        row = rows[f"avg_tps at engine={key[0]}; iops={key[1]}; cache_gb={key[2]}"]
        printed = f"{p['avg TPS']:.2f}"
        assert row["published"] == printed and row["derived"] == pytest.approx(mean[key], abs=1e-6)
        assert row["agrees"] == _published(None, printed, mean[key]), row
    verdicts = summary(list(rows.values()))
    assert verdicts["differs"] == 0 and verdicts["truncation"] > 0


def test_sysbench_relative_tables_against_the_absolute_ones():
    """o.qps.rel against ratios of o.qps.abs computed here: every verdict the committed table
    gives is the one the rule gives on the archive's own numbers."""
    with tarfile.open(SHARED / "archives" / "mdcallag-sysbench-dec2020-innodb-inmem.tar.gz") as tf:
        text = {
            m.name.rsplit("/", 1)[-1]: tf.extractfile(m).read().decode()
            for m in tf.getmembers()
            if m.isfile()
        }
    absolute = {}
    for block in text["o.qps.abs"].strip().split("\n\n"):
        name, *lines = block.strip().splitlines()
        test = re.sub(r"^sb\.r\.qps\.|\.pk1$", "", name)
        for line in lines:
            *qps, tag = line.split("\t")
            v = ".".join(re.search(r"my(\d)(\d)(\d+)", tag).groups())
            for c, q in enumerate(qps, 1):
                absolute[test, v, c] = float(q)
    rows = [
        r
        for r in _rows(ROOT / "data", "sysbench-regressions")
        if r["table"] == "QPS relative to 5.6.49"
    ]
    assert len(rows) == sum(1 for k in absolute if k[1] != "5.6.49")
    for r in rows:
        keys = dict(kv.split("=") for kv in r["key"].split(" at ", 1)[1].split("; "))
        t, v, c = keys["test"], keys["version"], int(keys["clients"])
        ratio = absolute[t, v, c] / absolute[t, "5.6.49", c]
        assert r["agrees"] == _published(None, r["published"], ratio), r
    assert summary(rows)["exact"] == len(rows)


def test_sysbench_hw_relative_rows_against_the_absolute_ones():
    """o.met's "relative to first result" rows against ratios of its "absolute" rows computed
    here: every verdict of the committed table is the rule's on the archive's own numbers, and
    every cell that is not exact is a ratio whose base (5.6.49) is 0: not comparable, said so in
    its reason."""
    with tarfile.open(SHARED / "archives" / "mdcallag-sysbench-dec2020-innodb-inmem.tar.gz") as tf:
        text = next(
            tf.extractfile(m).read().decode() for m in tf.getmembers() if m.name.endswith("/o.met")
        )
    absolute, relative = {}, {}
    for block in text.strip().split("\n\n"):
        name, *lines = block.strip().splitlines()
        test = re.sub(r"^sb\.met\.|\.pk1\.dop1$", "", name)
        part = None
        for line in lines:
            if line.startswith("---"):
                part = absolute if "absolute" in line else relative
                continue
            cells = [c for c in line.split("\t") if c]
            if cells[0] == "cpu/o":
                continue
            v = ".".join(re.search(r"my(\d)(\d)(\d+)", cells[-1]).groups())
            for metric, x in zip(("cpu_ratio", "rkb_ratio", "wkb_ratio"), cells[:3]):
                part[test, v, metric] = x
    rows = [
        r
        for r in _rows(ROOT / "data", "sysbench-regressions")
        if r["table"] == "HW efficiency relative to 5.6.49"
    ]
    # the author prints "inf" for x/0 with x > 0: the parser reads no figure there, so no cell
    undefined = {k for k, x in relative.items() if x in ("inf", "nan")}
    assert len(rows) == len(relative) - len(undefined) > 0
    assert not {r["key"] for r in rows} & {f"{m} at test={t}; version={v}" for t, v, m in undefined}
    zero_base = 0
    for r in rows:
        col, keys = r["key"].split(" at ", 1)
        keys = dict(kv.split("=") for kv in keys.split("; "))
        t, v = keys["test"], keys["version"]
        assert float(r["published"]) == float(relative[t, v, col]), r  # printed width: see report
        base, here = float(absolute[t, "5.6.49", col]), float(absolute[t, v, col])
        if base == 0:
            zero_base += 1
            assert r["agrees"] == "not comparable" and r["derived"] is None
            assert (
                "undefined" in r["reason"]
                and f"the original prints {r['published']}" in r["reason"]
            ), r
            assert ("0/0" in r["reason"]) == (here == 0)
            continue
        assert r["derived"] == pytest.approx(here / base, abs=0.006), r
        assert r["agrees"] == _published(None, r["published"], here / base), r
    assert zero_base == summary(rows)["not comparable"] > 0 and not summary(rows)["differs"]


# -- the site ---------------------------------------------------------------------------------
def _csv(site, study):
    return list(
        csv.reader(io.StringIO((site.site / "posts" / study / "reproduction.csv").read_text()))
    )


# the studies whose manifest declares a reproduction check (found, not listed)
CHECKED = sorted(
    p.parent.name
    for p in (ROOT / "content" / "posts").glob("*/manifest.yaml")
    if "reproduction" in (fastyaml.load(p.read_text()) or {})
)


def test_the_checked_studies_are_found():
    assert len(CHECKED) >= 2 and all(
        (ROOT / "data" / s / "tables" / "reproduction.yaml").exists() for s in CHECKED
    )


@pytest.mark.parametrize("study", CHECKED)
def test_site_serves_the_csv_and_the_post_shows_every_non_exact_cell(built_site, study):
    table = _csv(built_site, study)
    keys = [
        c["key"]
        for c in fastyaml.load(
            (ROOT / "data" / study / "tables" / "reproduction.yaml").read_text()
        )["columns"]
    ]
    assert table[0] == keys and keys[:5] == ["table", "cell", "published", "derived", "agrees"]
    rows = _rows(ROOT / "data", study)
    assert len(table) == len(rows) + 1
    assert [r[4] for r in table[1:]] == [r["agrees"] for r in rows]
    html = built_site.page(f"posts/{study}/index.html")
    s = summary(rows)
    runs = (
        fastyaml.load((ROOT / "data" / study / "runs.yaml").read_text()).get("runs")
        if (ROOT / "data" / study / "runs.yaml").exists()
        else None
    )
    # the derived side is named by what the study has: raw runs, or only its inputs (summaries)
    source = (
        "the values derived from the raw data"
        if runs
        else "the values computed here from the study's inputs"
    )
    assert (
        f"{len(rows)} published figures compared with {source}"
        f"{' (see Provenance)' if not runs else ''}: "
        f"{s['exact']} exact, {s['truncation']} consistent with truncation by the original, {s['differs']} differ"
        f"{', ' + str(s['not comparable']) + ' not comparable' if s['not comparable'] else ''}"
    ) in html.replace("&#39;", "'")
    section = html.split('id="reproduction"', 1)[1].split("</figure>", 1)[0]
    summary_p = section.split("</p>", 1)[0].replace("&#39;", "'")
    unexplained = [r for r in rows if r["agrees"] in ("differs", "not comparable")]
    whys = {r.get("cause") or r["reason"] for r in unexplained}
    caused = all(r.get("cause") for r in unexplained)
    # the summary says why cells differ when there are few reasons or the manifest names the
    # causes of all (reasons carry numbers, so a study may have one per cell)
    for why in whys if len(whys) <= 3 or caused else ():
        assert why.replace('"', "&#34;") in summary_p or why in summary_p, why
    not_exact = [r for r in rows if r["agrees"] != "exact"]
    # one reason for every cell that is not exact: the sentence says it all, no table repeats it
    covered = len(whys) == 1 and len(unexplained) == len(not_exact)
    assert ('id="reproduction-cells-table"' in section) == bool(not_exact and not covered)
    cells = section.split('id="reproduction-cells-table"', 1)[-1].replace("&#39;", "'")
    for r in rows:
        assert "=" not in r["cell"], r["cell"]  # readers' names, not raw keys
        if r["agrees"] != "exact" and not covered:
            why = r.get("cause") or r["reason"]
            assert f"<td>{r['cell']}</td><td>{r['published']}</td>" in cells, r["cell"]
            assert why.replace('"', "&#34;") in cells or why in cells, why
    if study == "myrocks-cloud-cost":
        assert "<td>4.783</td><td>truncation</td>" in cells
