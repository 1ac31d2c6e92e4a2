"""What the join step makes of the inputs, as typed records: a run (`Run`, one complete session
that a `runs:` rule took) with where it was read (`RunSource`), its base case (`Base`) and its
linked metrics (`Linked`); a query run (`QueryRun`). Derive builds from them; the write step
turns each into its runs.yaml record (`Run.record()`, docs/data-schema.md), the one place the
field names and their order are written down.

The per-interval series stay columnar mappings (`Series`: `t` and one list per column), as the
parsers give them and the series files write them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ingest.read.fields import Label

Series = dict[str, list[Any]]  # columnar: "t" (seconds of the run) and one list per column
Stats = dict[str, Any]  # numbers of ingest/join/stats.py: n, mean, min, p1 ... max, cv
# a run's runs.yaml record (`Run.record()`), which the write step lays out and the size
# control marks (ingest/write/seriesfiles.py)
Record = dict[str, Any]


@dataclass(frozen=True)
class RunSource:
    """Where a run was read: its archive member, the line its session starts at, which
    session of how many."""

    file: str
    line: int
    session: int
    sessions: int

    def record(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "session": self.session,
            "sessions": self.sessions,
        }


@dataclass(frozen=True)
class Base:
    """A run's base case (the manifest's `base:` labels substituted) and the ratio of their
    window means."""

    run: str
    ratio: float | None

    def record(self) -> dict[str, Any]:
        return {"run": self.run, "ratio": self.ratio}


@dataclass(frozen=True)
class Linked:
    """A run's linked metrics (docs/manifest.md, "Linked metrics"): the columns kept of its
    monitors' samples on its clock (`series`), the panels shown first, and how the samples
    were placed: interval and offset (`offset_from`: what the offset was declared as, when
    it was taken from the run's log; `offsets_s`: each monitor's own, by kind, when derived
    per monitor, `offset_s` then the earliest), how each monitor was aligned, the files read."""

    series: Series
    columns: list[str]
    panels: list[str]
    interval_s: float
    offset_s: float
    offset_from: str | None
    align: dict[str, str]
    files: list[str]
    offsets_s: dict[str, float] | None = None

    def record(self) -> dict[str, Any]:
        return {
            "columns": self.columns,
            "panels": self.panels,
            "interval_s": self.interval_s,
            "offset_s": self.offset_s,
            **({"offset_from": self.offset_from} if self.offset_from is not None else {}),
            **({"offsets_s": self.offsets_s} if self.offsets_s is not None else {}),
            "align": self.align,
            "files": self.files,
        }


@dataclass(frozen=True)
class Run:
    """One run: a complete session of a member a `runs:` rule took (docs/data-schema.md,
    `runs.yaml`). Study modules written against the runs.yaml records read it as one too
    (`run["labels"]`, `run.get("linked")`): see `__getitem__`."""

    id: str
    name: str
    labels: dict[str, Label]
    published: bool
    source: RunSource
    format: str
    tool: dict[str, Any]  # name, version, threads, interval_s, lat_pct: those its log gives
    metric: str | None  # the series column its statistics are of
    intervals: int
    time_weighted: bool  # uneven intervals: means weighted by interval length
    end_s: float | None  # the end of its last interval
    start: str | None  # its t = 0 as a local date and time, when its log prints one
    phase_s: dict[str, float] | None  # where the phase began and ended on its clock
    window: Stats  # the window statistics of its metric, with the window's start and end
    full: Stats  # n and mean of the whole run
    summary: dict[str, Any] | None  # the tool's own summary
    check: Stats  # the full-run mean against the summary (join/stats.py cross_check)
    columns: list[str]  # its series' columns
    base: Base | None = None
    linked: Linked | None = None

    def record(self) -> Record:
        """The runs.yaml record, its fields in the schema's order."""
        return {
            "id": self.id,
            "name": self.name,
            "labels": self.labels,
            "published": self.published,
            "source": self.source.record(),
            "format": self.format,
            "tool": self.tool,
            "metric": self.metric,
            "intervals": self.intervals,
            **({"mean": "time-weighted"} if self.time_weighted else {}),
            "end_s": self.end_s,
            **_mean_interval(self.end_s, self.intervals),
            **({"start": self.start} if self.start else {}),
            **({"phase_s": self.phase_s} if self.phase_s is not None else {}),
            "window": self.window,
            "full": self.full,
            "summary": self.summary,
            "check": self.check,
            "base": self.base.record() if self.base else None,
            "columns": self.columns,
            **({"linked": self.linked.record()} if self.linked else {}),
        }

    def __getitem__(self, key: str) -> Any:
        """A field of the runs.yaml record (a KeyError when the record has none): the study
        modules' way to read a run (docs/manifest.md, "The study-module hook")."""
        return self.record()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.record().get(key, default)


@dataclass(frozen=True)
class QueryRun:
    """One timed run of one query (docs/manifest.md, "Query runs"): `seconds` None when it
    did not finish (`status` and `note` say so); `sar`: the means of its sar reports' columns."""

    labels: dict[str, Label]
    query: str
    repeat: int
    seconds: float | None
    status: str
    note: str | None
    published: bool
    source: str  # member:line
    sar: dict[str, float | None] = field(default_factory=dict)


def _mean_interval(end_s: float | None, intervals: int) -> dict[str, Any]:
    """`interval_mean_s`, the run's length over its intervals, and `interval_whole`, whether
    that is within 0.05 s of a whole second (the charts then name the whole one, else say
    "about"); neither without a length and intervals."""
    if not end_s or not intervals:
        return {}
    mean = end_s / intervals
    return {"interval_mean_s": round(mean, 6), "interval_whole": abs(mean - round(mean)) < 0.05}
