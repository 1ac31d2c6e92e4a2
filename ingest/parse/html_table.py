"""An HTML `<table>` of published figures (a results page's `table.txt`), read with the
standard library's `html.parser`.

Rows whose cells are all `<th>` are header rows; a cell's `colspan` repeats it over the
columns it spans, and the header rows' texts join per column (`MySQL-5.6.4` over `Seconds`
-> `MySQL-5.6.4 Seconds`; an empty header cell adds nothing). Each following row of `<td>`
cells is a data row. Cells go through `values.parse_cell` (missing is None, never 0), plus the
forms such tables use: a percentage (`+4.35%`, `-1.04%`) is its number with the unit `%`
(`Table.units`), and a bound (`>7200`: the query ran longer than that, it did not finish) is
missing, the printed bound kept as the cell's note. Each `<table>` is one `Table`, named by its
`<caption>`, else `table` (`table 2`, ...).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any, TypedDict

from ingest.parse import register
from ingest.parse._text import check_names
from ingest.parse.base import Parsed, Parser, Table
from ingest.parse.values import parse_cell, read_number
from ingest.problems import Problem, clean

PERCENT = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+))\s*%$", re.ASCII)
BOUND = re.compile(r"^[<>]\s*=?\s*\d+(?:\.\d+)?$")
MAX_SPAN = 100


Cell = tuple[str, str, int]  # a <td> or <th>: (tag, text, colspan; 0 for a colspan not read)


class FoundTable(TypedDict):
    """A <table> as read: its line, its rows (each its line and its cells), its caption."""

    line: int
    rows: list[tuple[int, list[Cell]]]
    caption: str | None


class _Reader(HTMLParser):
    """The tables of a document: each a list of (line, [(tag, text, colspan)]) rows."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[FoundTable] = []
        self._cell: list[Any] | None = None  # [tag, text so far, colspan] of the open cell

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append({"line": self.getpos()[0], "rows": [], "caption": None})
        elif not self.tables:
            return
        elif tag == "tr":
            self.tables[-1]["rows"].append((self.getpos()[0], []))
        elif tag in ("td", "th", "caption"):
            span = dict(attrs).get("colspan") or "1"
            self._cell = [tag, "", int(span) if span.isdigit() else 0]

    def handle_endtag(self, tag: str) -> None:
        if self._cell is None or tag != self._cell[0]:
            return
        tag, text, span = self._cell
        self._cell = None
        if tag == "caption":
            self.tables[-1]["caption"] = " ".join(text.split())
        elif self.tables[-1]["rows"]:
            self.tables[-1]["rows"][-1][1].append((tag, " ".join(text.split()), span))

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell[1] += data


def cell(text: str) -> tuple[object, str | None, str | None]:
    """(value, unit, note) of one data cell."""
    if m := PERCENT.match(text):
        return read_number(m.group(1), "percent cell"), "%", None
    if BOUND.match(text):
        return None, None, text
    value, unit = parse_cell(text)
    return value, unit, None


@register
class HtmlTable(Parser):
    name = "html-table"
    description = "An HTML <table> of published figures (th header rows, colspan, %, >N bounds)"

    def detect(self, head: str) -> str | None:
        if re.search(r"<table\b", head[:4096], re.I) and re.search(r"<t[dh]\b", head, re.I):
            return "an HTML <table> with <th>/<td> cells"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        if not text.strip():
            raise Problem(file, None, "empty file")
        whole, tail = text[: text.rfind("\n") + 1], text[text.rfind("\n") + 1 :]
        parsed = Parsed(format=self.name, file=file)
        if tail.strip():  # a file cut mid-line: only its complete lines are read
            line = whole.count("\n") + 1
            parsed.problems.append(
                Problem(
                    file, line, "incomplete last line (the file ends mid-line, cut short?): ignored"
                )
            )
        reader = _Reader()
        reader.feed(whole)
        reader.close()
        for k, found in enumerate(reader.tables, start=1):
            table = _table(file, found, k)
            if table is not None:
                parsed.tables.append(table)
        if not parsed.tables:
            raise Problem(file, None, "no <table> with data rows")
        return parsed


def _expand(file: str, line: int, cells: list[Any]) -> list[tuple[str, str]]:
    out = []
    for tag, text, span in cells:
        if not 1 <= span <= MAX_SPAN:
            raise Problem(file, line, f"colspan must be 1 to {MAX_SPAN}")
        out += [(tag, text)] * span
    return out


def _table(file: str, found: FoundTable, k: int) -> Table | None:
    header: list[list[str]] = []
    table = None
    for line, cells in found["rows"]:
        row = _expand(file, line, cells)
        if not row:
            continue
        if table is None and all(tag == "th" for tag, _ in row):
            header.append([text for _, text in row])
            continue
        if table is None:
            width = max(map(len, header), default=len(row))
            columns = [
                " ".join(h[i] for h in header if i < len(h) and h[i]) or f"c{i + 1}"
                for i in range(width)
            ]
            name = found["caption"] or ("table" if k == 1 else f"table {k}")
            check_names(file, found["line"], [name, *columns], "table name or column")
            table = Table(name=name, columns=columns, rows=[], line=found["line"])
        if len(row) != len(table.columns):
            raise Problem(file, line, f"{len(row)} cells, expected {len(table.columns)}")
        values = {}
        for column, (_, text) in zip(table.columns, row):
            try:
                value, unit, note = cell(text)
            except ValueError as e:  # a number too long or out of range (`read_number`)
                raise Problem(file, line, f"{clean(column, 40)}: {e}") from None
            key = f"{len(table.rows)}/{column}"
            if unit:
                table.units[key] = unit
            if note:
                table.notes[key] = note
            values[column] = value
        table.rows.append(values)
    return table
