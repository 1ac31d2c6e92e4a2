"""The DBT3 kit's `results.dat`: the gnuplot data of its comparison chart, one section per
server,

    #Version:5.3.5-MariaDB-ga; StorageEngine:MyISAM; Keyword: mariadb-5-3-5-myisam
    1.sql<TAB>286<TAB>303<TAB>1.00<TAB>1.00<TAB>
    5.sql<TAB>100000<TAB>100000<TAB><TAB><TAB>

Each section is a table named by its `Keyword` (the server's result folder), its caption the
`Version` and `StorageEngine` as printed. The file prints no column headings; the columns are
named by what their values are: `query` (the query file without `.sql`), `min` and `max`
(seconds: the fastest and slowest run, as `2<server>.dat` has them) and `min_ratio`,
`max_ratio` (each to the first section's min and max). `100000` is the kit's marker of a query
that did not finish: missing (None), never a time, with the printed marker as the cell's note;
an empty cell is missing.
"""

from __future__ import annotations

import re

from ingest.parse import register
from ingest.parse._text import Lines, query_name
from ingest.parse.base import Parsed, Parser, Row, Table
from ingest.parse.dbt3_summary import marker_note
from ingest.parse.values import parse_number

SECTION = re.compile(
    r"^#Version:\s*(?P<version>[^;]*);\s*StorageEngine:\s*(?P<engine>[^;]*);\s*Keyword:\s*(?P<keyword>\S+)\s*$"
)
COLUMNS = ["query", "min", "max", "min_ratio", "max_ratio"]
DNF = 100000


@register
class Dbt3Results(Parser):
    name = "dbt3-results"
    description = "DBT3 kit results.dat: #Version: sections of query, min, max, ratios (100000: did not finish)"

    def detect(self, head: str) -> str | None:
        if any(SECTION.match(l) for l in head.splitlines()[:20]):
            return "#Version: ...; StorageEngine: ...; Keyword: ... sections"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        parsed = Parsed(format=self.name, file=file, problems=lines.problems)
        table = None
        for n, line in lines:
            if not line.strip():
                continue
            if m := SECTION.match(line):
                table = Table(name=m["keyword"], columns=COLUMNS, rows=[], line=n)
                table.caption = (
                    f"Version: {m['version'].strip()}; StorageEngine: {m['engine'].strip()}"
                )
                parsed.tables.append(table)
                continue
            if table is None:
                raise lines.error(n, "a row before the first #Version: line")
            table.rows.append(_row(lines, table, n, line))
        if not any(t.rows for t in parsed.tables):
            raise lines.error(None, "no #Version: section with rows")
        return parsed


def _row(lines: Lines, table: Table, n: int, line: str) -> Row:
    cells = line.rstrip("\n").split("\t")
    cells += [""] * (len(COLUMNS) + 1 - len(cells))
    if len(cells) > len(COLUMNS) + 1 or any(c.strip() for c in cells[len(COLUMNS) :]):
        raise lines.error(n, f"{len(cells)} fields, expected {len(COLUMNS)}: {line[:60]!r}")
    row: Row = {"query": query_name(lines, n, cells[0].strip().removesuffix(".sql"))}
    for column, cell in zip(COLUMNS[1:], cells[1:]):
        value = parse_number(cell) if cell.strip() else None
        if cell.strip() and value is None:
            raise lines.error(n, f"{column}: not a number: {cell.strip()[:40]!r}")
        if value == DNF and column in ("min", "max"):
            marker_note(table, column, cell.strip())
            value = None
        row[column] = value
    return row
