"""The DBT3 author's per-query summary of one server, `2<server>.dat` (written by the kit's
`extract.pl` from `all_explains.txt`, then edited by hand): one tab-separated line per query,
no header,

    7-opt<TAB>543<TAB>522<TAB>549<TAB>522,540,543,545,549
    5<TAB>-1<TAB>-1<TAB>-1<TAB>-1,-1,-1,-1,-1
    12-opt<TAB>213<TAB>212<TAB>215<TAB>synthetic

read as table `summary`: `query` (text), `median`, `min`, `max` (seconds), `times` (the last
field as printed: the sorted times, or a word such as `synthetic` where the author typed the
row) and `n` (how many times it lists; None when it lists none). `-1` is the marker of a query
that did not finish: missing (None), never a time, with the printed marker as the cell's note.
"""

from __future__ import annotations

import re

from ingest.parse import register
from ingest.parse._text import Lines, query_name
from ingest.parse.base import Parsed, Parser, Row, Table
from ingest.parse.values import read_number

LINE = re.compile(r"^(?P<query>[\w.-]+)\t(-?\d+)\t(-?\d+)\t(-?\d+)\t(?P<times>\S+)\s*$", re.ASCII)
DNF = -1


def marker_note(table: Table, column: str, printed: str) -> None:
    """A did-not-finish marker in the row being added: the note of its (missing) cell."""
    table.notes[f"{len(table.rows)}/{column}"] = f"did not finish (printed {printed})"


@register
class Dbt3Summary(Parser):
    name = "dbt3-query-summary"
    description = (
        "DBT3 per-query summary 2<server>.dat: query, median, min, max, times (-1: did not finish)"
    )

    def detect(self, head: str) -> str | None:
        rows = [l for l in head.splitlines() if l.strip()][:30]
        if len(rows) >= 2 and all(LINE.match(l) for l in rows[:-1]):
            return "query<TAB>median<TAB>min<TAB>max<TAB>times lines"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        table = Table(
            name="summary", columns=["query", "median", "min", "max", "times", "n"], rows=[]
        )
        for n, line in lines:
            if not line.strip():
                continue
            m = LINE.match(line)
            if not m:
                raise lines.error(n, f"expected query, median, min, max, times: {line[:60]!r}")
            row: Row = {"query": query_name(lines, n, m["query"])}
            for column, printed in zip(("median", "min", "max"), m.groups()[1:4]):
                value = read_number(printed, column, whole=True)
                if value == DNF:
                    marker_note(table, column, printed)
                row[column] = None if value == DNF else value
            listed = [t for t in m["times"].split(",") if t]
            row["times"] = m["times"]
            row["n"] = len(listed) if all(re.fullmatch(r"-?\d+", t) for t in listed) else None
            table.rows.append(row)
        if not table.rows:
            raise lines.error(None, "no query lines")
        return Parsed(format=self.name, file=file, tables=[table], problems=lines.problems)
