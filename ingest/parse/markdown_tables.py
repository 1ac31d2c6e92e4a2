"""F13: Markdown pipe tables of published figures (studies without public raw data).

The file is rendered with python-markdown's `tables` extension and the HTML is walked:
each `##` heading names the table that follows it; a paragraph between the heading and the
table becomes the table's caption. Cells go through `values.parse_cell` (empty or `N/A` is
missing, `9.49G` keeps its unit in `Table.units`). A column named `note` stays a text column;
when a note starts with a qualifier ("about", "up to", ...), the qualifier is recorded in
`Table.notes` for every number of that row, so the post shows it next to the number. Prose
is the text around the tables; pipe rows that render as a paragraph (a blank line inside a
table, a table without its separator row) are named in a warning, never dropped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import markdown
from markdown.extensions.tables import TableExtension

from ingest.parse import register
from ingest.parse._text import Lines, check_names
from ingest.parse.base import Parsed, Parser, Row, Table
from ingest.parse.values import parse_cell
from ingest.problems import Problem, clean

QUALIFIERS = ("approximately", "about", "around", "roughly", "up to", "at least", "at most", "~")
NOTE_COLUMN = "note"
PIPE = re.compile(r"(?<!\\)\|")  # a cell separator (`\|` is a pipe inside a cell)


def qualifier_of(note: str | None) -> str | None:
    """The leading qualifier of a note ("about 2.5x ..." -> "about"), None if it has none."""
    text = (note or "").strip().lower()
    for q in QUALIFIERS:
        if text == q or text.startswith(q + " ") or (q == "~" and text.startswith("~")):
            return q
    return None


@dataclass
class _Event:
    """A heading or paragraph (`kind` its tag, `text`) or a table (`kind` "table", `rows`)."""

    kind: str
    text: str = ""
    rows: list[list[str]] = field(default_factory=list)


class _Walker(HTMLParser):
    """Collects the document's headings, paragraphs and tables, in order, as `_Event`s."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list[_Event] = []
        self._text: list[str] | None = None
        self._tag: str | None = None
        self._rows: list[list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("h1", "h2", "h3", "p") and self._rows is None:
            self._tag, self._text = tag, []
        elif tag == "table":
            self._rows = []
        elif tag == "tr" and self._rows is not None:
            self._rows.append([])
        elif tag in ("td", "th") and self._rows is not None:
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._rows is not None:
            self._rows[-1].append("".join(self._text or []).strip())
            self._text = None
        elif tag == "table" and self._rows is not None:
            self.events.append(_Event("table", rows=self._rows))
            self._rows = None
        elif tag == self._tag and self._text is not None:
            self.events.append(_Event(tag, " ".join("".join(self._text).split())))
            self._tag, self._text = None, None

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)


def _whole_row(line: str, above: str) -> bool:
    """A last line without its newline is a whole table row when it is closed by a `|` and has as
    many separators as the row above it (a row cut mid-line lacks its closing `|`)."""
    line, above = line.strip(), above.strip()
    closed = line.startswith("|") and line.endswith("|") and not line.endswith("\\|")
    return closed and above.startswith("|") and len(PIPE.findall(line)) == len(PIPE.findall(above))


def _heading_lines(source: Lines) -> dict[str, int]:
    """1-based line of each `## heading` in the source (markdown output has no positions)."""
    lines: dict[str, int] = {}
    for n, line in source:
        m = re.match(r"^##\s+(.*?)\s*#*\s*$", line)
        if m and not line.startswith("###"):
            lines.setdefault(" ".join(m.group(1).split()), n)
    return lines


def table_from_cells(
    name: str, cells: list[list[str]], file: str, line: int, caption: str
) -> Table:
    """A `Table` from header + body cell texts (values parsed, notes and units recorded)."""
    header = cells[0]
    body = [
        row for row in cells[1:] if any(row)
    ]  # python-markdown renders a header-only table with one empty row
    if not body:
        raise Problem(file, line, f"table {name!r} has a header but no rows")
    if len(set(header)) != len(header) or "" in header:
        raise Problem(
            file, line, f"table {name!r}: column names must be unique and non-empty: {header}"
        )
    check_names(file, line, [name, *header], f"table {clean(name, 40)!r}: name or column")
    table = Table(name=name, columns=list(header), rows=[], line=line, caption=caption)
    for i, row in enumerate(body):
        if len(row) != len(header):
            raise Problem(
                file,
                line,
                f"table {name!r} row {i + 1}: {len(row)} cells, header has {len(header)}",
            )
        record: Row = {}
        for col, text in zip(header, row):
            if col == NOTE_COLUMN:
                record[col] = text or None
                continue
            value, unit = parse_cell(text)
            record[col] = value
            if unit:
                table.units[f"{i}/{col}"] = unit
        qualifier = qualifier_of(record.get(NOTE_COLUMN))
        if qualifier:
            for col in header:
                if col != NOTE_COLUMN and isinstance(record[col], (int, float)):
                    table.notes[f"{i}/{col}"] = qualifier
        table.rows.append(record)
    return table


@register
class MarkdownTables(Parser):
    name = "markdown-tables"
    what = "a table (pipe rows outside a table: a blank line inside it, or no separator row)"
    description = "F13 Markdown pipe tables under ## headings (published figures)"

    def detect(self, head: str) -> str | None:
        if re.search(r"^##\s+\S", head, re.M) and re.search(
            r"^\|.*\|\s*\n\|\s*:?-{3,}", head, re.M
        ):
            return "## heading and a Markdown pipe table"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        source = Lines(text, file, whole=_whole_row)  # a row cut mid-line is not rendered
        walker = _Walker()
        # the extension as an instance: by name ("tables") Markdown first scans the entry points
        # of every installed package, which costs more than the whole parse
        walker.feed(markdown.markdown("\n".join(source.lines), extensions=[TableExtension()]))
        walker.close()
        lines = _heading_lines(source)
        parsed = Parsed(format=self.name, file=file, problems=source.problems)
        heading: str | None = None
        caption: list[str] = []
        for event in walker.events:
            kind, payload = event.kind, event.text
            if kind == "h2":
                heading, caption = payload, []
            elif kind == "p" and payload.startswith("|"):  # a row cut off from its table
                for no, line in enumerate(source.lines, 1):
                    if line.strip().startswith("|") and " ".join(line.split()) in payload:
                        source.skip(no)
            elif kind == "p" and heading:
                caption.append(payload)
            elif kind == "table":
                if heading is None:
                    raise Problem(file, 0, "a table without a ## heading to name it")
                if any(t.name == heading for t in parsed.tables):
                    raise Problem(file, lines.get(heading, 0), f"two tables named {heading!r}")
                parsed.tables.append(
                    table_from_cells(
                        heading, event.rows, file, lines.get(heading, 0), " ".join(caption)
                    )
                )
                heading = None
        if not parsed.tables:
            raise Problem(file, 0, "no Markdown table under a ## heading")
        return parsed
