"""The contract every format parser implements.

A parser turns the text of one file into a `Parsed`: benchmark sessions (`Session`, with
columnar per-interval series and the tool's own summary), named tables (`Table`), and
settings (key/value, for my.cnf and SHOW GLOBAL VARIABLES captures). A parser never guesses:
a line it cannot read either stops the parse with `ParseError` ("file:line: reason") or, when
the records before it are complete (a file cut mid-line), is reported in `Parsed.problems`.
"""
from __future__ import annotations

from dataclasses import dataclass, field


class ParseError(Exception):
    """Unreadable input, reported as `file:line: reason` (line 0 when no line applies)."""

    def __init__(self, file: str, line: int, reason: str):
        self.file, self.line, self.reason = file, line, reason
        super().__init__(f"{file}:{line}: {reason}")


@dataclass
class Session:
    """One run of a benchmark tool (or OS monitor) found in a file.

    series: columnar per-interval values, `t` (seconds from start, end of interval) first;
            a value the line does not have is None, never 0.
    metric: name of the main throughput column in `series` (tps, trx, ops, ips, ...), also the
            key of the tool's own average of it in `summary` (a summary-only session has a
            metric and no series); None for OS monitors.
    summary: the tool's own end-of-run figures (e.g. tps, qps, total_time_s), None if absent.
    meta: tool name/version, threads, interval_s, latency percentile, ...
    line: 1-based line where the session starts.
    complete: False when the file ends (or the tool died) before the tool's final summary.
    """

    series: dict[str, list] = field(default_factory=dict)
    metric: str | None = None
    summary: dict[str, float | None] = field(default_factory=dict)
    meta: dict = field(default_factory=dict)
    line: int = 1
    complete: bool = True

    @property
    def intervals(self) -> int:
        return len(self.series.get("t", []))


@dataclass
class Table:
    """A named table: `columns` in order, `rows` as dicts keyed by column; None = missing.

    notes: per-cell qualifiers ("about", "up to"), keyed "<row index>/<column>" (0-based).
    units: per-cell unit suffixes of numbers written like `9.49G`, same keys; the row holds 9.49.
    caption: text written with the table (e.g. the paragraph under a Markdown heading).
    """

    name: str
    columns: list[str]
    rows: list[dict]
    notes: dict = field(default_factory=dict)
    line: int = 1
    units: dict = field(default_factory=dict)
    caption: str = ""


@dataclass
class Parsed:
    """Everything read from one file."""

    format: str
    file: str
    sessions: list[Session] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    settings: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


class Parser:
    """Base class: subclasses set `name`, `description` and implement `detect` and `parse`."""

    name = ""
    description = ""

    def detect(self, head: str) -> str | None:
        """Return a short reason if `head` (the first ~64 KiB of a file) is this format."""
        raise NotImplementedError

    def parse(self, text: str, file: str) -> Parsed:
        """Parse the whole text of `file`; raise ParseError on unreadable input."""
        raise NotImplementedError
