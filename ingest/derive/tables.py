"""What study modules build their tables with (shape: docs/data-schema.md, `tables/<id>.yaml`):
`table` and `col` make a table and its columns; `ratio` is a ratio that stays missing when a
side is missing or the base is 0; `one_file` and `find` pick an archive file's or a published
input's parsed table; `slug`, `carry_notes`. (The reusable tables `runs_table` and
`jitter_table` are the default tables': ingest/derive/defaults.py.) (A study's one published-tables input, parsed:
`ctx.published(fmt=...)`.)"""

from __future__ import annotations

import re
from typing import Any

from ingest.join.stats import ratio as ratio  # for the study modules: one ratio rule for the ingest
from ingest.parse import Parsed
from ingest.parse import Table as ParsedTable
from ingest.problems import Problem

DerivedTable = dict[str, Any]  # the tables/<id>.yaml shape: id, title, columns, rows, notes
Column = dict[str, Any]  # key, label, kind (label, number, ratio, text), digits, unit
Row = dict[str, Any]  # column key -> value (None: missing)


def table(
    id: str,
    title: str,
    columns: list[Column],
    rows: list[Row],
    notes: dict[str, str] | None = None,
) -> DerivedTable:
    """A derived table in the tables/<id>.yaml shape (checked when the study is written)."""
    return {"id": id, "title": title, "columns": columns, "rows": rows, "notes": notes or {}}


def col(
    key: str, label: str, kind: str = "number", digits: int | None = None, unit: str | None = None
) -> Column:
    c: Column = {"key": key, "label": label, "kind": kind}
    if digits is not None:
        c["digits"] = digits
    if unit is not None:
        c["unit"] = unit
    return c


def one_file(files: dict[str, Parsed], pattern: str, manifest: str = "manifest.yaml") -> Parsed:
    """The `Parsed` of the one archive member (`ctx.files` key) that fully matches `pattern`."""
    hits = [parsed for member, parsed in files.items() if re.fullmatch(pattern, member)]
    if len(hits) != 1:
        raise Problem(
            manifest,
            None,
            f"files: expected one archive file matching {pattern}, found {len(hits)}",
        )
    return hits[0]


def find(parsed: Parsed, prefix: str) -> ParsedTable:
    """The parsed table whose name starts with `prefix` (exactly one)."""
    hits = [t for t in parsed.tables if t.name.startswith(prefix)]
    if len(hits) != 1:
        raise Problem(
            parsed.file,
            None,
            f"expected one table named {prefix!r}..., found {[t.name for t in hits]}",
        )
    return hits[0]


def slug(text: str) -> str:
    """Lower-case slug of a label ("MySQL 5.7" -> "mysql-5-7")."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def column_key(name: str) -> str:
    """The key of a printed column or group name: lower case, `_` for other characters
    (`%iowait` -> `iowait`, `Key_len` -> `key_len`)."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "column"


def carry_notes(
    parsed_table: ParsedTable, row_map: dict[int, int], col_map: dict[str, str]
) -> dict[str, str]:
    """Per-cell qualifiers of a parsed table re-keyed for a derived table:
    parsed row index -> derived row index (`row_map`), parsed column -> derived key (`col_map`)."""
    notes = {}
    for key, q in parsed_table.notes.items():
        i, _, c = key.partition("/")
        if int(i) in row_map and c in col_map:
            notes[f"{row_map[int(i)]}/{col_map[c]}"] = q
    return notes
