"""The per-run series files the site serves as they are (docs/data-schema.md, "series/"):
`<run>.json` for the charts and `<run>.csv` for download, written beside the archival
`<run>.yaml` from the same columnar document, so Hugo never loads or re-serialises a series.

JSON: the YAML document's keys in the same order (`run`, `interval_s`, `columns`, then one
array per column), compact separators, floats as their shortest round-trip repr, `null` for a
missing or non-finite value. CSV: a header row of the columns (`t` first), one row per
interval, a missing value as an empty cell, `\\n` line ends; a text cell is neutralised so a
spreadsheet never reads it as a formula.

"""
from __future__ import annotations

import csv
import io
import json
import math

from .writer import dump

try:   # the shared helper of the CSV publishers, where it exists
    from ingest.csvsafe import safe_cell
except ImportError:   # pragma: no cover - until ingest.csvsafe lands
    def safe_cell(text: str) -> str:
        """`text`, with a leading `'` when a spreadsheet would read it as a formula."""
        return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _finite(column: list) -> list:
    """The column with NaN and infinities as None (JSON has no such numbers)."""
    if all(type(v) is not float or math.isfinite(v) for v in column):
        return column
    return [None if type(v) is float and not math.isfinite(v) else v for v in column]


def series_json(doc: dict) -> str:
    """Compact JSON of a columnar series document ({run, interval_s, columns, <col>: [...]})."""
    out = {k: (_finite(v) if k in doc["columns"] else v) for k, v in doc.items()}
    return json.dumps(out, separators=(",", ":"), ensure_ascii=False, allow_nan=False) + "\n"


def _cell(v) -> str:
    if v is None or (type(v) is float and not math.isfinite(v)):
        return ""
    if isinstance(v, str):
        return safe_cell(v)
    if v is True or v is False:
        return "true" if v else "false"
    return repr(v)


def series_csv(doc: dict) -> str:
    """CSV of a columnar series document: header of its columns, one row per interval."""
    columns = doc["columns"]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([safe_cell(str(c)) for c in columns])
    writer.writerows(map(lambda row: [_cell(v) for v in row], zip(*(doc[c] for c in columns), strict=True)))
    return buf.getvalue()


def series_files(stem: str, doc: dict) -> dict[str, str]:
    """The three files of one columnar series document: `<stem>.yaml` (archival), `.json` (the
    charts fetch it) and `.csv` (download)."""
    return {f"{stem}.yaml": dump(doc), f"{stem}.json": series_json(doc), f"{stem}.csv": series_csv(doc)}


__all__ = ["series_json", "series_csv", "series_files"]
