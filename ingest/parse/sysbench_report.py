"""F10: sysbench report summaries from mdcallag/mytools (`o.qps.abs`, `o.qps.rel`, `o.met`).

The file is a list of blocks separated by blank lines. A block starts with its name
(`sb.r.qps.<test>.pk1` or `sb.met.<test>.pk1.dop1`), then rows of tab-separated numbers
ending with the run tag (`x.my5649.x6d.pk1`). In `o.met` a block has sections
(`--- absolute`, `--- relative to first result`) and a header line (`cpu/o rKB/o wKB/o o/s dbms`)
that the later sections reuse.

Each block (or section) becomes a `Table` named `<block>` or `<block> / <section>`. Without a
header line the columns are `c1`..`cN` (the value at 1..N clients, by position) and `dbms`
(the run tag). Values are numbers; `inf`/`nan` (the author's ratio to a zero base) are missing
(None) with the text kept in `Table.notes`; any other non-number stops the parse.
"""

from __future__ import annotations

import re

from ingest.parse import register
from ingest.parse._text import Lines
from ingest.parse.base import Parsed, Parser, Row, Table
from ingest.parse.values import parse_cell

BLOCK_NAME = re.compile(r"^sb\.[\w.+-]+$")
UNDEFINED = {"inf", "-inf", "nan"}
SECTION = re.compile(r"^---\s+(.*\S)\s*$")


@register
class SysbenchReport(Parser):
    name = "sysbench-report"
    description = "F10 mytools sysbench report summaries (o.qps.abs, o.qps.rel, o.met)"

    def detect(self, head: str) -> str | None:
        lines = [l for l in head.splitlines() if l.strip()][:4]
        if (
            lines
            and BLOCK_NAME.match(lines[0])
            and len(lines) > 1
            and (SECTION.match(lines[1]) or re.match(r"^[\d.]+\t", lines[1]))
        ):
            return "sb.<report>.<test> block names over tab-separated rows"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        parsed = Parsed(format=self.name, file=file, problems=lines.problems)
        block = section = None
        columns: list[str] | None = None
        table: Table | None = None
        for n, raw in lines:
            line = raw.strip()
            if not line:
                block = table = None
                continue
            if block is None:
                if not BLOCK_NAME.match(line):
                    raise lines.error(
                        n, f"expected a block name like sb.r.qps.<test>, got {line[:40]!r}"
                    )
                block, section, columns, table = line, None, None, None
                continue
            m = SECTION.match(line)
            if m:
                section, table = m.group(1), None
                continue
            cells = line.split()
            if columns is None and table is None and not _is_row(cells):
                columns = cells
                continue
            if table is None:
                name = f"{block} / {section}" if section else block
                cols = columns or [f"c{i}" for i in range(1, len(cells))] + ["dbms"]
                table = Table(name=name, columns=cols, rows=[], line=n)
                parsed.tables.append(table)
            table.rows.append(self._row(cells, table, lines, n))
        if not any(t.rows for t in parsed.tables):
            raise lines.error(0, "no report rows (expected sb.* blocks of tab-separated numbers)")
        return parsed

    @staticmethod
    def _row(cells: list[str], table: Table, lines: Lines, n: int) -> Row:
        columns = table.columns
        if len(cells) != len(columns):
            raise lines.error(
                n, f"{len(cells)} fields, expected {len(columns)} ({' '.join(columns)})"
            )
        row: Row = {}
        for col, cell in zip(columns[:-1], cells[:-1]):
            if cell.lower() in UNDEFINED:  # a ratio to 0: missing, the author's text kept as a note
                row[col] = None
                table.notes[f"{len(table.rows)}/{col}"] = cell
                continue
            value, unit = parse_cell(cell)
            if isinstance(value, str) or unit:
                raise lines.error(n, f"{col}: {cell!r} is not a number")
            row[col] = value
        row[columns[-1]] = cells[-1]
        return row


def _is_row(cells: list[str]) -> bool:
    """Numbers then one tag: a data row (a header line has no numbers)."""
    return len(cells) >= 2 and all(not isinstance(parse_cell(c)[0], str) for c in cells[:-1])
