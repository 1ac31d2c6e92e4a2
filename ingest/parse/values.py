"""Cell values of published tables (F9 whitespace tables, F13 Markdown tables).

`parse_cell` turns the text of one cell into `(value, unit)`:
- `N/A`, `NA`, `n/a`, `-` and the empty cell are missing: `(None, None)`, never 0;
- a plain number becomes an int (no decimal point) or a float: `"0.85"` -> `(0.85, None)`;
- a number with a size suffix keeps the number as written and the suffix as its unit:
  `"9.49G"` -> `(9.49, "G")` (see `UNIT_SCALE` to compare values in different units);
- every number goes through `read_number`: ASCII decimal digits only (`1_000` and Arabic-Indic
  digits are not numbers), at most MAX_NUMBER_CHARS characters, a whole number within 64 bits,
  a float finite; a longer or larger number is a `file:line` error, not inf or a traceback;
- anything else is text: `("inno5717.none.150g.redo4", None)`.
"""

from __future__ import annotations

import math
import re
from typing import Literal, overload

from ingest.parse._text import position
from ingest.problems import Problem

MISSING = {"", "n/a", "na", "-", "\u2014"}
# re.ASCII: `\d` is 0-9 only, so `٣٤٣` is text, never 343
NUMBER = re.compile(r"\A[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z", re.ASCII)
SUFFIXED = re.compile(r"\A([+-]?(?:\d+\.?\d*|\.\d+))([KMGTP])\Z", re.ASCII)
WHOLE = re.compile(r"\A[+-]?\d+\Z", re.ASCII)
# Longer than any number a benchmark tool prints (a float's 17 significant digits, a sign, a
# point, an exponent); a longer one is damage or a hostile file, refused before `int()` runs.
MAX_NUMBER_CHARS = 40
MAX_WHOLE = 2**63 - 1  # the largest whole number Hugo and the data files carry exactly
# Binary multipliers, as MySQL status tools and `du -h` print them.
UNIT_SCALE = {"K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4, "P": 1024**5}


def number_problem(reason: str) -> Exception:
    """A `file:line` Problem at the line the parse is reading (`_text.position`), or a
    ValueError outside a parse."""
    lines = position.get()
    if lines is None:
        return ValueError(reason)
    return Problem(lines.file, lines.at, reason)


@overload
def read_number(text: str, what: str = ..., *, whole: Literal[True]) -> int: ...
@overload
def read_number(text: str, what: str = ..., whole: bool = ...) -> int | float: ...


def read_number(text: str, what: str = "number", whole: bool = False) -> int | float:
    """The one reader of a number in every format: ASCII decimal (optional sign, point and
    exponent), at most MAX_NUMBER_CHARS characters, a whole number within 64 bits, a float
    finite; with `whole`, no point or exponent. Anything else is a `file:line` error naming
    `what` (`Problem` while a parse is reading, else ValueError)."""
    text = text.strip()
    if len(text) > MAX_NUMBER_CHARS:
        raise number_problem(
            f"{what}: a number of {len(text):,} characters (limit {MAX_NUMBER_CHARS}): "
            f"{text[:20]!r}..."
        )
    if not NUMBER.match(text) or (whole and not WHOLE.match(text)):
        kind = "a whole number" if whole else "a number"
        raise number_problem(f"{what}: not {kind} in ASCII digits: {text!r}")
    if WHOLE.match(text):
        value = int(text)
        if abs(value) > MAX_WHOLE:
            raise number_problem(f"{what}: a number out of range (beyond 64 bits): {text!r}")
        return value
    f = float(text)
    if not math.isfinite(f):
        raise number_problem(f"{what}: a number out of range: {text!r}")
    return f


def parse_number(text: str, what: str = "number") -> int | float | None:
    """The number in `text` (int when it has no decimal point or exponent), None if it is not
    written as one; a number too long or out of range is an error (`read_number`)."""
    text = text.strip()
    if not NUMBER.match(text):
        return None
    return read_number(text, what)


def parse_cell(text: str, what: str = "number") -> tuple[int | float | str | None, str | None]:
    """(value, unit) of one cell; see the module docstring. `what` names the cell in an error."""
    text = text.strip()
    if text.lower() in MISSING:
        return None, None
    number = parse_number(text, what)
    if number is not None:
        return number, None
    m = SUFFIXED.match(text)
    if m:
        return parse_number(m.group(1), what), m.group(2)
    return text, None


def is_numeric_cell(text: str) -> bool:
    """True for a number, a suffixed number, or a missing marker (a data cell, not a word);
    written as one is enough (a number too long is refused where the cell is read)."""
    text = text.strip()
    return text.lower() in MISSING or bool(NUMBER.match(text) or SUFFIXED.match(text))


def in_base_unit(value: float | None, unit: str | None) -> float | None:
    """`value` scaled by its unit's multiplier (None stays None)."""
    if value is None or unit is None:
        return value
    return value * UNIT_SCALE[unit]
