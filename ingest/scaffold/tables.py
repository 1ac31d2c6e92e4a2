"""`python -m ingest new` for an archive of summary tables (no run with intervals, no query
run): an insert benchmark's results file, the mytools sysbench reports, Markdown or HTML
tables of figures.

The first draft: a `files:` rule per member holding tables, and a `file_tables:` entry per
kind of table (a member's tables with the same columns), its `table` pattern taking every one
of their names. The parts of the names that vary are groups named, as the runs' are
(ingest/scaffold/names.py), for what their values say (engine, threads, iops, a size with its
unit spelt out); a part whose name would be a guess (`10m`: ten million rows or 10 MB?) is
`part1`, `part2`, ... for the author to name. The post: three key results from the tables'
first number columns through `value`, a table per entry, the provenance. Called through
ingest/scaffold/__init__.py `draft` (its `_other_kinds`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, TypedDict

from ingest.derive.tables import column_key, slug
from ingest.parse import Table
from ingest.parse.member import parse_bytes
from ingest.read.archive import Archive
from ingest.scaffold import names as naming
from ingest.scaffold import post
from ingest.scaffold.survey import LISTED, Draft, Member, head_of, newest_member_day, next_commands

TABLE_FORMATS = ("summary-table", "sysbench-report", "markdown-tables", "html-table")
MAX_KINDS = 12  # file tables proposed per member (the first kinds, in file order)
SIZE_WORDS = {"gb", "mb", "tb", "kb", "gib", "mib", "tib", "kib"}  # a unit no reading doubts
KEY_RESULTS = 3
LAZY_ROWS = 40  # a table not shown open with more rows is on a page of its own (as the runs')


class _Entry(TypedDict):
    """A `file_tables:` entry (`spec`) and what the post says of its tables."""

    spec: dict[str, Any]
    count: int  # tables
    rows: int  # rows, in all of them
    numbers: list[str]  # the columns every cell of which is a number (or missing)
    example: str  # the first table's name


def draft(
    study: str, path: Path, digest: str, origin: str | None, arc: Archive, members: list[Member]
) -> Draft | None:
    """The first draft of an archive of summary tables, or None when it holds none."""
    tabled = [m for m in members if m.format in TABLE_FORMATS and m.tables]
    if not tabled or any(m.run for m in members):
        return None
    entries: list[_Entry] = []
    used: set[str] = set()
    for m in tabled:
        parsed = parse_bytes(arc.read(m.name), m.name, m.format or "auto")
        kinds: dict[tuple[str, ...], list[Table]] = {}
        for t in parsed.tables:
            kinds.setdefault(tuple(t.columns), []).append(t)
        for tables in list(kinds.values())[:MAX_KINDS]:
            entries.append(_entry(m.name, tables, used))
    doc = {
        **head_of(study, path, digest, origin),
        "files": [{"glob": m.name, "format": m.format} for m in tabled],
        "file_tables": [e["spec"] for e in entries],
    }
    if not _picks(entries):
        return None  # no number to say anything of: no post (ingest/scaffold/__init__.py says why)
    body, names = _body(entries)
    front, notes = post.front_matter(
        doc, study, origin, newest_member_day(path), {"tags": []}, names
    )
    front["summary"] = f"The tables of {path.name}; the summary is still to be written."
    return Draft(doc, _head(study, path, members, entries), [], front, notes, body)


def _entry(member: str, tables: list[Table], used: set[str]) -> _Entry:
    """One `file_tables:` entry for tables of one kind, with what the post needs of it."""
    names = [t.name for t in tables]
    regex, groups, shape = _pattern(names, tables[0].columns)
    common = shape.rsplit("/", 1)[-1].strip() or Path(member).name
    base = slug(common)
    tid = _unique_id(base if len(base) > 3 else f"tables-{base}".strip("-"), used)
    spec: dict[str, Any] = {
        "id": tid,
        "title": f"{Path(member).name}: {common}",
        "file": member,
        "table": regex,
    }
    if groups:
        spec["labels"] = {g: post.heading(g) for g in groups}
    numbers = [
        c for c in tables[0].columns if all(_is_number(r.get(c)) for t in tables for r in t.rows)
    ]
    rows = sum(len(t.rows) for t in tables)
    return {
        "spec": spec,
        "count": len(tables),
        "rows": rows,
        "numbers": numbers,
        "example": names[0],
    }


def _pattern(names: list[str], columns: list[str]) -> tuple[str, list[str], str]:
    """A pattern taking every one of `names` (re.escape of one name), its groups, and the
    names' shape (`10m, ... / wps=… mysql`: each group as `…`)."""
    if len(set(names)) == 1:
        return re.escape(names[0]), [], names[0]
    (prop,) = naming.from_names(names, {}, split=False)
    keys = {column_key(c) for c in columns}
    parts, n = prop.parts, 0
    used: set[str] = set()
    for g in (p for p in parts if isinstance(p, naming.Group)):
        if g.before and g.sep_before == "=":  # `wps=1000`: the word before names it
            g.name = naming.slug(g.before)
        if not _says_what(g) or g.name in keys | used:
            n += 1
            g.name = f"part{n}"
        used.add(g.name)
        g.hidden = False  # a part of a table's name is a column, never a template field
    prop = naming.assemble(parts, names)
    shape = "".join(p if isinstance(p, str) else "…" for p in parts)
    return prop.regex, [name for name, _, _ in prop.groups], shape


def _says_what(g: naming.Group) -> bool:
    """A group name the values give without a guess: a known kind of value, a number by a word
    that names it (`16thr`, `w1000`), or a size whose unit is spelt out (`27GB`, not `10m`)."""
    if g.name.rstrip("0123456789") in naming.CONSTANT_NAMES:
        return True
    if g.before and g.sep_before == "=":
        return True
    return g.kind == "d" and (g.after or "").lower() in SIZE_WORDS


def _unique_id(base: str, used: set[str]) -> str:
    """A table id no other entry has, and no heading of the draft's post takes as its anchor
    (a short one is `tables-<it>`: `q` is also the search box's id)."""
    out, k = base, 2
    while out in used or out in ("tables", "provenance"):
        out, k = f"{base}-{k}", k + 1
    used.add(out)
    return out


def _is_number(x: object) -> bool:
    return x is None or (isinstance(x, (int, float)) and not isinstance(x, bool))


def _value(tid: str, col: str, agg: str) -> str:
    return f'{{{{< value table="{tid}" col="{col}" agg="{agg}" >}}}}'


def _picks(entries: list[_Entry]) -> list[tuple[_Entry, str]]:
    """(entry, number column) for the key results: the number columns named with a letter (a
    column named `2` would be a bare number in the prose) of the smallest table that has one,
    the one the post shows open (a key result must lead to a table shown open)."""
    named = [(e, [c for c in e["numbers"] if re.search(r"[A-Za-z]", c)]) for e in entries]
    named = sorted(((e, cols) for e, cols in named if cols), key=lambda ec: ec[0]["rows"])
    return [(named[0][0], c) for c in named[0][1]] if named else []


def _body(entries: list[_Entry]) -> tuple[str, list[str]]:
    """(the post's body, the names with digits it uses): three key results from one table's
    number columns (a range, then the highest and lowest when it has fewer), that table shown
    open and the others collapsed, the provenance."""
    picks = _picks(entries)
    results: list[str] = []
    used: list[str] = []
    for agg_only in (None, "max", "min"):
        for e, col in picks:
            if len(results) == KEY_RESULTS:
                break
            key = column_key(col)
            tid, title = e["spec"]["id"], e["spec"]["title"]
            used += [title, col]
            shown = post.md_text(col)  # names from the archive: never Markdown or a shortcode
            said = (
                f"{shown} goes from {_value(tid, key, 'min')} to {_value(tid, key, 'max')}"
                if agg_only is None
                else f"the {'highest' if agg_only == 'max' else 'lowest'} {shown} is "
                f"{_value(tid, key, agg_only)}"
            )
            results.append(
                f'{{{{< keyresult ref="{tid}" >}}}}In {post.md_text(title)}, {said}.'
                "{{< /keyresult >}}"
            )
    open_entry = picks[0][0] if picks else None
    tables = "\n\n".join(
        f'{{{{< table id="{e["spec"]["id"]}" source="published"'
        + (
            ""
            if e is open_entry
            else ' lazy="true"'
            if e["rows"] > LAZY_ROWS
            else ' collapsed="true"'
        )
        + " >}}"
        for e in entries
    )
    body = f"""{{{{< keyresults >}}}}
{chr(10).join(results)}
{{{{< /keyresults >}}}}

## Tables

{tables}

## Provenance

{{{{< provenance >}}}}
"""
    return body, used


def _head(
    study: str, archive_path: Path, members: list[Member], entries: list[_Entry]
) -> list[str]:
    return [
        'Study manifest (docs/manifest.md, "Tables from summary files"), proposed by `python -m',
        "ingest new` for an archive of summary tables; check it, then",
        f"`{next_commands(study, archive_path)[0]}` reports what each entry took.",
        "file_tables: one entry per kind of table (the tables of a file with the same columns);",
        "name the `partN` groups for what they are, keep the columns you publish (`columns:`).",
        *(
            f"  {e['spec']['id']}: {e['count']} table(s), e.g. {e['example']}"
            for e in entries[:LISTED]
        ),
        "Archive members:",
        *(f"  {m.name}: {m.format + ': ' if m.format else ''}{m.why}" for m in members[:LISTED]),
        *(
            [f"  ... and {len(members) - LISTED} more (`make ingest` reports each)"]
            if len(members) > LISTED
            else []
        ),
    ]
