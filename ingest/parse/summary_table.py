"""F9: whitespace summary tables, as published in blog posts and result notes.

A table is a header line followed by data rows with the same number of fields (tabs or runs of
spaces; numbers may be padded). A data row has at least half of its fields numeric (a number,
a suffixed number like `9.49G`, or `N/A`/`NA` = missing). The line right above the header joins
it when its words start at the same columns as header words (a two-line header:
`load`/`ips` -> `load ips`).

Heading lines (short lines above a table, not prose) name the table. Headings nest: the k
heading lines found above a table replace the last k levels of the current heading path, so
"In-memory load metrics", "Fast SSD", table, "Slow SSD", table names the second table
"In-memory load metrics / Slow SSD". Leading `-` markers are dropped from headings. Prose
(long lines, bullets `*`, comments `#`, lines ending in `:` or `.`) is the text around the
tables; a line of figures outside every table is named in a warning (never dropped silently).

Cells go through `values.parse_cell`: missing is None (never 0) and a suffixed value keeps the
number in the row and its unit in `Table.units` ("<row>/<column>" -> "G").
"""

from __future__ import annotations

import re

from ingest.parse import register
from ingest.parse._text import Lines, check_names, position
from ingest.parse.base import Parsed, Parser, Table
from ingest.parse.values import is_numeric_cell, parse_cell
from ingest.problems import Problem, clean

MAX_HEADING_CHARS = 60
MAX_HEADING_WORDS = 8


def _is_data(tokens: list[str], width: int) -> bool:
    numeric = sum(is_numeric_cell(t) for t in tokens)
    return len(tokens) == width and numeric >= 1 and 2 * numeric >= width


def _looks_like_data(tokens: list[str]) -> bool:
    return len(tokens) >= 2 and _is_data(tokens, len(tokens))


def _word_starts(line: str) -> list[int]:
    return [m.start() for m in re.finditer(r"\S+", line.expandtabs(8))]


def _is_heading(line: str) -> bool:
    text = line.strip()
    return (
        len(text) <= MAX_HEADING_CHARS
        and len(text.split()) <= MAX_HEADING_WORDS
        and not text.startswith(("*", "#"))
        and not text.endswith((":", "."))
    )


def _upper_header(lines: list[str], h: int, floor: int) -> list[str] | None:
    """Column names of line h joined with the aligned words of line h-1, or None."""
    if h - 1 < floor:
        return None
    upper, lower = lines[h - 1], lines[h]
    up_words, low_words = upper.split(), lower.split()
    if len(up_words) < 2 or len(up_words) > len(low_words) or _looks_like_data(up_words):
        return None
    up_starts, low_starts = _word_starts(upper), _word_starts(lower)
    if not set(up_starts) <= set(low_starts):
        return None
    above = dict(zip(up_starts, up_words))
    return [f"{above[s]} {w}" if s in above else w for s, w in zip(low_starts, low_words)]


@register
class SummaryTable(Parser):
    name = "summary-table"
    what = "a table row (a line of figures outside every table)"
    description = "F9 whitespace summary tables under heading lines (published results)"

    def detect(self, head: str) -> str | None:
        lines = head.splitlines()[:200]
        for a, b, c in zip(lines, lines[1:], lines[2:]):
            width = len(a.split())
            if (
                width >= 3
                and not _looks_like_data(a.split())
                and _is_data(b.split(), width)
                and _is_data(c.split(), width)
            ):
                return "a header line followed by aligned numeric rows"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        complete = Lines(text, file)
        lines = complete.lines
        parsed = Parsed(format=self.name, file=file, problems=complete.problems)
        path: list[str] = []
        floor = 0  # first line after the previous table
        h = 0
        used: set[int] = set()  # indexes of the lines read as headers and rows
        while h < len(lines) - 1:
            header = lines[h].split()
            width = len(header)
            if width < 2 or not _is_data(lines[h + 1].split(), width):
                h += 1
                continue
            columns = _upper_header(lines, h, floor) or header
            top = h - 1 if columns is not header else h
            path = _nest(path, _headings_above(lines, top, floor))
            end = h + 1
            while end < len(lines) and _is_data(lines[end].split(), width):
                end += 1
            table = _table(
                " / ".join(path) or f"table {len(parsed.tables) + 1}",
                columns,
                lines[h + 1 : end],
                h + 2,
                file,
            )
            table.line = top + 1
            used.update(range(top, end))
            if any(t.name == table.name for t in parsed.tables):
                raise Problem(file, top + 1, f"two tables named {table.name!r}")
            parsed.tables.append(table)
            self._check_row_after(lines, end, width, file)
            floor = h = end
        if not parsed.tables:
            raise Problem(
                file, 0, "no table (a header line followed by rows with the same number of fields)"
            )
        for i, line in enumerate(lines):  # figures outside every table: named, not dropped
            if i not in used and _looks_like_data(line.split()):
                complete.skip(i + 1)
        return parsed

    @staticmethod
    def _check_row_after(lines: list[str], end: int, width: int, file: str) -> None:
        """A numeric line right after a table with another field count is a broken row."""
        if end < len(lines) and _looks_like_data(lines[end].split()):
            raise Problem(
                file, end + 1, f"{len(lines[end].split())} fields, the table header has {width}"
            )


def _headings_above(lines: list[str], top: int, floor: int) -> list[str]:
    """Heading lines between the previous table and line `top`, top-down."""
    found = []
    for i in range(top - 1, floor - 1, -1):
        text = lines[i].strip()
        if not text:
            continue
        if not _is_heading(text):
            break
        found.append(text.lstrip("-").strip())
    return found[::-1]


def _nest(path: list[str], headings: list[str]) -> list[str]:
    if not headings:
        return path
    keep = max(len(path) - len(headings), 0)
    return path[:keep] + headings


def _table(name: str, columns: list[str], rows: list[str], first_line: int, file: str) -> Table:
    if len(set(columns)) != len(columns):
        raise Problem(file, first_line - 1, f"duplicate column names in header: {columns}")
    check_names(file, first_line - 1, [name, *columns], "table name or column")
    table = Table(name=name, columns=columns, rows=[])
    reading = position.get()  # a number's error names its line
    for i, line in enumerate(rows):
        if reading is not None:
            reading.at = first_line + i
        record = {}
        for col, cell in zip(columns, line.split()):
            value, unit = parse_cell(cell, f"table {clean(name, 40)}, {clean(col, 40)}")
            record[col] = value
            if unit:
                table.units[f"{i}/{col}"] = unit
        table.rows.append(record)
    return table
