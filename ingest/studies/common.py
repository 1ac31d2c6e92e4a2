"""Helpers shared by the study modules: parse a study input, pick parsed tables, build
derived tables in the `tables/<id>.yaml` shape (docs/data-schema.md), ratios that stay
missing when a side is missing or the base is 0."""
from __future__ import annotations

import re

from ingest.parsers import by_name
from ingest.problems import Problem
from ingest.study import StudyContext
from ingest.tables import col  # noqa: F401  (re-exported for the study modules)

table = StudyContext.table


def parse_text(text: str, name: str, fmt: str):
    """`Parsed` of a study input's text with the named parser."""
    return by_name(fmt).parse(text, name)


def published(ctx, fmt: str):
    """The study's one published-tables input, parsed with parser `fmt`."""
    names = [i.name for i in ctx.manifest.inputs if i.kind == "published-tables"]
    if len(names) != 1:
        raise Problem(ctx.manifest.path, None, f"expected one published-tables input, found {names}")
    return parse_text(ctx.inputs[names[0]], names[0], fmt)


def one_file(files: dict, pattern: str, manifest: str = "manifest.yaml"):
    """The `Parsed` of the one archive member (`ctx.files` key) that fully matches `pattern`."""
    hits = [parsed for member, parsed in files.items() if re.fullmatch(pattern, member)]
    if len(hits) != 1:
        raise Problem(manifest, None, f"files: expected one archive file matching {pattern}, found {len(hits)}")
    return hits[0]


def find(parsed, prefix: str):
    """The parsed table whose name starts with `prefix` (exactly one)."""
    hits = [t for t in parsed.tables if t.name.startswith(prefix)]
    if len(hits) != 1:
        raise Problem(parsed.file, None, f"expected one table named {prefix!r}..., found {[t.name for t in hits]}")
    return hits[0]


def ratio(value, base, digits: int | None = 2):
    """value / base rounded to `digits` (like the authors' 2-decimal ratios, so the sysbench
    cross-check compares like with like); None when either is missing or the base is 0."""
    if value is None or base is None or base == 0:
        return None
    r = value / base
    return round(r, digits) if digits is not None else r


def slug(text: str) -> str:
    """Lower-case slug of a label ("MySQL 5.7" -> "mysql-5-7")."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def carry_notes(parsed_table, row_map: dict[int, int], col_map: dict[str, str]) -> dict:
    """Per-cell qualifiers of a parsed table re-keyed for a derived table:
    parsed row index -> derived row index (`row_map`), parsed column -> derived key (`col_map`)."""
    notes = {}
    for key, q in parsed_table.notes.items():
        i, _, c = key.partition("/")
        if int(i) in row_map and c in col_map:
            notes[f"{row_map[int(i)]}/{col_map[c]}"] = q
    return notes
