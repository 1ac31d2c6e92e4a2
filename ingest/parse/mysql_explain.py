"""MySQL EXPLAIN output, in the two forms the client prints it:

- boxed (`mysql` at a terminal, `--table`): a `+----+-----+` border, a `| id | select_type |
  ...` header, a border, one `| ... |` line per plan row, a border. Columns are cut at the
  border's `+` positions, so a cell is read whole whatever it holds;
- tab-separated (`mysql -B`, `--batch`): an `id<TAB>select_type<TAB>table ...` header, then
  one tab-separated line per plan row.

Each plan becomes a `Table` named `explain` (`explain 2`, ... when a file holds several) whose
columns are the header's (`id, select_type, table, type, possible_keys, key, key_len, ref,
rows, filtered, Extra`, whatever the server printed). `NULL` is missing (None); `rows`,
`filtered` and `id` are numbers; every other cell is text as printed. The DBT3 kit's
`all_explains.txt` (`dbt3_explains.py`) embeds boxed plans and reads them with `read_boxed`.
"""

from __future__ import annotations

import re

from ingest.parse import register
from ingest.parse._text import Lines
from ingest.parse.base import Parsed, Parser, Table
from ingest.parse.values import number_problem, parse_number
from ingest.problems import clean
from ingest.read.fields import DISPLAY_BAD

BORDER = re.compile(r"^\+(?:-+\+)+\s*$")
BOXED_HEADER = re.compile(r"^\|\s*id\s*\|\s*select_type\s*\|")
TAB_HEADER = re.compile(r"^id\tselect_type\t")
# Rows of one plan: a real EXPLAIN has a few dozen; a row costs ~3 KB parsed and kept, so a
# 300,000-row plan took 904 MB before this bound.
MAX_PLAN_ROWS = 1_000
NUMERIC = {"id", "rows", "filtered"}  # columns read as numbers; the others stay text


def cell_value(column: str, text: str) -> float | int | str | None:
    """A plan cell: None for NULL or empty, a number in the numeric columns, else the text."""
    text = text.strip()
    if text in ("", "NULL"):
        return None
    if column in NUMERIC:
        value = parse_number(text, f"plan {column}")
        if value is None:
            raise ValueError(f"could not convert string to float: {text!r}")
        return value
    if bad := DISPLAY_BAD.search(text):
        raise number_problem(
            f"plan {column}: '{clean(text, 60)}' holds U+{ord(bad.group()):04X} (a control character)"
        )
    return text


def _bounded(lines: Lines, table: Table, at: int) -> None:
    if len(table.rows) >= MAX_PLAN_ROWS:
        raise lines.error(at, f"EXPLAIN: a plan of more than {MAX_PLAN_ROWS:,} rows")


def _cuts(border: str) -> list[tuple[int, int]]:
    """(start, end) of each column between the `+` of a border line."""
    plus = [i for i, c in enumerate(border.rstrip()) if c == "+"]
    return list(zip((p + 1 for p in plus), plus[1:]))


def read_boxed(
    lines: Lines, items: list[tuple[int, str]], i: int
) -> tuple[Table | None, int, bool]:
    """(plan, index after it, closed) for the boxed plan starting at `items[i]` (a border
    line); (None, i, False) when `items[i]` starts no plan. Rows must keep the border's `|`
    where its `+` are. A box the lines end in before its closing border keeps the rows read,
    `closed` False (the caller reports it)."""
    n, border = items[i]
    if not BORDER.match(border) or i + 2 >= len(items) or not BOXED_HEADER.match(items[i + 1][1]):
        return None, i, False
    cuts = _cuts(border)
    columns = [items[i + 1][1][a:b].strip() for a, b in cuts]
    table = Table(name="explain", columns=columns, rows=[], line=n)
    if not BORDER.match(items[i + 2][1]):
        raise lines.error(items[i + 2][0], "EXPLAIN: expected a +----+ border under the header")
    j = i + 3
    while j < len(items) and not BORDER.match(items[j][1]):
        at, row = items[j]
        if not (row.startswith("|") and len(row.rstrip()) == len(border.rstrip())):
            raise lines.error(at, f"EXPLAIN: a plan row must fill the box ({row[:40]!r})")
        lines.at = at
        _bounded(lines, table, at)
        table.rows.append({c: cell_value(c, row[a:b]) for c, (a, b) in zip(columns, cuts)})
        j += 1
    return table, min(j + 1, len(items)), j < len(items)


def _read_tabbed(lines: Lines, items: list[tuple[int, str]], i: int) -> tuple[Table, int]:
    n, header = items[i]
    columns = header.split("\t")
    table = Table(name="explain", columns=columns, rows=[], line=n)
    j = i + 1
    while j < len(items) and items[j][1].strip() and not TAB_HEADER.match(items[j][1]):
        at, row = items[j]
        cells = row.split("\t")
        if len(cells) != len(columns):
            raise lines.error(at, f"EXPLAIN: {len(cells)} fields, expected {len(columns)}")
        lines.at = at
        _bounded(lines, table, at)
        table.rows.append({c: cell_value(c, v) for c, v in zip(columns, cells)})
        j += 1
    return table, j


@register
class MysqlExplain(Parser):
    name = "mysql-explain"
    description = "MySQL EXPLAIN output, boxed (+----+) or tab-separated (mysql -B)"

    def detect(self, head: str) -> str | None:
        first = [l for l in head.splitlines() if l.strip()][:2]
        if len(first) == 2 and BORDER.match(first[0]) and BOXED_HEADER.match(first[1]):
            return "a +----+ box with an | id | select_type | header"
        if first and TAB_HEADER.match(first[0]):
            return "a tab-separated id, select_type, table ... header"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        parsed = Parsed(format=self.name, file=file, problems=lines.problems)
        items = [(n, l) for n, l in lines if l.strip()]
        i = 0
        while i < len(items):
            n, line = items[i]
            table: Table | None
            if TAB_HEADER.match(line):
                table, i = _read_tabbed(lines, items, i)
            else:
                table, i, closed = read_boxed(lines, items, i)
                if table is None:
                    raise lines.error(n, f"not an EXPLAIN line: {line[:40]!r}")
                if not closed:
                    lines.missing_end(items[-1][0], "the EXPLAIN box's closing border")
            parsed.tables.append(table)
        if not parsed.tables:
            raise lines.error(None, "no EXPLAIN plan")
        for k, t in enumerate(parsed.tables[1:], start=2):
            t.name = f"explain {k}"
        return parsed
