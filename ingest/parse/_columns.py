"""Whole columns of printed numbers converted at once, for the monitor parsers' fast paths.

A monitor file (iostat, mpstat, sar, vmstat; dstat has its own) is mostly numbers in fixed
columns: the fast paths cut its rows into columns with one `str.split` per CHUNK rows, then
turn each column into numbers here, with `map` over builtins (no Python call per value), a
column whose words repeat (`0.00`, `16.00`) converted once per distinct word. A word that is
no number raises ValueError, as `float` or `int` does; the parser then takes its line-by-line
path, which names the line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from itertools import repeat
from operator import mul
from typing import Any

from ingest.parse.base import Column


def _convert(
    words: list[str], kind: Callable[[str], Any], factor: float, ndigits: int | None
) -> Column:
    values: Iterable[Any] = map(kind, words)
    if factor != 1:
        values = map(mul, values, repeat(factor))
    if ndigits is None:
        return list(values)
    if factor == 1 and ndigits == 3:
        values = listed = list(values)
        if _rounded(words, listed):
            return listed
    return list(map(round, values, repeat(ndigits)))


def _rounded(words: list[str], values: list[float]) -> bool:
    """Whether rounding `values` (read from `words`) to 3 decimals leaves each as it is:
    every word plain digits with at most 3 decimals, every value below 1e12 (where a float
    still holds 3 decimals exactly, so the nearest float to the word is its own rounding)."""
    joined = " ".join(words)
    return (
        joined.isascii()
        and not joined.translate(PLAIN)
        and not _FOUR_DECIMALS.search(joined)
        and max(values, default=0) < 1e12
    )


PLAIN = str.maketrans("", "", "0123456789. ")  # deletes what a plain number is made of
_FOUR_DECIMALS = re.compile(r"\.\d{4}")


def numbers(
    words: list[str],
    kind: Callable[[str], Any] = float,
    factor: float = 1,
    ndigits: int | None = None,
    known: dict[str, Any] | None = None,
) -> Column:
    """[round(kind(w) * factor, ndigits) for w in words] (no `round` when `ndigits` is None,
    no product when `factor` is 1), each distinct word converted once when they repeat.
    `known`: the words met before (in other columns of one conversion) and their values,
    updated up to KNOWN words, so a value printed again is one number object, not another."""
    if known is not None and len(known) < KNOWN:
        missing = list(set(words).difference(known))
        known.update(zip(missing, _convert(missing, kind, factor, ndigits)))
        return list(map(known.__getitem__, words))
    sample = words[:256]
    if len(set(sample)) * 4 > len(sample):  # mostly distinct: one conversion each
        return _convert(words, kind, factor, ndigits)
    distinct = list(set(words))
    value_of = dict(zip(distinct, _convert(distinct, kind, factor, ndigits)))
    return list(map(value_of.__getitem__, words))


KNOWN = 200_000  # words remembered across columns: bounds the memory whatever the file


def banner_and_lines(
    text: str, banner: re.Pattern[str], end: str
) -> tuple[re.Match[str], list[str]] | None:
    """A sysstat file's banner (its first line, matched by `banner`) and its lines (none
    after the last line end), for a parse a whole column at a time; None when the text has
    a carriage return or a comma, does not end with `end`, or is not the banner, a blank
    line and two lines more at least."""
    if "\r" in text or "," in text or not text.endswith(end):
        return None
    lines = text.split("\n")
    lines.pop()  # after the last line end
    if len(lines) < 4 or lines[1] or (found := banner.match(lines[0])) is None:
        return None
    return found, lines


def split_rows(rows: list[str], width: int) -> list[list[str]] | None:
    """The columns of `rows` (lines of whitespace-separated words), each row exactly `width`
    words; None when a row has another number of words. One split of all the rows, a mark
    word between rows: every row has `width` words when the marks fall every `width` + 1."""
    words = f" {_MARK} ".join(rows).split()
    if not rows or len(words) != len(rows) * (width + 1) - 1:
        return None
    if (
        words[width :: width + 1].count(_MARK) != len(rows) - 1
        or words.count(_MARK) != len(rows) - 1
    ):
        return None
    return [words[i :: width + 1] for i in range(width)]


_MARK = "\x00"  # between rows: no monitor prints it
CHUNK = 2_000  # rows split at once: their words stay few (and in the CPU's cache)


def read_columns(
    rows: list[str], width: int, convert: Callable[[int, list[str]], Column | None]
) -> list[Column] | None:
    """The columns of `rows` (each exactly `width` words, else None), each converted by
    `convert(j, words)` (column j's words; None when they do not read), CHUNK rows at a
    time: the words of a whole file (some 50 bytes each) are never held at once."""
    out: list[Column] = [[] for _ in range(width)]
    for start in range(0, len(rows), CHUNK):
        columns = split_rows(rows[start : start + CHUNK], width)
        if columns is None:
            return None
        for j, words in enumerate(columns):
            values = convert(j, words)
            if values is None:
                return None
            out[j] += values
    return out
