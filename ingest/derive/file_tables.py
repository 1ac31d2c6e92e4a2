"""Tables taken as they are from summary files, declared in the manifest's `file_tables:`
(docs/manifest.md, "Tables from summary files"): a study of summary tables (an insert
benchmark's results file, the mytools sysbench reports, any file a `files:` rule reads as
tables) needs no study module:

    files:
      - {glob: ibench.nuc, format: summary-table}
    file_tables:
      - id: load
        title: Inserts per second during the load
        file: ibench.nuc                     # a member a `files:` rule reads
        table: '(?P<rows>[0-9]+m), 1c, 1t, (?P<cpu>core-i[0-9]), mysql / load mysql'
        labels: {rows: Rows, cpu: CPU}       # headings of the name's groups (default: the group)
        columns: {engine: Binary, ips.av: Inserts/s}   # kept, in order (default: every column)

Every row of every table whose name the pattern matches, in file order, becomes a row: the
name's groups, then the columns. A column of numbers only is a number column (digits: the
most any of its values has); a cell written with a unit suffix (`9.49G`) keeps it as text.
"""

from __future__ import annotations

from collections.abc import Callable

from ingest.derive.context import StudyContext
from ingest.derive.declared import MAX_DIGITS
from ingest.derive.reproduction import decimals
from ingest.derive.tables import Column, DerivedTable, Row, col, column_key, table
from ingest.parse import Parsed
from ingest.problems import Problem, clean
from ingest.read.fields import Fields, LDict, check_display, section_items
from ingest.read.patterns import budgeted, compile_pattern
from ingest.read.records import Manifest
from ingest.read.sections import FileTable

FIELDS = ("id", "title", "file", "table", "labels", "columns")
MAX_FILE_TABLES = 100  # file tables of one manifest
MAX_ROWS = 100_000  # rows of one file table


def parse(path: str, doc: LDict) -> list[FileTable]:
    """The manifest's `file_tables:` (none without one), checked as declarations."""
    items = section_items(path, doc, "file_tables", MAX_FILE_TABLES, "file table declarations")
    return [_spec(path, item, where, line) for item, where, line in items]


def _spec(path: str, item: object, where: str, line: int) -> FileTable:
    v = Fields(path, item, where, line)
    v.only(FIELDS)
    title = v.get("title", str)
    if title is not None:
        check_display(v, "title", title, f"{where}: title")
    pattern = compile_pattern(v, "table", v.get("table", str, required=True), where, "table regex")
    labels = _headings(v, "labels", where) or {}
    for group in pattern.groupindex:
        labels.setdefault(group, group)
    if set(labels) - set(pattern.groupindex):
        v.fail("labels", f"{where}: labels names no group of `table`: {sorted(labels)}")
    return FileTable(
        id=v.get("id", str, required=True),
        title=title,
        line=v.line(),
        where=where,
        file=v.get("file", str, required=True),
        table=pattern,
        labels=labels,
        columns=_headings(v, "columns", where),
    )


def _headings(v: Fields, key: str, where: str) -> dict[str, str] | None:
    """A mapping of names to readers' headings, each checked as displayed text."""
    raw = v.get(key, LDict)
    if raw is None:
        return None
    out = {}
    for name, heading in raw.items():
        if not isinstance(name, str) or not isinstance(heading, str):
            v.fail(key, f"{where}: `{key}` maps names to headings (text)")
        check_display(v, key, heading, f"{where}: {key}")
        out[name] = heading
    return out


def build(ctx: StudyContext) -> list[DerivedTable]:
    """The manifest's file tables (parsed at load: `m.file_tables`)."""
    return [_table(ctx.manifest, ctx.files, spec) for spec in ctx.manifest.file_tables]


def _table(m: Manifest, files: dict[str, Parsed], spec: FileTable) -> DerivedTable:
    def fail(reason: str) -> Problem:
        return Problem(m.path, spec.line, f"{spec.where} ({spec.id}): {reason}")

    parsed = files.get(spec.file)
    if parsed is None:
        read = ", ".join(clean(f, 60) for f in list(files)[:5]) or "none"
        raise fail(f"no `files:` rule reads {spec.file!r} (read: {read})")
    chosen = [(t, mt) for t in parsed.tables if (mt := budgeted(spec.table, t.name, m.clock, fail))]
    if not chosen:
        names = "; ".join(clean(t.name, 60) for t in parsed.tables[:3]) or "none"
        raise fail(f"no table of {spec.file} matches `table` (its first: {names})")
    printed = list(spec.columns or dict.fromkeys(c for t, _ in chosen for c in t.columns))
    for t, _ in chosen:
        if missing := [c for c in printed if c not in t.columns]:
            raise fail(f"table {clean(t.name, 60)!r} has no column {clean(missing[0], 40)!r}")
    if clash := set(spec.labels) & set(printed):
        raise fail(f"group {sorted(clash)[0]!r} of `table` is also a column's name")
    keys = _keys([*spec.labels, *printed], fail)
    rows: list[Row] = []
    for t, mt in chosen:
        for i, row in enumerate(t.rows):
            cells: Row = {keys[g]: mt[g] for g in spec.labels}
            cells |= {keys[c]: _cell(row.get(c), t.units.get(f"{i}/{c}")) for c in printed}
            rows.append(cells)
    if len(rows) > MAX_ROWS:
        raise fail(f"more than {MAX_ROWS:,} rows")
    columns = [col(keys[g], h, "label") for g, h in spec.labels.items()]
    columns += [_column(keys[c], (spec.columns or {}).get(c, c), rows) for c in printed]
    return table(spec.id, spec.title or spec.id, columns, rows)


def _keys(names: list[str], fail: Callable[[str], Problem]) -> dict[str, str]:
    """A column key per group or printed column name (`column_key`), distinct."""
    keys = {n: column_key(n) for n in names}
    seen: dict[str, str] = {}
    for name, key in keys.items():
        if key in seen:
            raise fail(f"{clean(name, 40)!r} and {clean(seen[key], 40)!r} are one key, {key!r}")
        seen[key] = name
    return keys


def _cell(value: object, unit: str | None) -> object:
    """A number as parsed; with the unit it was written with (`9.49G`), that text."""
    if unit and isinstance(value, (int, float)):
        return f"{value:g}{unit}"
    return value


def _column(key: str, heading: str, rows: list[Row]) -> Column:
    """A number column when every value is a number (digits: the most any has, at most 15), a
    label column when every value is text, else text (numbers beside words)."""
    values = [r[key] for r in rows if r[key] is not None]
    if values and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in values):
        return col(key, heading, "number", digits=min(MAX_DIGITS, max(map(decimals, values))))
    texts = values and all(isinstance(x, str) for x in values)
    return col(key, heading, "label" if texts else "text" if values else "number")
