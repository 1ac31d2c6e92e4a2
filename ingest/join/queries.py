"""Query runs (docs/manifest.md, "Query runs"): a benchmark of fixed queries (DBT3 / TPC-H,
one query timed a few times per server) read next to the interval runs of runs.py.

A query run is (labels, query, repeat) with a time in seconds, or none when the query did not
finish (its status says so, never a time), and the EXPLAIN plan printed before it when the
file has one. The manifest's `queries:` rules say which archive members hold them (any format
whose parse has a `times` table: `query, repeat, seconds, status`, and `plan <query> run <k>`
tables, e.g. `dbt3-explains`); labels come from the rule's named groups and `labels:`, and
from `label_files:`, a file naming what each folder is (`folder-desc`: the description
becomes the value's display name, and a `regex:` over it more labels).

The default query tables (`query-summary`, `query-runs`, `query-plans`:
ingest/derive/query_defaults.py) and the declared `query_tables:` (ingest/derive/query_tables.py)
are built from them, with the statistics below.
"""

from __future__ import annotations

import functools
import re
import statistics
from dataclasses import dataclass, field, replace
from typing import Any

import regex

from ingest.derive.tables import column_key
from ingest.join.query_sar import SarFiles
from ingest.join.records import QueryRun
from ingest.parse import Table as ParsedTable
from ingest.parse.member import SeriesBudget, parse_bytes
from ingest.problems import Problem, clean
from ingest.read.archive import Archive
from ingest.read.fields import Fields, Label, LDict, LList, typed_label
from ingest.read.patterns import budgeted, compile_pattern
from ingest.read.records import Manifest, Rule
from ingest.read.sections import LabelFile

DID_NOT_FINISH = "did not finish"
DIGITS = "0123456789"
NO_SAR = "no sar file"
TIMES = ("query", "repeat", "seconds", "status")  # the columns a query format's `times` has
QUERY_FORMATS = ("dbt3-explains",)  # the formats whose parse has a `times` table (query runs)
PLAN = re.compile(r"^plan (?P<query>\S+) run (?P<repeat>\d+)$")
LABEL_FILE = ("file", "regex", "label", "display", "input", "format")
Plan = dict[str, Any]  # labels, query, repeats (the runs that printed it), rows (its steps)
Described = dict[str, Any]  # a label file's entry of a folder: labels, description, display


@dataclass
class QueryData:
    """What the `queries:` rules took: run records, distinct plans, the rule each run came from."""

    runs: list[QueryRun] = field(default_factory=list)
    plans: list[Plan] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    per_rule: dict[int, int] = field(default_factory=dict)  # rule line -> runs taken
    # (input, member) taken by a rule or a label file
    members: set[tuple[str, str]] = field(default_factory=set)
    sar_columns: dict[str, str] = field(default_factory=dict)  # run field -> sar column


def collect(
    m: Manifest, archives: dict[str, Archive], budget: SeriesBudget | None = None
) -> QueryData:
    """The query runs of the manifest's `queries:` rules, labelled, with their plans; every
    file read (query files, label files, sar files) counted by the ingest's series budget."""
    out = QueryData()
    if not m.queries:
        return out
    budget = budget or SeriesBudget()
    described = _label_files(m, archives, out, budget)
    seen: dict[tuple[Any, ...], str] = {}
    plans: dict[tuple[Any, ...], Plan] = {}
    sar = SarFiles(m, budget)
    for rule in m.queries:
        out.per_rule[rule.line] = 0
        arc = archives[rule.input]
        names = set(arc.names()) if rule.sar else set()
        for member in arc.names():
            mt = rule.match(m.path, member)
            if not mt or any(r.match(m.path, member) for r in _before(m, rule)):
                continue
            file = f"{arc.name}/{member}"
            data = arc.read(member)
            budget.take_text(data, file)
            parsed = parse_bytes(data, file, rule.format)
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
                    fields |= {**labels, "query": run.query, "repeat": run.repeat}
                    run = replace(run, sar=sar.of_run(rule, arc, names, fields))
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


def _before(m: Manifest, rule: Rule) -> list[Rule]:
    """The query rules above `rule` (the first matching rule takes a member)."""
    return m.queries[: m.queries.index(rule)]


def _named(labels: dict[str, Label]) -> str:
    return ", ".join(f"{k}={v}" for k, v in labels.items()) or "the study"


def _run(
    rule: Rule, labels: dict[str, Label], row: dict[str, Any], note: str | None, member: str
) -> QueryRun:
    seconds = row["seconds"]
    done = seconds is not None
    return QueryRun(
        labels=labels,
        query=str(row["query"]),
        repeat=row["repeat"],
        seconds=seconds,
        status="finished" if done else DID_NOT_FINISH,
        note=None if done else (note or DID_NOT_FINISH),
        published=rule.published,
        source=f"{member}:{row['line']}" if row.get("line") else member,
    )


def _labels(
    m: Manifest, rule: Rule, mt: regex.Match[str], described: Described | None, file: str
) -> dict[str, Label]:
    """A member's labels: the rule's named groups, its `labels:`, then what a label file says
    of its folder; each in `labels:` (else a manifest error), typed by `label_types:`. The
    folder's description becomes the display name of the label file's `display:` label."""
    labels = {k: v for k, v in mt.groupdict().items() if v is not None}
    labels.update(rule.joined_labels(mt.groupdict()))
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


def _add_plans(
    plans: dict[tuple[Any, ...], Plan], labels: dict[str, Label], tables: list[ParsedTable]
) -> None:
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
def parse_label_files(
    path: str, doc: LDict, labels: list[str], queries: list[Rule], archives: list[str]
) -> list[LabelFile]:
    """The manifest's `label_files:`, checked at load (`archives`: the archive inputs' names);
    that each file is in its archive and reads as folders is checked when it is read."""
    specs = doc.get("label_files")
    if specs is None:
        return []
    if not isinstance(specs, LList):
        raise Problem(path, doc.key_lines["label_files"], "label_files: must be a list")
    if not queries:
        raise Problem(
            path,
            doc.key_lines["label_files"],
            "label_files: the study has no query runs (`queries:`)",
        )
    return [_label_file(path, spec, i, labels, queries, archives) for i, spec in enumerate(specs)]


def _label_file(
    path: str, spec: object, i: int, labels: list[str], queries: list[Rule], archives: list[str]
) -> LabelFile:
    where = f"label_files[{i}]"
    v = Fields(path, spec, where)
    v.only(LABEL_FILE)
    label, display = v.get("label", str), v.get("display", str)
    for k in (label, display):
        if k is not None and k not in labels:
            v.fail(
                "label" if k == label else "display",
                f"{where}: {k!r} is not one of labels ({', '.join(labels)})",
            )
    pattern = _pattern(v, i)
    if pattern is None and label is None and display is None:
        v.fail(None, f"{where}: give `regex:`, `label:` or `display:` (what the descriptions say)")
    inp = v.get("input", str, default=queries[0].input)
    if inp not in archives:
        v.fail("input", f"{where}: input {inp!r} is not an archive input")
    return LabelFile(
        where=where,
        input=inp,
        file=v.get("file", str, required=True),
        format=v.get("format", str, default="folder-desc"),
        pattern=pattern,
        label=label,
        display=display,
        file_line=v.line("file"),
        regex_line=v.line("regex"),
    )


def parse_suite(path: str, doc: LDict) -> str | None:
    """The manifest's `suite:`, the query set its query runs are of (e.g. TPC-H)."""
    suite = doc.get("suite")
    if suite is not None and not isinstance(suite, str):
        raise Problem(path, doc.key_lines.get("suite"), "suite: must be a name, e.g. TPC-H")
    return suite


def _label_files(
    m: Manifest, archives: dict[str, Archive], out: QueryData, budget: SeriesBudget
) -> dict[str, Described]:
    """folder -> {labels, description, display} from the manifest's `label_files:`."""
    described: dict[str, Described] = {}
    for spec in m.label_files:
        rows, file = _folders(m, archives, spec, out, budget)
        slow = functools.partial(_slow_label_regex, m, spec)
        for row in rows:
            got = {spec.label: row["description"]} if spec.label else {}
            if spec.pattern is not None:
                hit = budgeted(
                    spec.pattern,
                    row["description"],
                    m.clock,
                    slow,
                    "search",
                )
                if hit is None:
                    raise Problem(
                        file,
                        row["line"],
                        f"{spec.where}: {clean(row['description'], 80)!r} does not match "
                        f"the regex of {m.path}:{spec.regex_line}",
                    )
                got.update((k, x) for k, x in hit.groupdict().items() if x is not None)
            entry = described.setdefault(
                str(row["folder"]),
                {"labels": {}, "description": row["description"], "display": spec.display},
            )
            entry["labels"].update(got)
            entry["display"] = spec.display or entry["display"]
    return described


def _slow_label_regex(m: Manifest, spec: LabelFile, reason: str) -> Problem:
    return Problem(m.path, spec.regex_line, f"{spec.where}: {reason}")


def _folders(
    m: Manifest, archives: dict[str, Archive], spec: LabelFile, out: QueryData, budget: SeriesBudget
) -> tuple[list[dict[str, Any]], str]:
    """The `folders` rows of a label file, and its name as read."""
    if spec.file not in archives[spec.input].names():
        raise Problem(
            m.path, spec.file_line, f"{spec.where}: {spec.file!r} is not a file of {spec.input}"
        )
    out.members.add((spec.input, spec.file))
    file = f"{spec.input}/{spec.file}"
    data = archives[spec.input].read(spec.file)
    budget.take_text(data, file)
    parsed = parse_bytes(data, file, spec.format)
    folders = next((t for t in parsed.tables if t.name == "folders"), None)
    if folders is None:
        raise Problem(
            m.path,
            spec.file_line,
            f"{spec.where}: {spec.file} names no folder (no `folder: description` line)",
        )
    return folders.rows, file


def _pattern(v: Fields, i: int) -> regex.Pattern[str] | None:
    """The `regex:` over the descriptions, bounded and compiled as every manifest pattern."""
    source = v.get("regex", str)
    if source is None:
        return None
    return compile_pattern(v, "regex", source, f"label_files[{i}]")


# -- statistics ---------------------------------------------------------------------------
def natural(query: str) -> tuple[tuple[int, int, str], ...]:
    """Sort key of a query name: `2` < `7` < `7-opt` < `12`. A run of ASCII digits compares
    by its length without leading zeros, then as text: no `int()`, which refuses 4,301 digits."""
    return tuple(
        (0, len(p.lstrip("0")), p.lstrip("0")) if p[0] in DIGITS else (1, 0, p)
        for p in re.findall(r"[0-9]+|[^0-9]+", query)
    )


def cell_stats(runs: list[QueryRun], column: str = "seconds") -> dict[str, Any]:
    """Statistics of the repeats of one (labels, query): n, finished, median, min, max, mean,
    spread ((max - min) / median) over the finished ones; `status` says how many did not finish.
    A query that never finished has no time: its statistics are missing. With a sar `column`
    (query_sar.py) they are of that column, over the runs that have it."""

    def value(r: QueryRun) -> float | None:
        return r.seconds if column == "seconds" else r.sar.get(column)

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


def group(runs: list[QueryRun], keys: list[str]) -> dict[tuple[Any, ...], list[QueryRun]]:
    """Runs by (label values of `keys`..., query), in label then natural query order."""
    out: dict[tuple[Any, ...], list[QueryRun]] = {}
    for r in runs:
        out.setdefault((*(r.labels.get(k) for k in keys), r.query), []).append(r)
    return out


def label_columns(m: Manifest, runs: list[QueryRun]) -> list[str]:
    """The labels the query runs have, in `labels:` order."""
    have = {k for r in runs for k in r.labels}
    return [k for k in m.labels if k in have]
