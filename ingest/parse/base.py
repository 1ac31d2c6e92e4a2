"""The contract every format parser implements.

A parser turns the text of one file into a `Parsed`: benchmark sessions (`Session`, with
columnar per-interval series and the tool's own summary), named tables (`Table`), and
settings (key/value, for my.cnf and SHOW GLOBAL VARIABLES captures). A parser never guesses:
a line it cannot read either stops the parse with `Problem` ("file:line: reason") or, when
the records before it are complete (a file cut mid-line), is reported in `Parsed.problems`
(as `Problem` values).

No line is dropped silently: a non-blank line a parser does not read is marked with
`Lines.skip`, and the wrapper adds one warning naming every such line (`file:N: K lines
skipped, not read as <what> (lines ...)`); a line that looks like a record but cannot be read
is an error or its own warning, as each parser says.

Every subclass's `parse` is wrapped (`Parser.__init_subclass__`) so that no input ends in a
traceback: a value Python cannot convert (`95..1`, an integer of more than 4,300 digits, a
date with non-ASCII digits) becomes `Problem(file, line, reason)` at the line being read
(see `_text.position`), and a number that overflows to inf or NaN is an error too.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ingest.problems import Problem, clean

Row = dict[str, Any]  # a table's row keyed by its columns (which vary by table); None = missing
Column = list[Any]  # a series column: numbers (or labels), None where a line has no value


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
    sample_lines: the 1-based line of each series row, for OS monitors (vmstat, iostat), so
            that a gap or a repeated time stamp is reported at its line; empty otherwise.
    """

    series: dict[str, Column] = field(default_factory=dict)
    metric: str | None = None
    summary: dict[str, float | None] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    line: int = 1
    complete: bool = True
    sample_lines: list[int] = field(default_factory=list)

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
    rows: list[Row]
    notes: dict[str, str] = field(default_factory=dict)
    line: int = 1
    units: dict[str, str] = field(default_factory=dict)
    caption: str = ""


@dataclass
class Parsed:
    """Everything read from one file."""

    format: str
    file: str
    sessions: list[Session] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    settings: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


class Parser:
    """Base class: subclasses set `name`, `description` and implement `detect` and `parse`."""

    name = ""
    description = ""
    what = "records of this format"  # in the warning about skipped lines: "not read as <what>"
    # an OS or server monitor: the `linked:` key its files are joined to runs under (the
    # scaffold proposes every format that sets it); None for everything else
    linked_as: str | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "parse" in cls.__dict__:
            cls.parse = _guarded(  # type: ignore[method-assign]
                cls.__dict__["parse"]
            )

    def detect(self, head: str) -> str | None:
        """Return a short reason if `head` (the first ~64 KiB of a file) is this format."""
        raise NotImplementedError

    def parse(self, text: str, file: str) -> Parsed:
        """Parse the whole text of `file`; raise Problem on unreadable input."""
        raise NotImplementedError


def _guarded(parse: Callable[..., Parsed]) -> Callable[..., Parsed]:
    """`parse` that turns a value Python cannot convert into `Problem(file, line, reason)`
    and rejects a result holding inf or NaN."""
    from ingest.parse._text import position, where_is

    @functools.wraps(parse)
    def guarded(self: Parser, text: str, file: str, **options: str) -> Parsed:
        token = position.set(None)
        try:
            parsed = parse(self, text, file, **options)  # options: e.g. server status `mode`
            lines = position.get()
            skipped = lines.skipped_problem(self.what) if lines is not None else None
            if skipped is not None:
                parsed.problems.append(skipped)
        except (ValueError, ArithmeticError) as e:
            if isinstance(e, Problem):
                raise
            line, reason = where_is(text, e, position.get())
            raise Problem(file, line, f"{reason} ({self.name})") from None
        finally:
            position.reset(token)
        _check_finite(parsed)
        return parsed

    return guarded


def _bad_number(value: object) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def _all_finite(values: Column) -> bool:
    """No inf or NaN in `values` (numbers, None, text). One `sum` in C for a column of
    numbers (a float sum is finite only when every term is: an inf or NaN term makes it inf or
    NaN; a sum that overflows, or a column with None or text, takes the value-by-value check).
    `sum` rather than `math.fsum`: the check needs no exact sum, and costs a quarter."""
    try:
        if math.isfinite(sum(values)):
            return True
    except (TypeError, ValueError, OverflowError):
        pass
    return not any(map(_bad_number, values))


def _check_finite(parsed: Parsed) -> None:
    """Problem at the session's (table's) line for a number too large for a float (inf) or NaN."""
    for s in parsed.sessions:
        for key, values in [*s.series.items(), *((k, [v]) for k, v in s.summary.items())]:
            if not _all_finite(values):
                raise Problem(
                    parsed.file, s.line, f"{clean(key, 40)}: a number out of range (inf or NaN)"
                )
    for t in parsed.tables:
        for row in t.rows:
            for key, value in row.items():
                if _bad_number(value):
                    raise Problem(
                        parsed.file,
                        t.line,
                        f"table {clean(t.name, 40)}, {clean(key, 40)}: "
                        "a number out of range (inf or NaN)",
                    )
