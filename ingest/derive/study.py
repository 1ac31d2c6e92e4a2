"""The derived tables of a study, in this order: the manifest's `tables:` (ingest/derive/declared.py),
`query_tables:` and `file_tables:` (ingest/derive/file_tables.py), then the study module's (the hook below), then the default tables (ingest/derive/defaults.py) that
neither gives by id and the manifest's `default_tables:` keeps; the counter tables of `counters:` (ingest/derive/counters.py); each checked
(ingest/derive/checks.py); then the reproduction check's table (ingest/derive/reproduction.py).

The study-module hook (docs/manifest.md): when the manifest names `views: <module>` (or a
module `ingest/derive/studies/<study with _ for ->.py` exists), its `build(ctx: StudyContext) ->
list[dict]` returns derived tables in the `tables/<id>.yaml` shape of docs/data-schema.md. Bad
data is a `Problem` it raises; warnings are `Problem` values it appends to `ctx.problems`.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field

from ingest.derive import (
    counters,
    declared,
    defaults,
    file_tables,
    query_tables,
    reproduction,
    tables,
)
from ingest.derive.checks import check_table
from ingest.join import queries
from ingest.parse import Parsed
from ingest.parse.member import parse_bytes
from ingest.problems import Problem
from ingest.read.records import Manifest


@dataclass
class StudyContext:
    """What a study module's `build(ctx)` gets.

    manifest: the validated Manifest; runs: run records as in runs.yaml (in manifest order);
    series: run id -> columnar series; files: archive member -> Parsed for `files:` rules;
    inputs: published-tables input name -> its text (`published()` parses it); `quoted(name)`:
    the manifest's figures quoted from the original's text; declared: the tables of the
    manifest's `tables:` by id (their rows give a module its cells and their order);
    problems: warnings so far, `Problem` values (append to add). Bad data: raise `Problem`.
    """

    manifest: Manifest
    runs: list[dict]
    series: dict[str, dict]
    files: dict[str, Parsed] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    declared: dict[str, dict] = field(default_factory=dict)  # the manifest's declared tables by id
    queries: queries.QueryData | None = None  # the query runs (ingest/join/queries.py)
    table = staticmethod(tables.table)  # ctx.table(id, title, columns, rows, notes=None)

    def published(self, name: str | None = None, fmt: str = "auto") -> Parsed:
        """A published-tables input parsed (format detected unless given), e.g. its `tables`;
        without `name`, the study's one published-tables input."""
        if name is None:
            names = [i.name for i in self.manifest.inputs if i.kind == "published-tables"]
            if len(names) != 1:
                raise Problem(
                    self.manifest.path, None, f"expected one published-tables input, found {names}"
                )
            name = names[0]
        return parse_bytes(self.inputs[name].encode("utf-8"), name, fmt)

    def quoted(self, name: str) -> list[dict]:
        """The rows of the manifest's `quoted: <name>`: figures the original states only in its
        text, shown as published. A Problem naming the manifest when the section is absent."""
        m = self.manifest
        if name not in m.quoted:
            raise Problem(
                m.path,
                m.line_of.get("quoted"),
                f"quoted: no `{name}` (the study module "
                f"{study_module_name(m)} shows it as published)",
            )
        return m.quoted[name]

    def run(self, **labels) -> dict | None:
        """The one run whose labels include all of `labels` (values compared as strings)."""
        hits = [
            r
            for r in self.runs
            if all(str(r["labels"].get(k)) == str(v) for k, v in labels.items())
        ]
        if len(hits) > 1:
            raise Problem(
                self.manifest.path,
                None,
                f"{len(hits)} runs match {labels}: {[r['id'] for r in hits]}",
            )
        return hits[0] if hits else None


def derived_tables(ctx: StudyContext) -> list[dict]:
    """The study's tables, checked, in the order they are listed in study.yaml."""
    m = ctx.manifest
    module = study_module(m)
    own = declared.build(m, ctx.runs, ctx.series, ctx.problems)  # may raise Problem
    query_runs = ctx.queries.runs if ctx.queries else []
    own += query_tables.build(m, query_runs)  # the manifest's `query_tables:`
    own += file_tables.build(m, ctx.files)  # the manifest's `file_tables:`
    lines = {t["id"]: t.pop("line") for t in own}  # each declared table's manifest line
    ctx.declared = {t["id"]: t for t in own}
    built = own + (module.build(ctx) if module else [])
    ids = [t.get("id") for t in built]
    for tid in lines:
        if ids.count(tid) > 1:
            raise Problem(
                m.path,
                lines[tid],
                f"table {tid!r}: the study module {study_module_name(m)} gives "
                f"a table of the same id",
            )
    # a declared or module table of a default's id replaces it
    built += [t for t in defaults.build(ctx, m.default_tables) if t["id"] not in ids]
    if ctx.queries:  # the query runs' default tables (ingest/join/queries.py)
        built += [t for t in queries.default_tables(m, ctx.queries) if t["id"] not in ids]
    checked = [check_table(m, t) for t in built]
    counter_tables, counter_problems = counters.build(
        m, ctx.runs, ctx.files
    )  # the manifest's `counters:`
    checked += [check_table(m, t) for t in counter_tables]
    ctx.problems.extend(counter_problems)
    check = reproduction.build(
        m, m.reproduction, checked, lambda c: reproduction.published_tables(ctx, c)
    )
    return checked + ([check_table(m, check)] if check else [])


def study_module_name(m: Manifest) -> str:
    """`views:`, else the study's name with `_` for `-` and `.`."""
    return m.views or m.study.replace("-", "_").replace(".", "_")


def study_module(m: Manifest):
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
