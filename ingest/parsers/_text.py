"""Helpers shared by the line-oriented format parsers.

Every parser reads a file through `Lines`: the complete (newline-terminated) lines, numbered
from 1, plus the unterminated tail of a file that was cut mid-line. The tail is never read as a
record: it becomes one `file:line: reason` problem, so a truncated file yields its complete
records and says what it lost. A format that can tell a whole line from a cut one (a Markdown
row closed by its last `|`) passes `whole`, and keeps a whole last line that only lacks its newline.
"""
from __future__ import annotations

from datetime import datetime

from .base import ParseError

NUMBER = r"-?\d+(?:\.\d+)?"


class Lines:
    """The complete lines of `text`, iterated as (line number, line without line end)."""

    def __init__(self, text: str, file: str, whole=None):
        if not text.strip():
            raise ParseError(file, 0, "empty file")
        parts = text.split("\n")
        tail = parts.pop()
        self.file = file
        self.lines = [p[:-1] if p.endswith("\r") else p for p in parts]
        self.problems: list[str] = []
        tail = tail.removesuffix("\r")
        if tail.strip() and whole and self.lines and whole(tail, self.lines[-1]):
            self.lines.append(tail)
        elif tail.strip():
            self.problem(len(self.lines) + 1, "incomplete last line (the file ends mid-line, cut short?): ignored")

    def __iter__(self):
        return iter(enumerate(self.lines, start=1))

    def __len__(self) -> int:
        return len(self.lines)

    def problem(self, line: int, reason: str) -> None:
        self.problems.append(f"{self.file}:{line}: {reason}")

    def error(self, line: int, reason: str) -> ParseError:
        return ParseError(self.file, line, reason)

    def missing_end(self, line: int, what: str) -> None:
        """Note a run that stops before `what` (one problem per file: a cut mid-line says it already)."""
        if not self.problems:
            self.problem(line, f"ends before {what}: cut short, or the tool died?")


def number(text: str) -> float | int:
    """An int when the text is integral, else a float (ValueError if not a number)."""
    return int(text) if text.lstrip("-").isdigit() else float(text)


def log_time(date: str, clock: str) -> datetime:
    """Timestamp of a log4j line: `2017-05-30`, `08:17:47,865`."""
    return datetime.strptime(f"{date} {clock}", "%Y-%m-%d %H:%M:%S,%f")


def rate(count: float, seconds: float) -> float | None:
    """count / seconds rounded to 3 decimals; None when no time passed."""
    return round(count / seconds, 3) if seconds > 0 else None


def columnar(rows: list[dict], columns: list[str]) -> dict[str, list]:
    """Row dicts as a columnar series in `columns` order (a missing value is None)."""
    return {c: [r.get(c) for r in rows] for c in columns}
