"""What every table source builds from (`StudyContext`, docs/manifest.md "The study-module
hook"): the validated manifest, the runs and their series, the files and query runs, the
published inputs, the tables built so far and the warnings. Its own module, so that each source
(ingest/derive/study.py `SOURCES`) imports it and derive/study.py imports the sources."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ingest.derive.tables import DerivedTable
from ingest.derive.tables import table as make_table
from ingest.join.queries import QueryData
from ingest.join.records import Run, Series
from ingest.parse import Parsed
from ingest.parse.member import parse_bytes
from ingest.problems import Problem
from ingest.read.records import Manifest


@dataclass
class StudyContext:
    """What a table source's `build(ctx)` gets (the study module's too).

    manifest: the validated Manifest; runs: the runs (ingest/join/records.py, in archive
    order; `run["labels"]` reads a run as runs.yaml has it); series: run id -> columnar series; files: archive member -> Parsed for `files:` rules;
    inputs: published-tables input name -> its text (`published()` parses it); `quoted(name)`:
    the manifest's figures quoted from the original's text; queries: the query runs;
    declared: the tables of the manifest's `tables:`, `query_tables:` and `file_tables:` by id
    (their rows give a module its cells and their order); tables: every table built so far,
    checked, in order; problems: warnings so far, `Problem` values (append to add). Bad data:
    raise `Problem`.
    """

    manifest: Manifest
    runs: list[Run]
    series: dict[str, Series]
    files: dict[str, Parsed] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    queries: QueryData = field(default_factory=QueryData)  # ingest/join/queries.py
    declared: dict[str, DerivedTable] = field(default_factory=dict)
    tables: list[DerivedTable] = field(default_factory=list)
    table = staticmethod(make_table)  # ctx.table(id, title, columns, rows, notes=None)

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

    def quoted(self, name: str) -> list[dict[str, Any]]:
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

    def run(self, **labels: object) -> Run | None:
        """The one run whose labels include all of `labels` (values compared as strings)."""
        hits = [
            r for r in self.runs if all(str(r.labels.get(k)) == str(v) for k, v in labels.items())
        ]
        if len(hits) > 1:
            raise Problem(
                self.manifest.path,
                None,
                f"{len(hits)} runs match {labels}: {[r.id for r in hits]}",
            )
        return hits[0] if hits else None


def study_module_name(m: Manifest) -> str:
    """The study module's name: `views:`, else the study's name with `_` for `-` and `.`."""
    return m.views or m.study.replace("-", "_").replace(".", "_")
