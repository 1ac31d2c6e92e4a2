"""Numbers as text, the one way every file the site serves writes them: as JSON does in the
browser and in Hugo (JavaScript's `JSON.stringify`, Go's encoding/json), the shortest digits
that read back as the same float: `2` for the float 2.0, `262.56`, positional from 1e-6 to
1e21 (`0.000001`, `123456789012345680`), `1e-7` and `1e+21` outside.

Used by the series JSON (ingest/seriesfiles.py) and every CSV (ingest/csvfiles.py), so a
number reads the same in both, and by no one else.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal


def json_number(v: int | float) -> str:
    """`v` as JSON writes a number; ValueError for inf and NaN (JSON has none)."""
    if type(v) is int:
        return str(v)
    text = repr(v)
    if not math.isfinite(v):
        raise ValueError(f"no JSON number for {text}")
    if "e" not in text:  # Python's repr is positional from 1e-4 to 1e16: only `.0` differs
        return text[:-2] if text.endswith(".0") else text
    if 1e-6 <= abs(v) < 1e21:
        text = format(Decimal(text), "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    mantissa, exp = f"{Decimal(text):e}".split("e")  # 1e-7, 1.5e+21
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    sign, digits = exp[0], exp[1:].lstrip("0")
    return f"{mantissa}e{sign}{digits if sign == '-' else digits.zfill(2)}"


def _json_value(v) -> str:
    if type(v) in (int, float):
        return json_number(v)
    return json.dumps(v, ensure_ascii=False)  # null, true, false, text


def json_array(values: list) -> str:
    """A JSON array of a series column (numbers, None for a missing value): `[1,262.56,null]`.
    A column of plain ints and floats in Python's positional range, the usual case, is Python's
    own list repr with `.0`, spaces and None rewritten (in C, no call per value); anything else
    (exponents, booleans, text) is written value by value."""
    text = list.__repr__(values)
    if "None" in text:
        text = text.replace("None", "null")
    if "e" in text or "inf" in text or "nan" in text or "'" in text or '"' in text:
        return "[" + ",".join(map(_json_value, values)) + "]"
    text = text.replace(".0, ", ",").replace(", ", ",")
    return text[:-3] + "]" if text.endswith(".0]") else text


__all__ = ["json_number", "json_array"]
