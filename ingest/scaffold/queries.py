"""`python -m ingest new` for a query benchmark (a DBT3 / TPC-H result folder): no member holds
an interval run, but some hold query runs (a format with a `times` table, ingest/join/queries.py).

The first draft: one `queries:` rule per shape of the query files' names, the part that
varies (the folder: a server and its configuration) becoming the label `folder`, so a run is
(folder, query, repeat); a `DESC`/README naming the folders (format `folder-desc`) becomes
`label_files:` (its descriptions are the folders' display names); the post has key results from
the default query tables, the per-query chart, the ratio heat table to the first folder, the
plans of the first query side by side, and the tables. The sar reports beside the runs become
the rule's `sar:` (templates from their names: `{folder}/{query}.sql_no_{repeat}_sar_u.txt`),
so the query-runs table has their means, and with %iowait a `sar-iowait` table. Every other
member (a kit's config, the per-run EXPLAIN files) is listed in the manifest's header with what
it was read as. Called through ingest/scaffold/__init__.py `draft` (its `_other_kinds`); the files are
written, like every draft, by the YAML emitter there.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ingest.join.queries import QUERY_FORMATS
from ingest.parse.member import parse_bytes
from ingest.problems import Problem
from ingest.read.archive import Archive
from ingest.scaffold import post
from ingest.scaffold.survey import (
    LISTED,
    Draft,
    Member,
    head_of,
    literal,
    newest_member_day,
    next_commands,
)

LABEL = "folder"
IOWAIT_TABLE = {
    "id": "sar-iowait",
    "title": "Median %iowait (sar) per query",
    "pivot": LABEL,
    "column": "sar_iowait",
    "digits": 1,
}
_IOWAIT_SECTION = """## What the machine did

{{< table id="sar-iowait" source="derived" caption="The median of each run's mean %iowait (sar) per query and server: the share of time the CPUs sat idle waiting for IO" >}}

"""
DESC_NAMES = re.compile(r"^(?:[^/]+/)?(?:DESC|README)(?:\.(?:txt|md))?$", re.I)


def is_query_archive(members: list[Member]) -> bool:
    """No interval run, some query runs: the scaffold of this module."""
    return not any(m.run for m in members) and any(m.format in QUERY_FORMATS for m in members)


def rules(members: list[Member]) -> list[dict[str, Any]]:
    """One rule per query file name with its folder as the label: `<folder>/<name>`, or the name
    alone (a folder of one server) with a constant label."""
    out: dict[str, dict[str, Any]] = {}
    for m in members:
        if m.format not in QUERY_FORMATS:
            continue
        folder, _, name = m.name.rpartition("/")
        key = f"{folder.count('/')}:{name}" if folder else name
        if key not in out:
            prefix = re.escape(folder.rsplit("/", 1)[0]) + "/" if "/" in folder else ""
            regex = f"{prefix}(?P<{LABEL}>[^/]+)/{re.escape(name)}" if folder else re.escape(name)
            out[key] = {"regex": regex, "format": m.format, "members": []}
            if not folder:
                out[key]["labels"] = {LABEL: Path(name).stem}
        out[key]["members"].append(m.name)
    return list(out.values())


def sar_templates(
    archive: Archive, rule: dict[str, Any], members: list[Member]
) -> tuple[list[str], set[str]]:
    """The `sar:` templates of a rule: the sar reports in the folder of its first query file
    whose names hold a run's query and repeat (`9-opt.sql_no_2_sar_u.txt`), each kept when
    it names a report of at least half of that folder's runs; and the columns of those reports."""
    first = rule["members"][0]
    folder = first.rpartition("/")[0]
    sar = {m.name for m in members if m.format == "sar"}
    local = sorted(n for n in sar if n.rpartition("/")[0] == folder)
    if not local or "labels" in rule:
        return [], set()
    try:
        parsed = parse_bytes(archive.read(first), first, rule["format"])
    except Problem:
        return [], set()
    times = next((t for t in parsed.tables if t.name == "times"), None)
    runs = [(str(r["query"]), r["repeat"]) for r in times.rows] if times else []
    out, columns = [], set()
    kept: dict[str, bool] = {}  # template -> names half the runs' reports: each counted once
    for name in local:
        base = name.rpartition("/")[2]
        for query, repeat in runs:
            if query not in base:  # a plain substring test before the regexes
                continue
            template = _sar_template(base, query, repeat)
            if template is None:
                continue
            if template not in kept:
                hits = sum(
                    f"{folder}/" + template.format(query=q, repeat=k) in sar for q, k in runs
                )
                kept[template] = hits * 2 >= len(runs)
                if kept[template]:
                    out.append(template)
                    columns |= _columns(archive, name)
            if kept[template]:
                break
    parent = folder.rsplit("/", 1)[0] + "/" if "/" in folder else ""
    return [literal(parent) + f"{{{LABEL}}}/{t}" for t in out], columns


def _columns(archive: Archive, member: str) -> set[str]:
    """The columns of one sar report (none when it does not read)."""
    try:
        parsed = parse_bytes(archive.read(member), member, "sar")
    except Problem:
        return set()
    return {c for s in parsed.sessions for c in s.series}


def _sar_template(base: str, query: str, repeat: int) -> str | None:
    """`base` with the run's query and, after it, its repeat as `{query}` and `{repeat}`."""
    q = re.search(rf"(?<![A-Za-z0-9]){re.escape(query)}(?![A-Za-z0-9])", base)
    if q is None:
        return None
    k = re.compile(rf"(?<![0-9]){repeat}(?![0-9])").search(base, q.end())
    if k is None:
        return None
    return (
        literal(base[: q.start()])
        + "{query}"
        + literal(base[q.end() : k.start()])
        + "{repeat}"
        + literal(base[k.end() :])
    )


def label_file(archive: Archive, members: list[Member], folders: set[str]) -> str | None:
    """A DESC/README of the archive that names at least one of the folders, or None."""
    for m in members:
        if not DESC_NAMES.match(m.name):
            continue
        try:
            parsed = parse_bytes(archive.read(m.name), m.name, "folder-desc")
        except Problem:
            continue
        named = next((t for t in parsed.tables if t.name == "folders"), None)
        if named and {r["folder"] for r in named.rows} & folders:
            return m.name
    return None


def _manifest(
    study: str,
    archive_path: Path,
    digest: str,
    origin: str | None,
    found: list[dict[str, Any]],
    desc: str | None,
) -> dict[str, Any]:
    doc = {
        **head_of(study, archive_path, digest, origin),
        "suite": "TPC-H",
        "labels": [LABEL],
        "label_names": {LABEL: "Server"},
        "queries": [_rule_entry(r) for r in found],
        # the ratio chart's table: a query's spread is its fastest to its slowest run
        "ratios": [
            {
                "table": "query-summary",
                "row": "query",
                "col": LABEL,
                "value": "median",
                "spread": {"lo": "min", "hi": "max"},
            }
        ],
    }
    if desc:
        doc["label_files"] = [{"file": desc, "display": LABEL}]
    return doc


def _rule_entry(rule: dict[str, Any]) -> dict[str, Any]:
    """A rule as the manifest writes it: no member list, `sar:` only when there are reports."""
    return {k: v for k, v in rule.items() if k != "members" and (k != "sar" or v)}


def _head(study: str, archive_path: Path, members: list[Member], desc: str | None) -> list[str]:
    listed = sorted(members, key=lambda m: m.format not in QUERY_FORMATS)  # stable: name order
    return [
        'Study manifest (docs/manifest.md, "Query runs"), proposed by `python -m ingest new` for a',
        "query benchmark; check it, then",
        f"`{next_commands(study, archive_path)[0]}` reports what each rule took.",
        f"A run is ({LABEL}, query, repeat): `{LABEL}` is the folder of each query file"
        + (f", named by {desc}" if desc else "")
        + ".",
        "suite: the DBT3 kit's queries are TPC-H's (the compare page matches queries by suite); check it.",
        'query_tables: add per-query tables, ratios and geometric means (docs/manifest.md, "Query tables").',
        "Archive members (the query runs first):",
        *(f"  {m.name}: {m.format + ': ' if m.format else ''}{m.why}" for m in listed[:LISTED]),
        *(
            [f"  ... and {len(members) - LISTED} more (`make ingest` reports each)"]
            if len(members) > LISTED
            else []
        ),
    ]


def _value(col: str, agg: str, show: str | None = None) -> str:
    extra = f' show="{show}"' if show else ""
    return f'{{{{< value table="query-summary" col="{col}" agg="{agg}"{extra} >}}}}'


def _body(iowait: bool = False) -> str:
    """Key results from the default query tables (every number through `value`), the per-query
    chart, the ratio heat table, the first query's plans, the sar table (`iowait`), the tables,
    the provenance."""
    slow = f"{_value('median', 'max')} s (query {_value('median', 'max', 'query')}, {_value('median', 'max', LABEL)})"
    fast = f"{_value('median', 'min')} s (query {_value('median', 'min', 'query')}, {_value('median', 'min', LABEL)})"
    spread = f"{_value('spread', 'max')} of their median (query {_value('spread', 'max', 'query')}, {_value('spread', 'max', LABEL)})"
    return f"""{{{{< keyresults >}}}}
{{{{< keyresult ref="query-times" >}}}}The slowest query took a median of {slow}.{{{{< /keyresult >}}}}
{{{{< keyresult ref="query-times" >}}}}The fastest took {fast}.{{{{< /keyresult >}}}}
{{{{< keyresult ref="query-times" >}}}}The runs of one query spread by up to {spread}.{{{{< /keyresult >}}}}
{{{{< /keyresults >}}}}

## Query by query

{{{{< chart kind="queries" id="query-times" color="{LABEL}" source="derived" caption="Seconds per query: every timed run, its median and its range; a query that did not finish says so" >}}}}

{{{{< chart kind="ratio" id="query-ratios" table="query-summary" row="query" col="{LABEL}" value="median" source="derived" caption="Median time of each query as a ratio to the base's" >}}}}

## The plans

{{{{< chart kind="plans" id="plans" by="{LABEL}" source="derived" caption="The EXPLAIN plan of a query on each server, the cells that differ from the first one's marked" >}}}}

{_IOWAIT_SECTION if iowait else ""}## The runs

{{{{< table id="query-summary" source="derived" collapsed="true" >}}}}

{{{{< table id="query-runs" source="derived" lazy="true" >}}}}

## Provenance

{{{{< provenance >}}}}
"""


def draft(
    study: str, path: Path, digest: str, origin: str | None, arc: Archive, members: list[Member]
) -> Draft | None:
    """The first draft of a query benchmark, or None when the archive is not one (the hook of
    ingest/scaffold/__init__.py `draft`)."""
    if not is_query_archive(members):
        return None
    found = rules(members)
    sar_columns: set[str] = set()
    for rule in found:
        rule["sar"], columns = sar_templates(arc, rule, members)
        sar_columns |= columns
    folders = {n.rpartition("/")[0].rsplit("/", 1)[-1] for r in found for n in r["members"]}
    desc = label_file(arc, members, folders)
    doc = _manifest(study, path, digest, origin, found, desc)
    iowait = "%iowait" in sar_columns
    if iowait:  # the CPU's wait for IO per query and server: the first question sar answers
        doc["query_tables"] = [IOWAIT_TABLE]
    terms = {"engines": [], "versions": [], "benchmarks": ["DBT3"], "storage": []}
    front, notes = post.front_matter(doc, study, origin, newest_member_day(path), terms, [])
    front["summary"] = (
        f"The query runs of {path.name}, query by query; the summary is still to be written."
    )
    notes_rules = [f"takes {len(r['members'])} member(s), e.g. {r['members'][0]}" for r in found]
    return Draft(doc, _head(study, path, members, desc), notes_rules, front, notes, _body(iowait))
