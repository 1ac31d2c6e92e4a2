"""The derived tables of a study: derive/study.py walks the table sources (`SOURCES`) in order,
each a module, or a small object, with one interface, `build(ctx: StudyContext) -> list[dict]`
(ingest/derive/context.py): its manifest section, if it has one, was parsed at load into a
record of the Manifest (ingest/read/sections.py); an error is a `Problem` it raises, a warning a
`Problem` it appends to `ctx.problems`. In order:

1. the manifest's declarations: `tables:` (declared.py), `query_tables:` (query_tables.py),
   `file_tables:` (file_tables.py);
2. the study module's (the hook below);
3. the default tables: the runs' (defaults.py, those `default_tables:` keeps) and the query
   runs' (query_defaults.py), each unless a declared or module table has its id;
4. the counter tables of `counters:` (counters.py), then the reproduction check's table
   (reproduction.py), which compares the tables built before it;
5. the `ratios:` blocks (ratios.py) on the tables a ratio chart draws, and the `plan_diff:`
   blocks (plan_diffs.py) on the plan tables.

Every table is checked (checks.py) as its source gives it; a module table with a declared
table's id is an error at the declaration's line.

The study-module hook (docs/manifest.md): when the manifest names `views: <module>` (or a
module `ingest/derive/studies/<study with _ for ->.py` exists), its `build(ctx: StudyContext) ->
list[dict]` returns derived tables in the `tables/<id>.yaml` shape of docs/data-schema.md. Bad
data is a `Problem` it raises; warnings are `Problem` values it appends to `ctx.problems`.
"""

from __future__ import annotations

import importlib
import importlib.util
from enum import Enum
from types import ModuleType
from typing import Protocol

from ingest.derive import (
    counters,
    declared,
    defaults,
    file_tables,
    plan_diffs,
    query_defaults,
    query_tables,
    ratios,
    reproduction,
    versions,
)
from ingest.derive.checks import check_table
from ingest.derive.context import StudyContext, study_module_name
from ingest.derive.tables import DerivedTable
from ingest.problems import Problem
from ingest.read.records import Manifest

__all__ = ["SOURCES", "StudyContext", "derived_tables", "study_module", "study_module_name"]


class TableSource(Protocol):
    """What derive walks: a module or an object with `build(ctx)`."""

    def build(self, ctx: StudyContext) -> list[DerivedTable]: ...


class Role(Enum):
    """What a source's tables are to the others'."""

    DECLARED = "declared"  # the manifest's: ctx.declared, named by their lines
    MODULE = "module"  # the study module's: may replace a default, not a declared table
    DEFAULT = "default"  # left out when a declared or module table has the id
    ADDED = "added"  # written as they come


class StudyModule:
    """The study module's tables: `build(ctx)` of ingest/derive/studies/<module>.py, if any."""

    @staticmethod
    def build(ctx: StudyContext) -> list[DerivedTable]:
        module = study_module(ctx.manifest)
        return list(module.build(ctx)) if module else []


SOURCES: tuple[tuple[TableSource, Role], ...] = (
    (declared, Role.DECLARED),  # tables:
    (query_tables, Role.DECLARED),  # query_tables:
    (file_tables, Role.DECLARED),  # file_tables:
    (StudyModule, Role.MODULE),
    (defaults, Role.DEFAULT),  # runs, jitter
    (query_defaults, Role.DEFAULT),  # query-summary, query-runs, query-plans
    (versions, Role.ADDED),  # versions: (a view of a table reads the tables before it)
    (counters, Role.ADDED),  # counters:
    (reproduction, Role.ADDED),  # reproduction:
)


def derived_tables(ctx: StudyContext) -> list[DerivedTable]:
    """The study's tables, checked, in the order they are listed in study.yaml."""
    m = ctx.manifest
    lines = {t.id: t.line for t in m.tables}
    lines |= {t.id: t.line for t in m.query_tables}
    lines |= {t.id: t.line for t in m.file_tables}
    given: set[str] = set()  # ids of the declared and module tables
    for source, role in SOURCES:
        built = source.build(ctx)
        if role is Role.DEFAULT:
            built = [t for t in built if t["id"] not in given]
        if role is Role.MODULE:
            for t in built:
                if t.get("id") in ctx.declared:
                    raise Problem(
                        m.path,
                        lines[t["id"]],
                        f"table {t['id']!r}: the study module {study_module_name(m)} gives "
                        f"a table of the same id",
                    )
        checked = [
            check_table(m, t, lines.get(t["id"]) if role is Role.DECLARED else None) for t in built
        ]
        if role is Role.DECLARED:
            ctx.declared.update((t["id"], t) for t in checked)
        if role in (Role.DECLARED, Role.MODULE):
            given.update(t["id"] for t in checked)
        ctx.tables += checked
    ratios.add(ctx)  # the ratio tables' classes and noise verdicts, on the tables as built
    plan_diffs.add(ctx.tables)  # the cells of each plan that differ from another's
    return ctx.tables


def study_module(m: Manifest) -> ModuleType | None:
    """The study's module (`views:`, else ingest/derive/studies/<study_with_underscores>.py), or None."""
    name = study_module_name(m)
    full = f"{__package__}.studies.{name}"
    if m.views is None and importlib.util.find_spec(full) is None:
        return None
    try:
        module = importlib.import_module(full)
    except ModuleNotFoundError:
        raise Problem(m.path, m.line_of.get("views"), f"study module {full} not found") from None
    if not callable(getattr(module, "build", None)):
        raise Problem(m.path, m.line_of.get("views"), f"study module {full} has no build(ctx)")
    return module
