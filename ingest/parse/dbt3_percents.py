"""The DBT3 author's relative table, `2percents.dat` (gnuplot data, written with a
spreadsheet in a decimal-comma locale):

    <TAB>relative query run time, MariaDB Median = 100%
    <TAB>MariaDB-5.3.5<TAB><TAB><TAB>MySQL-5.6.4<TAB><TAB><TAB>MySQL-5.5.21<TAB><TAB>
    Query<TAB>Median<TAB>Min<TAB>Max<TAB>Median<TAB>Min<TAB>Max<TAB>...
    1<TAB>100<TAB>98,96<TAB>104,84<TAB>...

One table, named by the title line, with the columns `query` and `<server> <heading>` for
each value column: a server's name (as printed above its first column) heads every column up
to the next name. Values are numbers with a decimal comma (`98,96` is 98.96); `-1` is the
marker of a query that did not finish: missing (None), with the printed marker as the note.
"""

from __future__ import annotations

from collections.abc import Iterator

from ingest.parse import register
from ingest.parse._text import Lines, query_name
from ingest.parse.base import Parsed, Parser, Row, Table
from ingest.parse.dbt3_summary import marker_note
from ingest.parse.values import parse_number


def _fields(line: str) -> list[str]:
    return [f.strip() for f in line.split("\t")]


@register
class Dbt3Percents(Parser):
    name = "dbt3-percents"
    description = "DBT3 2percents.dat: per query and server, median/min/max in percent of a base (decimal commas)"

    def detect(self, head: str) -> str | None:
        rows = [l for l in head.splitlines() if l.strip()][:3]
        if (
            len(rows) == 3
            and rows[0].startswith("\t")
            and _fields(rows[2])[:2] == ["Query", "Median"]
        ):
            return "a title, server names and a Query<TAB>Median<TAB>... header"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        heads = [(n, l) for n, l in lines if l.strip()][:3]
        if len(heads) < 3 or _fields(heads[2][1])[:1] != ["Query"]:
            raise lines.error(
                heads[0][0] if heads else None,
                "expected a title, server names and a Query ... header",
            )
        (_, title), (_, servers), (header_at, header) = heads
        names, current = [], ""
        for k, (server, heading) in enumerate(_zip_long(_fields(servers), _fields(header))):
            current = server or current
            if k and heading:
                names.append(f"{current} {heading}".strip())
        table = Table(name=title.strip(), columns=["query", *names], rows=[], line=header_at)
        for n, line in lines:
            if n <= header_at or not line.strip():
                continue
            cells = _fields(line)
            if len(cells) != len(names) + 1:
                raise lines.error(n, f"{len(cells)} fields, expected {len(names) + 1}")
            row: Row = {"query": query_name(lines, n, cells[0])}
            for column, cell in zip(names, cells[1:]):
                value = parse_number(cell.replace(",", ".")) if cell else None
                if cell and value is None:
                    raise lines.error(n, f"{column}: not a number: {cell[:40]!r}")
                if value == -1:
                    marker_note(table, column, cell)
                    value = None
                row[column] = value
            table.rows.append(row)
        if not table.rows:
            raise lines.error(header_at, "no rows under the header")
        return Parsed(format=self.name, file=file, tables=[table], problems=lines.problems)


def _zip_long(a: list[str], b: list[str]) -> Iterator[tuple[str, str]]:
    width = max(len(a), len(b))
    return zip(a + [""] * (width - len(a)), b + [""] * (width - len(b)))
