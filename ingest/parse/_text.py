"""Helpers shared by the line-oriented format parsers.

Every parser reads a file through `Lines`: the complete (newline-terminated) lines, numbered
from 1, plus the unterminated tail of a file that was cut mid-line. The tail is never read as a
record: it becomes one `file:line: reason` problem, so a truncated file yields its complete
records and says what it lost. A format that can tell a whole line from a cut one (a Markdown
row closed by its last `|`) passes `whole`, and keeps a whole last line that only lacks its newline.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from datetime import datetime
from typing import Any

from ingest.problems import Problem, clean
from ingest.read.fields import DISPLAY_BAD

NUMBER = r"-?\d+(?:\.\d+)?"
# The `Lines` a parse is reading, so that a value Python cannot convert is reported at its line.
position: ContextVar[Lines | None] = ContextVar("position", default=None)
_LITERAL = re.compile(r": ('.*'|\".*\")$", re.S)
_TIME_DATA = re.compile(r"^time data ('.*?'|\".*?\") does not match")
_LONG_INT = re.compile(r"\d{4301}")
MAX_QUERY = 100  # characters of a query name (the DBT3 kit's are `1` .. `22`, `7-opt`)


class Lines:
    """The complete lines of `text`, iterated as (line number, line without line end)."""

    def __init__(
        self, text: str, file: str, whole: Callable[[str, str], bool] | None = None
    ) -> None:
        if not text.strip():
            raise Problem(file, None, "empty file")
        parts = text.split("\n")
        tail = parts.pop()
        self.file = file
        self.lines = [p[:-1] if p.endswith("\r") else p for p in parts] if "\r" in text else parts
        self.problems: list[Problem] = []
        self.skipped: list[int] = []  # lines the parser did not read (`skip`, reported once)
        self.at: int | None = None  # the line being read
        position.set(self)
        tail = tail.removesuffix("\r")
        if tail.strip() and whole and self.lines and whole(tail, self.lines[-1]):
            self.lines.append(tail)
        elif tail.strip():
            self.problem(
                len(self.lines) + 1,
                "incomplete last line (the file ends mid-line, cut short?): ignored",
            )

    def __iter__(self) -> Iterator[tuple[int, str]]:
        for self.at, line in enumerate(self.lines, start=1):  # noqa: B020 (the reader's line)
            yield self.at, line

    def __len__(self) -> int:
        return len(self.lines)

    def problem(self, line: int, reason: str) -> None:
        self.problems.append(Problem(self.file, line, reason))

    def skip(self, line: int) -> None:
        """A non-blank line the parser does not read: counted, and reported by `skipped`."""
        if self.lines[line - 1].strip():
            self.skipped.append(line)

    def skipped_problem(self, what: str) -> Problem | None:
        """One warning naming every skipped line (the parser wrapper adds it to the result)."""
        if not self.skipped:
            return None
        return skipped_problem(self.file, self.skipped, self.lines[self.skipped[0] - 1], what)

    def error(self, line: int | None, reason: str) -> Problem:
        return Problem(self.file, line, reason)

    def missing_end(self, line: int, what: str) -> None:
        """Note a run that stops before `what` (one problem per file: a cut mid-line says it already)."""
        if not self.problems:
            self.problem(line, f"ends before {what}: cut short, or the tool died?")


def query_name(lines: Lines, n: int, name: str) -> str:
    """A query's name as printed: short and printable, as it becomes a table key and a
    page heading; else a `file:line` error."""
    if len(name) > MAX_QUERY:
        raise lines.error(n, f"a query name of {len(name):,} characters (limit {MAX_QUERY})")
    if bad := DISPLAY_BAD.search(name):
        raise lines.error(
            n,
            f"query name '{clean(name, 60)}' holds U+{ord(bad.group()):04X} (a control character)",
        )
    return name


def check_names(file: str, line: int | None, names: list[str], what: str) -> None:
    """Names a file gives (a table's name, its columns): a `file:line` error when one holds a
    control, separator or bidi character, as a manifest's names are checked (they become
    headings and keys on pages)."""
    for name in names:
        if bad := DISPLAY_BAD.search(name):
            raise Problem(
                file,
                line,
                f"{what} '{clean(name, 60)}' holds U+{ord(bad.group()):04X} (a control, line "
                "separator or bidi character)",
            )


def line_ranges(numbers: list[int]) -> str:
    """`1-3, 7, 12-15` for [1, 2, 3, 7, 12, 13, 14, 15] (sorted line numbers)."""
    out: list[str] = []
    start: int | None = numbers[0]  # None after the last line
    for prev, cur in zip(numbers, [*numbers[1:], None]):
        if cur != prev + 1:
            out.append(str(start) if start == prev else f"{start}-{prev}")
            start = cur
    return ", ".join(out)


def skipped_problem(file: str, numbers: list[int], first: str, what: str) -> Problem:
    """`file:N: K lines skipped, not read as <what> (lines ...; the first: '...')`: every line
    a parser did not read is named, so nothing is dropped silently."""
    n = len(numbers)
    return Problem(
        file,
        numbers[0],
        f"{n} line{'s' if n > 1 else ''} skipped, not read as {what} "
        f"(line{'s' if n > 1 else ''} {clean(line_ranges(numbers), 400)}; the first: "
        f"{clean(first.strip(), 80)!r})",
    )


def number(text: str) -> float | int:
    """An int when the text is integral, else a float (ValueError if not a number)."""
    return int(text) if text.lstrip("-").isdigit() else float(text)


def log_time(date: str, clock: str) -> datetime:
    """Timestamp of a log4j line: `2017-05-30`, `08:17:47,865`."""
    return datetime.strptime(f"{date} {clock}", "%Y-%m-%d %H:%M:%S,%f")


def rate(count: float, seconds: float) -> float | None:
    """count / seconds rounded to 3 decimals; None when no time passed."""
    return round(count / seconds, 3) if seconds > 0 else None


def columnar(rows: list[dict[str, Any]], columns: list[str]) -> dict[str, list[Any]]:
    """Row dicts as a columnar series in `columns` order (a missing value is None)."""
    return {c: [r.get(c) for r in rows] for c in columns}


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def where_is(text: str, error: Exception, lines: Lines | None) -> tuple[int | None, str]:
    """(line, reason) for a value Python could not convert while parsing `text`: the line
    being read, or the line where the unconvertible text occurs (a parser may convert a
    block of lines at once)."""
    message = str(error)
    at = lines.at if lines is not None else None
    if "integer string conversion" in message:  # Python's limit on int("9" * 4301)
        m = _LONG_INT.search(text)
        return (_line_of(text, m.start()) if m else at), "an integer of more than 4,300 digits"
    if isinstance(error, OverflowError):
        return at, "a number out of range"
    m = _TIME_DATA.search(message) or _LITERAL.search(message)
    literal = None
    if m:
        try:
            literal = ast.literal_eval(m[1])
        except (ValueError, SyntaxError):
            literal = None
    what = (
        "unreadable date or time"
        if ("time data" in message or "unconverted data" in message or "format" in message)
        else "not a whole number"
        if "for int()" in message
        else "not a number"
    )
    if isinstance(literal, str) and literal:
        if not (at is not None and lines is not None and literal in lines.lines[at - 1]):
            hit = re.search(rf"(?<![\w.]){re.escape(literal)}(?![\w.])", text) or re.search(
                re.escape(literal), text
            )
            at = _line_of(text, hit.start()) if hit else at
        return at, f"{what}: {clean(literal, 80)!r}"
    return at, f"{what} ({clean(message, 120)})"
