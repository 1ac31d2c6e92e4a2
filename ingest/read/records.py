"""What a validated manifest is (`Manifest`), with its inputs (`Input`) and the rules that take
archive members (`Rule`); ingest/read/manifest.py builds them, every later step reads them."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import regex

from ingest.problems import Problem, clean
from ingest.read.fields import Label
from ingest.read.patterns import MATCH_BUDGET_S, MatchClock
from ingest.read.sections import (
    CounterTable,
    DeclaredTable,
    FileTable,
    LabelFile,
    QueryTable,
    RatioView,
    ReproductionCheck,
    VersionsView,
)

# a files: rule's `mode:` for these formats (ingest/parse/server_status.py): mysqladmin -r or not
STATUS_FORMATS = ("global-status", "mysqladmin-status")


STATUS_MODES = ("relative", "absolute")


@dataclass
class Input:
    name: str
    kind: str
    sha256: str
    origin: str
    line: int
    note: str | None = None  # shown with the provenance, e.g. "the raw data is not public"


@dataclass
class Rule:
    """A `runs:` or `files:` entry: which archive members it takes and how."""

    pattern: regex.Pattern[str]
    source: str  # the glob or regex as written
    input: str
    format: str = "auto"
    labels: dict[str, Label] = field(default_factory=dict)
    # labels joined from named groups: label -> (the groups, the separator)
    joined: dict[str, tuple[tuple[str, ...], str]] = field(default_factory=dict)
    published: bool = True
    session: str | int = "all"
    id: str | None = None
    name: str | None = None
    line: int = 0
    linked: dict[str, Any] | None = None  # docs/manifest.md, "Linked metrics"
    sar: list[str] = field(default_factory=list)  # queries: each run's sar files (templates)
    mode: str | None = None  # files: server-status tables declared relative or absolute
    incomplete: str = "error"  # a member holding no complete run: error, or skip (a warning)
    metric: str | None = None  # the runs' main column, when it is not the manifest's
    metric_line: int = 0  # the line of the rule's `metric:` (0: the rule has none)
    clock: MatchClock = field(default_factory=MatchClock, repr=False, compare=False)
    _seen: dict[str, regex.Match[str] | None] = field(
        default_factory=dict, repr=False, compare=False
    )  # member -> match

    def joined_labels(self, groups: dict[str, str | None]) -> dict[str, str]:
        """The labels built from several named groups (their values joined by the separator,
        `mysql-8.0.36`); one whose group took no part of the name is left out."""
        out = {}
        for key, (parts, sep) in self.joined.items():
            values = [groups.get(p) for p in parts]
            if all(v is not None for v in values):
                out[key] = sep.join(v for v in values if v is not None)
        return out

    def match(self, manifest: str, member: str) -> regex.Match[str] | None:
        """`pattern.fullmatch(member)` within MATCH_BUDGET_S, and within what is left of the
        manifest's MatchClock; a Problem when it takes longer. Each member is matched once
        (the report and study modules ask again: the same answer, at no cost)."""
        if member in self._seen:
            return self._seen[member]
        clock = self.clock
        budget = min(MATCH_BUDGET_S, clock.left)
        start = time.perf_counter()
        try:
            if budget <= 0:
                raise TimeoutError
            found = self._seen[member] = self.pattern.fullmatch(member, timeout=budget)
            return found
        except TimeoutError:
            if budget < MATCH_BUDGET_S:
                slowest = max(clock.spent.values(), key=lambda x: x[1], default=(self, 0))[0]
                raise Problem(
                    manifest,
                    slowest.line,
                    f"patterns too slow: {clock.matches} matches took over {clock.total:g} s "
                    f"in all, most of it pattern {clean(slowest.source, 80)!r}; simplify it",
                ) from None
            raise Problem(
                manifest,
                self.line,
                f"pattern {clean(self.source, 80)!r} too slow (over "
                f"{MATCH_BUDGET_S:g} s on {clean(member, 80)!r}); simplify it",
            ) from None
        finally:
            spent = time.perf_counter() - start
            clock.left -= spent
            clock.spent[id(self)] = (self, clock.spent.get(id(self), (self, 0.0))[1] + spent)
            clock.matches += 1

    def took(self, member: str) -> bool:
        """Whether this rule matched `member` when the ingest matched it (`match`): no new
        match, so nothing after the inputs are read can run over the budget."""
        return bool(self._seen.get(member))


@dataclass
class Manifest:
    path: str
    study: str
    title: str
    inputs: list[Input]
    interval_s: float
    metric: str | None  # None: each run's tool's own main rate (docs/manifest.md)
    window: dict[str, float] | None  # start, end: the seconds of each run that are compared
    base: dict[str, Any]  # label -> the value of the base case
    labels: list[str]
    label_types: dict[str, str]
    display: dict[str, dict[str, Any]]  # label -> value (as text) -> shown name
    markers: list[dict[str, Any]]  # {t, label}
    runs: list[Rule]
    files: list[Rule]
    views: str | None
    line_of: dict[str, int] = field(default_factory=dict)
    reproduction: list[ReproductionCheck] = field(default_factory=list)  # `reproduction:`
    extra_series: str | int = (
        "keep"  # `series: {extra: ...}`: keep, drop, or N (every N intervals, the mean)
    )
    quoted: dict[str, list[dict[str, Any]]] = field(
        default_factory=dict
    )  # `quoted:` name -> rows the original states in its prose
    default_tables: tuple[str, ...] = (
        "runs",
        "jitter",
    )  # `default_tables:` the default tables a study with runs gets
    label_names: dict[str, str] = field(
        default_factory=dict
    )  # `label_names:` label key -> readers' heading
    tables: list[DeclaredTable] = field(default_factory=list)  # `tables:`
    counters: list[CounterTable] = field(default_factory=list)  # `counters:`
    file_tables: list[FileTable] = field(default_factory=list)  # `file_tables:`
    queries: list[Rule] = field(default_factory=list)  # `queries:` rules, ingest/join/queries.py
    label_files: list[LabelFile] = field(default_factory=list)  # `label_files:` (queries.py)
    suite: str | None = None  # `suite:` the query set of the query runs (e.g. TPC-H)
    query_tables: list[QueryTable] = field(default_factory=list)  # `query_tables:` checked
    ratios: list[RatioView] = field(default_factory=list)  # `ratios:` (ingest/derive/ratios.py)
    # the match budget the rules share, also spent by every other pattern of the manifest
    clock: MatchClock = field(default_factory=MatchClock, repr=False, compare=False)
    versions: list[VersionsView] = field(default_factory=list)  # `versions:` (derive/versions.py)

    def run_window(self) -> dict[str, float]:
        """`window:`, which a study with runs has (`load` requires it then)."""
        if self.window is None:
            raise Problem(self.path, None, "window: a study with runs needs one")
        return self.window

    def heading(self, key: str) -> str:
        """The readers' heading of a label (its `label_names:` entry, else the key, spaced)."""
        return self.label_names.get(key, key.replace("_", " "))


MONITOR_KINDS = (
    "vmstat",
    "iostat",
    "status",
    "sar",
    "dstat",
    "mpstat",
)  # the files `linked:` may name
