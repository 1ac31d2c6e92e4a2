"""Query runs (docs/manifest.md, "Query runs"): a benchmark of fixed queries (DBT3 / TPC-H,
one query timed a few times per server) read next to the interval runs of runs.py.

A query run is (labels, query, repeat) with a time in seconds, or none when the query did not
finish (its status says so, never a time), and the EXPLAIN plan printed before it when the
file has one. The manifest's `queries:` rules say which archive members hold them (any format
whose parse has a `times` table: `query, repeat, seconds, status`, and `plan <query> run <k>`
tables, e.g. `dbt3-explains`); labels come from the rule's named groups and `labels:`, and
from `label_files:`, a file naming what each folder is (`folder-desc`: the description
becomes the value's display name, and a `regex:` over it more labels).

The default query tables (`query_summary`, `query_runs`, `query_plans`) and the declared
`query_tables:` (ingest/derive/query_tables.py) are written like any derived table.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field

import regex

from ingest.derive.tables import col, column_key
from ingest.join.query_sar import SarFiles
from ingest.parse.member import parse_bytes
from ingest.problems import Problem, clean
from ingest.read.archive import Archive
from ingest.read.fields import Fields, LList, load_yaml, typed_label
from ingest.read.records import Manifest

DID_NOT_FINISH = "did not finish"
NO_SAR = "no sar file"
TIMES = ("query", "repeat", "seconds", "status")  # the columns a query format's `times` has
QUERY_FORMATS = ("dbt3-explains",)  # the formats whose parse has a `times` table (query runs)
PLAN = re.compile(r"^plan (?P<query>\S+) run (?P<repeat>\d+)$")
LABEL_FILE = ("file", "regex", "label", "display", "input", "format")


@dataclass
class QueryData:
    """What the `queries:` rules took: run records, distinct plans, the rule each run came from."""

    runs: list[dict] = field(default_factory=list)
    plans: list[dict] = field(default_factory=list)  # {labels, query, repeats, rows}
    problems: list[Problem] = field(default_factory=list)
    per_rule: dict[int, int] = field(default_factory=dict)  # rule line -> runs taken
    members: set = field(default_factory=set)  # (input, member) taken by a rule or label file
    sar_columns: dict = field(default_factory=dict)  # run field -> sar column (query_sar.py)


def collect(m: Manifest, archives: dict[str, Archive]) -> QueryData:
    """The query runs of the manifest's `queries:` rules, labelled, with their plans."""
    out = QueryData()
    if not m.queries:
        return out
    described = _label_files(m, archives, out)
    seen: dict[tuple, str] = {}
    plans: dict[tuple, dict] = {}
    sar = SarFiles(m)
    for rule in m.queries:
        out.per_rule[rule.line] = 0
        arc = archives[rule.input]
        names = set(arc.names()) if rule.sar else set()
        for member in arc.names():
            mt = rule.match(m.path, member)
            if not mt or any(r.match(m.path, member) for r in _before(m, rule)):
                continue
            file = f"{arc.name}/{member}"
            parsed = parse_bytes(arc.read(member), file, rule.format)
            out.problems.extend(parsed.problems)
            out.members.add((rule.input, member))
            labels = _labels(m, rule, mt, described.get(member.rpartition("/")[0]), file)
            times = next((t for t in parsed.tables if t.name == "times"), None)
            if times is None or not set(TIMES) <= set(times.columns):
                raise Problem(
                    m.path,
                    rule.line,
                    f"{clean(member, 80)}: format {parsed.format} gives no query times "
                    f"(a `times` table of {', '.join(TIMES)}): not a query format",
                )
            for i, row in enumerate(times.rows):
                key = (tuple(labels.items()), str(row["query"]), row["repeat"])
                if key in seen:
                    raise Problem(
                        m.path,
                        rule.line,
                        f"query {row['query']} run {row['repeat']} of {_named(labels)} is in "
                        f"{clean(member, 80)} and in {seen[key]}",
                    )
                seen[key] = member
                run = _run(rule, labels, row, times.notes.get(f"{i}/seconds"), member)
                if rule.sar:
                    fields = {k: v for k, v in mt.groupdict().items() if v is not None}
                    fields |= {**labels, "query": run["query"], "repeat": run["repeat"]}
                    run["sar"] = sar.of_run(rule, arc, names, fields)
                out.runs.append(run)
                out.per_rule[rule.line] += 1
            _add_plans(plans, labels, parsed.tables)
    out.problems += sar.warnings()
    out.members |= sar.members
    out.sar_columns = sar.columns
    if not out.runs:
        raise Problem(m.path, m.line_of.get("queries"), "queries: the rules take no query run")
    out.plans = list(plans.values())
    return out


def _before(m: Manifest, rule) -> list:
    """The query rules above `rule` (the first matching rule takes a member)."""
    return m.queries[: m.queries.index(rule)]


def _named(labels: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in labels.items()) or "the study"


def _run(rule, labels: dict, row: dict, note: str | None, member: str) -> dict:
    seconds = row["seconds"]
    done = seconds is not None
    return {
        "labels": labels,
        "query": str(row["query"]),
        "repeat": row["repeat"],
        "seconds": seconds,
        "status": "finished" if done else DID_NOT_FINISH,
        "note": None if done else (note or DID_NOT_FINISH),
        "published": rule.published,
        "source": f"{member}:{row['line']}" if row.get("line") else member,
    }


def _labels(m: Manifest, rule, mt, described: dict | None, file: str) -> dict:
    """A member's labels: the rule's named groups, its `labels:`, then what a label file says
    of its folder; each in `labels:` (else a manifest error), typed by `label_types:`. The
    folder's description becomes the display name of the label file's `display:` label."""
    labels = {k: v for k, v in mt.groupdict().items() if v is not None}
    labels.update(rule.labels)
    if described:
        labels.update(described["labels"])
    for k in labels:
        if k not in m.labels:
            raise Problem(
                m.path,
                rule.line,
                f"queries: label {clean(k, 40)!r} (of {clean(file, 80)}) is not one of labels "
                f"({', '.join(m.labels)})",
            )
    typed = {k: typed_label(m.path, rule.line, k, v, m.label_types) for k, v in labels.items()}
    if described and described["display"] in typed:
        shown = m.display.setdefault(described["display"], {})
        shown.setdefault(str(typed[described["display"]]), described["description"])
    return {k: typed[k] for k in m.labels if k in typed}


def _add_plans(plans: dict, labels: dict, tables) -> None:
    """Each run's plan, kept once per (labels, query, plan): the repeats that printed it."""
    for t in tables:
        mt = PLAN.match(t.name)
        if not mt or not t.rows:
            continue
        rows = [{column_key(c): r.get(c) for c in t.columns} for r in t.rows]
        key = (tuple(labels.items()), mt["query"], repr(rows))
        plans.setdefault(key, {"labels": labels, "query": mt["query"], "repeats": [], "rows": rows})
        plans[key]["repeats"].append(int(mt["repeat"]))


# -- label files --------------------------------------------------------------------------
def _label_files(m: Manifest, archives: dict, out: QueryData) -> dict:
    """folder -> {labels, description, display} from the manifest's `label_files:` (a file
    naming what each folder is: `regex:` named groups of a description become labels, `label:`
    takes the whole description, `display:` names the label whose value it describes)."""
    doc = load_yaml(m.path)
    specs = doc.get("label_files")
    if specs is None:
        return {}
    if not isinstance(specs, LList):
        raise Problem(m.path, doc.key_lines["label_files"], "label_files: must be a list")
    described = {}
    for i, spec in enumerate(specs):
        v = Fields(m.path, spec, f"label_files[{i}]")
        v.only(LABEL_FILE)
        where = f"label_files[{i}]"
        label, display = v.get("label", str), v.get("display", str)
        for k in (label, display):
            if k is not None and k not in m.labels:
                v.fail(
                    "label" if k == label else "display",
                    f"{where}: {k!r} is not one of labels ({', '.join(m.labels)})",
                )
        pattern = _pattern(v, i)
        if pattern is None and label is None and display is None:
            v.fail(
                None, f"{where}: give `regex:`, `label:` or `display:` (what the descriptions say)"
            )
        rows, file = _folders(m, archives, v, out, where)
        for row in rows:
            got = {label: row["description"]} if label else {}
            if pattern is not None:
                hit = pattern.search(row["description"])
                if hit is None:
                    raise Problem(
                        file,
                        row["line"],
                        f"{where}: {clean(row['description'], 80)!r} does not match "
                        f"the regex of {m.path}:{v.line('regex')}",
                    )
                got.update((k, x) for k, x in hit.groupdict().items() if x is not None)
            entry = described.setdefault(
                str(row["folder"]),
                {"labels": {}, "description": row["description"], "display": display},
            )
            entry["labels"].update(got)
            entry["display"] = display or entry["display"]
    return described


def _folders(m: Manifest, archives: dict, v: Fields, out: QueryData, where: str):
    """The `folders` rows of a label file, and its name as read."""
    inp = v.get("input", str, default=m.queries[0].input)
    if inp not in archives:
        v.fail("input", f"{where}: input {inp!r} is not an archive input")
    member = v.get("file", str, required=True)
    if member not in archives[inp].names():
        v.fail("file", f"{where}: {member!r} is not a file of {inp}")
    out.members.add((inp, member))
    file = f"{inp}/{member}"
    parsed = parse_bytes(
        archives[inp].read(member), file, v.get("format", str, default="folder-desc")
    )
    folders = next((t for t in parsed.tables if t.name == "folders"), None)
    if folders is None:
        v.fail("file", f"{where}: {member} names no folder (no `folder: description` line)")
    return folders.rows, file


def _pattern(v: Fields, i: int):
    source = v.get("regex", str)
    if source is None:
        return None
    try:
        return regex.compile(source, regex.VERSION0)
    except (regex.error, RecursionError, OverflowError, ValueError) as e:
        v.fail("regex", f"label_files[{i}]: bad regex ({clean(e, 120)})")


# -- statistics ---------------------------------------------------------------------------
def natural(query: str) -> tuple:
    """Sort key of a query name: `2` < `7` < `7-opt` < `12`."""
    return tuple(
        (0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.findall(r"\d+|\D+", query)
    )


def cell_stats(runs: list[dict], column: str = "seconds") -> dict:
    """Statistics of the repeats of one (labels, query): n, finished, median, min, max, mean,
    spread ((max - min) / median) over the finished ones; `status` says how many did not finish.
    A query that never finished has no time: its statistics are missing. With a sar `column`
    (query_sar.py) they are of that column, over the runs that have it."""

    def value(r):
        return r["seconds"] if column == "seconds" else r.get("sar", {}).get(column)

    times = sorted(v for r in runs if (v := value(r)) is not None)
    dnf = len(runs) - len(times)
    lacking, some = (
        (DID_NOT_FINISH, "did not finish") if column == "seconds" else (NO_SAR, "have no sar file")
    )
    status = "finished" if not dnf else lacking if not times else f"{dnf} of {len(runs)} {some}"
    if not times:
        return {"n": len(runs), "finished": 0, "status": status}
    median = statistics.median(times)
    return {
        "n": len(runs),
        "finished": len(times),
        "status": status,
        "median": median,
        "min": times[0],
        "max": times[-1],
        "mean": round(statistics.fmean(times), 6),
        "spread": round((times[-1] - times[0]) / median, 6) if median else None,
    }


def group(runs: list[dict], keys: list[str]) -> dict[tuple, list[dict]]:
    """Runs by (label values of `keys`..., query), in label then natural query order."""
    out: dict[tuple, list[dict]] = {}
    for r in runs:
        out.setdefault((*(r["labels"].get(k) for k in keys), r["query"]), []).append(r)
    return out


# -- the default tables -------------------------------------------------------------------
def label_columns(m: Manifest, runs: list[dict]) -> list[str]:
    """The labels the query runs have, in `labels:` order."""
    have = {k for r in runs for k in r["labels"]}
    return [k for k in m.labels if k in have]


def summary_table(m: Manifest, data: QueryData) -> dict:
    """`query-summary`: one row per (query, labels), in query order: n, finished, median, min,
    max, mean, spread, status."""
    keys = label_columns(m, data.runs)
    rows, notes = [], {}
    cells = group(data.runs, keys)
    for key in sorted(cells, key=lambda k: (natural(k[-1]), _order(data.runs, keys, k[:-1]))):
        st = cell_stats(cells[key])
        row = {**dict(zip(keys, key[:-1])), "query": key[-1], **st}
        if st["finished"] < st["n"]:
            for c in ("median", "min", "max") if not st["finished"] else ("median",):
                notes[f"{len(rows)}/{c}"] = st["status"]
        rows.append(row)
    return {
        "id": "query-summary",
        "title": "Each query's runs: median, fastest and slowest, in seconds",
        "columns": [
            *(col(k, m.heading(k), "label") for k in keys),
            col("query", "Query", "label"),
            col("n", "Runs", "number", 0),
            col("finished", "Finished", "number", 0),
            col("median", "Median s", "number"),
            col("min", "Min s", "number"),
            col("max", "Max s", "number"),
            col("mean", "Mean s", "number", 1),
            col("spread", "Spread (max - min) / median", "number", 3),
            col("status", "Status", "text"),
        ],
        "rows": rows,
        "notes": notes,
    }


def _order(runs, keys, values) -> int:
    """Position of a label combination among the runs (archive order)."""
    for i, r in enumerate(runs):
        if tuple(r["labels"].get(k) for k in keys) == tuple(values):
            return i
    return len(runs)


def runs_table(m: Manifest, data: QueryData) -> dict:
    """`query-runs`: every run, its time (missing when it did not finish) and where it was read."""
    keys = label_columns(m, data.runs)
    rows, notes = [], {}
    for r in data.runs:
        if r["note"]:
            notes[f"{len(rows)}/seconds"] = r["note"]
        rows.append(
            {
                **{k: r["labels"].get(k) for k in keys},
                "query": r["query"],
                "repeat": r["repeat"],
                "seconds": r["seconds"],
                **{k: r.get("sar", {}).get(k) for k in data.sar_columns},
                "status": r["status"],
                "published": "yes" if r["published"] else "no",
                "source": r["source"],
            }
        )
    return {
        "id": "query-runs",
        "title": "Every run of every query, as timed",
        "columns": [
            *(col(k, m.heading(k), "label") for k in keys),
            col("query", "Query", "label"),
            col("repeat", "Run", "number", 0),
            col("seconds", "Seconds", "number"),
            *(col(k, f"{name} (sar, mean)", "number", 2) for k, name in data.sar_columns.items()),
            col("status", "Status", "text"),
            col("published", "Published", "label"),
            col("source", "Read from", "text"),
        ],
        "rows": rows,
        "notes": notes,
    }


def plans_table(m: Manifest, data: QueryData) -> dict:
    """`query-plans`: the EXPLAIN rows of each (labels, query), once per distinct plan, with
    the repeats that printed it (a plan that changed between repeats has a row group each)."""
    keys = label_columns(m, data.runs)
    plan_cols: list[str] = []
    for p in data.plans:
        for r in p["rows"]:
            plan_cols += [c for c in r if c not in plan_cols]
    rows = []
    order = {k: i for i, k in enumerate(group(data.runs, keys))}
    for p in sorted(
        data.plans,
        key=lambda p: (order.get((*p["labels"].values(), p["query"]), 0), natural(p["query"])),
    ):
        for step, r in enumerate(p["rows"], start=1):
            rows.append(
                {
                    **{k: p["labels"].get(k) for k in keys},
                    "query": p["query"],
                    "runs": _ranges(p["repeats"]),
                    "step": step,
                    **{c: r.get(c) for c in plan_cols},
                }
            )
    numeric = {"id", "rows", "filtered"}
    return {
        "id": "query-plans",
        "title": "The EXPLAIN plan of each query, as printed before its runs",
        "columns": [
            *(col(k, m.heading(k), "label") for k in keys),
            col("query", "Query", "label"),
            col("runs", "Runs", "text"),
            col("step", "Step", "number", 0),
            *(
                col(
                    c,
                    c,
                    "number" if c in numeric else "text",
                    2 if c == "filtered" else 0 if c in numeric else None,
                )
                for c in plan_cols
            ),
        ],
        "rows": rows,
        "notes": {},
    }


def _ranges(numbers: list[int]) -> str:
    """`1-3, 5` for [1, 2, 3, 5]."""
    out, start = [], None
    ns = sorted(numbers)
    for i, n in enumerate(ns):
        start = n if start is None else start
        if i + 1 == len(ns) or ns[i + 1] != n + 1:
            out.append(f"{start}-{n}" if n != start else str(n))
            start = None
    return ", ".join(out)


def default_tables(m: Manifest, data: QueryData) -> list[dict]:
    """The tables every study with query runs gets (a declared table of the same id replaces one)."""
    if not data.runs:
        return []
    tables = [summary_table(m, data), runs_table(m, data)]
    if data.plans:
        tables.append(plans_table(m, data))
    return tables


def study_entry(m: Manifest, data: QueryData) -> dict:
    """study.yaml's `queries`: the query suite the manifest names (`suite:`, e.g. TPC-H: the
    compare page matches a query across studies of one suite), the labels, and the counts."""
    suite = load_yaml(m.path).get("suite")
    if suite is not None and not isinstance(suite, str):
        raise Problem(m.path, m.line_of.get("suite"), "suite: must be a name, e.g. TPC-H")
    return {
        "suite": suite,
        "labels": label_columns(m, data.runs),
        "runs": len(data.runs),
        "queries": sorted({r["query"] for r in data.runs}, key=natural),
    }
