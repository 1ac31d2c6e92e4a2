"""Every CSV the site serves, written here and nowhere else (docs/data-schema.md):

- `tables/<id>.csv`, beside each derived table's YAML, by the ingest (`table_csv`); the table
  shortcode and the charts drawn from a table publish it as it is;
- `runs.csv`, the runs' statistics over the study's window, by the ingest (`runs_csv`); the
  time series and metrics charts publish it as theirs;
- `series/<run>.csv` (and `<run>.linked.csv`), turned from the run's JSON when the site is
  published (`series_csv`, called by publish/series.py), so data/ keeps one copy of a series.

One format: a header row, one line per row, `\\n` line ends; a number as JSON writes it
(ingest/write/numbers.py: `2` for 2.0, the same text as in the series JSON); a missing value (None,
null) as an empty field; text a spreadsheet would run as a formula prefixed with `'`
(ingest/write/csvsafe.py), and quoted when it holds a comma, a quote, a CR or a LF (RFC 4180;
Python's `csv` module leaves a lone CR unquoted when lines end in LF, so the quoting is done
here). The browser's "CSV (as shown)" export (assets/js/export.js) follows the same rule: both
are checked against one set of cases, tests/fixtures/csv-fields.json.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ingest.write.csvsafe import safe_cell
from ingest.write.numbers import json_number

if TYPE_CHECKING:  # types only: the publish step imports this module without the ingest's steps
    from ingest.derive.tables import DerivedTable
    from ingest.join.records import Record

NEEDS_QUOTES = re.compile(r'[",\r\n]')


def cell(v: object) -> str:
    """One field's text: see the module docstring."""
    if v is None:
        return ""
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return json_number(v)
    text = safe_cell(str(v))
    return '"' + text.replace('"', '""') + '"' if NEEDS_QUOTES.search(text) else text


def _write(header: list[str], rows: Iterable[Iterable[str]]) -> str:
    """The CSV text of a header and rows of fields (text already made by `cell`)."""
    lines = [",".join(map(cell, header)), *map(",".join, rows)]
    return "\n".join(lines) + "\n"


def table_csv(table: DerivedTable) -> str:
    """CSV of a table in the tables/<id>.yaml shape ({columns: [{key, ...}], rows: [{key: value}]})."""
    keys = [c["key"] for c in table["columns"]]
    return _write(keys, ([cell(row.get(k)) for k in keys] for row in table["rows"]))


RUN_STATS = ("n", "mean", "p1", "p5", "p50", "p95", "p99", "min", "max", "cv")


def runs_csv(runs: list[Record], window: dict[str, float] | None) -> str:
    """The runs' statistics over the study's window (runs.yaml `window`), one line per run:
    run, name, metric, window_start, window_end, then `RUN_STATS`; empty where a run has none."""
    header = ["run", "name", "metric", "window_start", "window_end", *RUN_STATS]
    start, end = (window or {}).get("start"), (window or {}).get("end")
    rows: list[list[str]] = []
    for r in runs:
        w = r.get("window") or {}
        row = [r["id"], r.get("name") or r["id"], r.get("metric"), start, end]
        rows.append([cell(v) for v in row + [w.get(k) for k in RUN_STATS]])
    return _write(header, rows)


def series_csv(json_text: str) -> str:
    """The readers' CSV of a series file (ingest/write/seriesfiles.py): a header of its `columns`,
    one row per interval, each number as the JSON wrote it. The numbers are kept as their text
    (parsed with parse_float=str), so nothing is converted twice; when the only quotes from
    `"columns":` on are the columns' names (no text in a column: every series the ingest
    writes), the values are joined as they are, else each goes through `cell`."""
    doc = json.loads(json_text, parse_float=str, parse_int=str)
    columns = doc["columns"]
    tail = json_text[json_text.find('"columns":') :]
    if "\\" not in tail and tail.count('"') == 2 + 4 * len(columns):
        data = [
            ["" if v is None else v for v in doc[c]] if None in doc[c] else doc[c] for c in columns
        ]
        try:
            return _write(columns, zip(*data, strict=True))
        except TypeError:  # true or false in a column
            pass
    return _write(columns, zip(*([cell(v) for v in doc[c]] for c in columns), strict=True))


__all__ = ["cell", "table_csv", "runs_csv", "series_csv", "RUN_STATS"]
