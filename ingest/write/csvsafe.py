"""CSV cells a spreadsheet cannot run as formulas (OWASP "CSV injection").

A text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is a formula to
Excel, LibreOffice and Google Sheets (`=HYPERLINK(...)`). `safe_cell` prefixes such text with
`'`, which spreadsheets show as text. Numbers, negative ones included, and text that is a plain
number (`-5`, `+1.5e3`) are left as they are, so they stay numbers. The one rule: every CSV
the site serves is written by ingest/write/csvfiles.py with it, and the browser's export
(assets/js/export.js) is checked against the same cases (tests/fixtures/csv-fields.json).
"""

from __future__ import annotations

import re
from typing import TypeVar

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
T = TypeVar("T")


def safe_cell(value: T) -> T | str:
    """`value` to write in a CSV cell: text that would run as a formula gets a leading `'`;
    anything else (numbers, None, plain-number text) is returned unchanged."""
    if (
        isinstance(value, str)
        and value.startswith(FORMULA_START)
        and not PLAIN_NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value
