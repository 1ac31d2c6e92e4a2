"""Cell values of published tables (F9 whitespace tables, F13 Markdown tables).

`parse_cell` turns the text of one cell into `(value, unit)`:
- `N/A`, `NA`, `n/a`, `-` and the empty cell are missing: `(None, None)`, never 0;
- a plain number becomes an int (no decimal point) or a float: `"0.85"` -> `(0.85, None)`;
- a number with a size suffix keeps the number as written and the suffix as its unit:
  `"9.49G"` -> `(9.49, "G")` (see `UNIT_SCALE` to compare values in different units);
- an integer too long for Python's `int` (more than 4,300 digits) becomes inf, which the
  parser wrapper reports as a number out of range;
- anything else is text: `("inno5717.none.150g.redo4", None)`.
"""

from __future__ import annotations

import re

MISSING = {"", "n/a", "na", "-", "\u2014"}
NUMBER = re.compile(r"\A[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z")
SUFFIXED = re.compile(r"\A([+-]?(?:\d+\.?\d*|\.\d+))([KMGTP])\Z")
# Binary multipliers, as MySQL status tools and `du -h` print them.
UNIT_SCALE = {"K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4, "P": 1024**5}


def parse_number(text: str) -> int | float | None:
    """The number in `text` (int when it has no decimal point or exponent), None if not one."""
    text = text.strip()
    if not NUMBER.match(text):
        return None
    if re.fullmatch(r"[+-]?\d+", text):
        try:
            return int(text)
        except ValueError:  # more than 4,300 digits: inf, which the parse reports as out of range
            return float(text)
    return float(text)


def parse_cell(text: str) -> tuple[int | float | str | None, str | None]:
    """(value, unit) of one cell; see the module docstring."""
    text = text.strip()
    if text.lower() in MISSING:
        return None, None
    number = parse_number(text)
    if number is not None:
        return number, None
    m = SUFFIXED.match(text)
    if m:
        return parse_number(m.group(1)), m.group(2)
    return text, None


def is_numeric_cell(text: str) -> bool:
    """True for a number, a suffixed number, or a missing marker (a data cell, not a word)."""
    value, _unit = parse_cell(text)
    return value is None or not isinstance(value, str)


def in_base_unit(value, unit: str | None):
    """`value` scaled by its unit's multiplier (None stays None)."""
    if value is None or unit is None:
        return value
    return value * UNIT_SCALE[unit]
