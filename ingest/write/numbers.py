"""Numbers as text, the one way every file the site serves writes them: as JSON does in the
browser and in Hugo (JavaScript's `JSON.stringify`, Go's encoding/json), the shortest digits
that read back as the same float: `2` for the float 2.0, `262.56`, positional from 1e-6 to
1e21 (`0.000001`, `123456789012345680`), `1e-7` and `1e+21` outside.

Used by the series JSON (ingest/write/seriesfiles.py) and every CSV (ingest/write/csvfiles.py), so a
number reads the same in both, and by no one else. A parser's column of repeated numbers
(`floats_of`) is converted and written once per distinct number, and keeps its JSON text; so
does a column of two-decimal words (sysbench's `%.2f` rates) or whole numbers, its words joined.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any, TypeVar

# sysbench's rates as `%.2f` prints them, each followed by ",": at most 15 digits, no leading
# zero, so the float reads back as these digits and its JSON is them with trailing zeros cut
TWO_DECIMALS = re.compile(r"(?:(?:0|[1-9][0-9]{0,12}+)\.[0-9][0-9],)*+")
# whole numbers as JSON writes them (no leading zero), each followed by ","
WHOLE = re.compile(r"(?:(?:0|[1-9][0-9]*+),)*+")
T = TypeVar("T")


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


def _json_value(v: object) -> str:
    if type(v) is int or type(v) is float:
        return json_number(v)
    return json.dumps(v, ensure_ascii=False)  # null, true, false, text


class Printed(list[T]):
    """A column of numbers that also holds `json_text`, its JSON array as `json_array` writes
    it, which `json_array` then returns as it is. Any change in place drops the text (None);
    a copy or a slice is a plain list."""

    __slots__ = ("json_text",)

    def __init__(self, values: Iterable[T], json_text: str | None):
        super().__init__(values)
        self.json_text = json_text


# Any: the wrapped list methods take and return what each of them does
def _dropping_text(change: Callable[..., Any]) -> Callable[..., Any]:
    """The list method `change`, which first drops a `Printed` column's text."""

    def changed(self: Printed[Any], *args: Any, **kwargs: Any) -> Any:
        self.json_text = None
        return change(self, *args, **kwargs)

    return changed


for _method in (
    *("__setitem__", "__delitem__", "__iadd__", "__imul__", "append", "extend", "insert"),
    *("pop", "remove", "clear", "sort", "reverse"),
):
    setattr(Printed, _method, _dropping_text(getattr(list, _method)))


def floats_of(words: list[str]) -> list[float | None]:
    """The floats of a column of printed numbers ("" for a missing one: None); ValueError for
    a word that is no number. A column whose words repeat (sysbench's latency buckets, its
    `0.00` errors/s) converts each distinct word once and is `Printed`: its JSON text joined
    from the distinct words' (as `json_array` writes them), with no call per value. A column
    of distinct `%.2f` words (sysbench's tps, qps) is `Printed` too (`two_decimals_json`), so
    its text is built where it is parsed (a parse worker, ingest/parse/pool.py). A column
    with inf (a number too long for a float) is left to the parser's check of finite values."""
    sample = words[:256]
    if len(set(sample)) * 4 > len(sample):  # mostly distinct: a float() each
        if "" in words:
            return [float(x) if x else None for x in words]
        floats: list[float | None] = list(map(float, words))
        text = two_decimals_json(words)
        return floats if text is None else Printed(floats, text)
    distinct = list(set(words))
    values: list[float | None] = [float(x) if x else None for x in distinct]
    if not all(v is None or math.isfinite(v) for v in values):
        return list(map(dict(zip(distinct, values)).__getitem__, words))
    texts = json_array(values)[1:-1].split(",")
    if len(distinct) == 1:  # one number throughout (sysbench's 0.00 errors/s): no look-up
        return Printed(values * len(words), f"[{','.join(texts * len(words))}]")
    value_of, text_of = dict(zip(distinct, values)), dict(zip(distinct, texts))
    text = f"[{','.join(map(text_of.__getitem__, words))}]"
    return Printed(map(value_of.__getitem__, words), text)


def two_decimals_json(words: list[str]) -> str | None:
    """The JSON array of words that all read `0.dd` or `[1-9][0-9]*.dd` (at most 15 digits):
    the words joined, their trailing zeros cut, which is what `json_array` writes for their
    floats (a decimal of at most 15 digits reads back as itself), with no call per word
    (a third of the time of the floats' repr); None for any other word."""
    text = ",".join(words) + ","
    if TWO_DECIMALS.fullmatch(text) is None:
        return None
    # a "0," ends a word's second decimal; then ".0," is what is left of one ending ".00":
    # `512.40` -> `512.4`, `498.00` -> `498.0` -> `498`
    text = text.replace("0,", ",").replace(".0,", ",")
    return f"[{text[:-1]}]"


def ints_of(words: list[str]) -> list[int]:
    """The ints of a column of printed whole numbers (ValueError for any other word); `Printed`
    with its JSON, the words joined, when each is written as JSON writes it (no leading zero)."""
    ints = list(map(int, words))
    text = ",".join(words) + ","
    if WHOLE.fullmatch(text) is None:
        return ints
    return Printed(ints, f"[{text[:-1]}]")


# Any: a column of floats, of ints or of text alike (a list[object] would take none of them)
def json_array(values: list[Any]) -> str:
    """A JSON array of a series column (numbers, None for a missing value): `[1,262.56,null]`.
    A `Printed` column is its text. A column of plain ints and floats in Python's positional
    range, the usual case, is Python's own list repr with `.0`, spaces and None rewritten (in
    C, no call per value); anything else (exponents, booleans, text) is written value by value."""
    if type(values) is Printed and values.json_text is not None:
        return values.json_text
    text = list.__repr__(values)
    if "None" in text:
        text = text.replace("None", "null")
    if "e" in text or "inf" in text or "nan" in text or "'" in text or '"' in text:
        return "[" + ",".join(map(_json_value, values)) + "]"
    text = text.replace(".0, ", ",").replace(", ", ",")
    return text[:-3] + "]" if text.endswith(".0]") else text


__all__ = ["json_number", "json_array", "floats_of", "ints_of", "two_decimals_json", "Printed"]
