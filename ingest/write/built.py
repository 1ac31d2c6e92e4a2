"""A study built in memory (`Built`): what the pipeline hands the write step, which writes its
files and reports on the rest (ingest/write/report.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ingest.derive.tables import DerivedTable
from ingest.join.queries import QueryData
from ingest.join.records import Run
from ingest.problems import Problem
from ingest.read.archive import Archive


@dataclass
class Built:
    """A study built in memory: `files` (path under data/<study>/ -> bytes) and what the report
    needs besides: the warnings, the archives read, the run records and the checked tables."""

    files: dict[str, bytes]
    problems: list[Problem] = field(default_factory=list)
    archives: dict[str, Archive] = field(default_factory=dict)
    runs: list[Run] = field(default_factory=list)
    tables: list[DerivedTable] = field(default_factory=list)
    series_saved: int = 0  # bytes of series the manifest's `series:` option did not write
    series_reduced: int = 0  # runs whose series it downsampled or dropped
    queries: QueryData | None = None  # the query runs (ingest/join/queries.py)


__all__ = ["Built"]
