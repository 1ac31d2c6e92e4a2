"""sar (sysstat) text reports: `sar -u`, `-r`, `-b`, `-q`, `-w`, `-d`, `-n DEV`, ...,
several kinds in one file, any locale.

A report is the sysstat banner (`Linux <kernel> (<host>) <date> _<arch>_ (<N> CPU)`), then
blocks: a header line, a time of day followed by the column names, then one line per sample
starting with its time. The time is printed in the locale's form: `18:12:24`, `06:12:24 PM`,
or with the locale's separator (`18,12,24` in de_DE). Values may have decimal commas. The
`Average:` lines (`Durchschn.:`, `Moyenne :`: a first field ending with a colon) sum up the
report and are not read, nor is a `LINUX RESTART` line. Any other line that does not read (a
line cut short, a word where a number belongs) is skipped and counted: one warning per file.

One session per kind of block (its column names) and item: a header's column named in
capitals (`CPU`, `DEV`, `IFACE`, `TTY`) names an item per line, one session each (`meta.item`:
`all` is `sar -u`'s whole machine, `0`, `1`, ... its CPUs with `-P ALL`). Each session's `t`
counts samples (`meta.t_unit` is "sample"), as sar prints the interval nowhere; its `clock`
column is the time of day as printed (24-hour `HH:MM:SS`), and `meta.date` the banner's date
as printed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from operator import itemgetter
from typing import Any, TypedDict

from ingest.parse import register
from ingest.parse._columns import PLAIN, banner_and_lines, numbers, read_columns
from ingest.parse._text import Lines, columnar
from ingest.parse.base import Column, Parsed, Parser, Row, Session
from ingest.parse.values import read_number
from ingest.problems import CONTROL, clean

BANNER = re.compile(
    r"^Linux \S+ \((?P<host>[^)]*)\)\s+(?P<date>\S+)\s+_\S+_(?:\s+\((?P<cpus>\d+) CPU\))?\s*$",
    re.ASCII,
)
CLOCK = re.compile(r"^(?P<h>\d\d)[:.,](?P<m>\d\d)[:.,](?P<s>\d\d)$", re.ASCII)
NUMBER = re.compile(r"^-?\d+(?:[.,]\d+)?$", re.ASCII)
ITEM = re.compile(r"^[A-Z]+$")  # a header's column of names: CPU, DEV, IFACE, TTY, INTR, ...


CLOCKS = re.compile(r"(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\n)+", re.ASCII)  # 24-hour, one a line
SAMPLE_FIELDS = ("t", "clock")  # a session's sample index and time of day: not sar's columns


def whole_machine(sessions: list[Session]) -> list[Session]:
    """The sessions of the whole machine: its `all` rows, or a report with no item column
    (`sar -r`, `-b`); not those of one CPU, device or interface."""
    return [s for s in sessions if s.meta.get("item") in (None, "all")]


def after_clock(head: str) -> Iterator[list[str]]:
    """The fields after the time of day of each line of a sysstat file's head (sar, mpstat),
    when its first line is sysstat's banner: what detection reads for a header."""
    lines = [x for x in head.splitlines()[:40] if x.strip()]
    if not lines or not BANNER.match(lines[0]):
        return
    for line in lines[1:]:
        fields = line.split()
        took = clock_of(fields)
        if took:
            yield fields[took[1] :]


def clock_of(fields: list[str]) -> tuple[str, int] | None:
    """(24-hour `HH:MM:SS`, fields it took) of a line's leading time of day, or None."""
    m = CLOCK.match(fields[0]) if fields else None
    if m is None:
        return None
    hour, taken = int(m["h"]), 1
    if len(fields) > 1 and fields[1] in ("AM", "PM"):
        hour, taken = hour % 12 + (12 if fields[1] == "PM" else 0), 2
    if hour > 23 or int(m["m"]) > 59 or int(m["s"]) > 60:
        return None
    return f"{hour:02d}:{m['m']}:{m['s']}", taken


def _value(name: str, token: str) -> float | int:
    """A sar number: whole as printed, or with a decimal point or comma (`read_number`)."""
    return read_number(token.replace(",", "."), f"sar {clean(name, 40)}")


@register
class SarParser(Parser):
    name = "sar"
    linked_as = "sar"
    what = "sar lines"
    description = "sar (sysstat): a time of day, then columns (%user ..., kbmemfree ...); one session per kind and item"

    def detect(self, head: str) -> str | None:
        for rest in after_clock(head):
            if len(rest) >= 2 and not any(NUMBER.match(x) for x in rest):
                return "sysstat banner and a sar header: a time of day, then column names"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        fast = _fast(text, file)
        if fast is not None:
            return fast
        lines = Lines(text, file)
        meta: dict[str, Any] = {"tool": "sar", "t_unit": "sample"}
        blocks: Blocks = {}
        header: list[str] | None = None
        for no, line in lines:
            fields = line.split()
            if not fields or "RESTART" in fields:
                continue
            banner = BANNER.match(line)
            if banner:
                meta.update(host=banner["host"], date=banner["date"])
                if banner["cpus"]:
                    meta["cpus"] = read_number(banner["cpus"], "sar CPU count", whole=True)
                continue
            took = clock_of(fields)
            if took is None:  # `Average:` (`Durchschn.:`, `Moyenne :`): the report's summary
                header = None
                if not (fields[0].endswith(":") or fields[1:2] == [":"]):
                    lines.skip(no)  # anything else: counted, one warning for the file
                continue
            clock, rest = took[0], fields[took[1] :]
            if not any(NUMBER.match(x) for x in rest):
                header = _header(lines, no, rest)
                continue
            if header is None:
                raise lines.error(no, "sar values before a header (a time of day, then names)")
            _sample(lines, no, clock, rest, header, blocks)
        if not blocks:
            raise lines.error(0, "no sar samples (a header, then lines of values)")
        return Parsed(self.name, file, sessions=_sessions(blocks, meta), problems=lines.problems)


class _Block(TypedDict):
    """The samples of one kind of block and item: their rows, lines and the item's column."""

    rows: list[Row]
    lines: list[int]
    item_column: str | None


Blocks = dict[tuple[tuple[str, ...], str | None], _Block]  # (columns, item) -> its samples


def _header(lines: Lines, no: int, names: list[str]) -> list[str]:
    """A header's column names: each once and printable, else a `file:line` error (a name
    twice would put the second column's values under the first's name)."""
    seen: set[str] = set()
    for name in names:
        if CONTROL.search(name):
            raise lines.error(no, f"sar header: a control character in column {clean(name, 40)!r}")
        if name in seen:
            raise lines.error(no, f"sar header names column {clean(name, 40)!r} twice")
        seen.add(name)
    return names


def _sample(
    lines: Lines, no: int, clock: str, rest: list[str], header: list[str], blocks: Blocks
) -> None:
    """One line of values under `header` into its block (by kind and item). The item column
    is the header's name in capitals (`CPU`, `DEV`, `IFACE`, `TTY`, `INTR`, ...)."""
    if len(rest) != len(header):  # a line cut short, or another report's: one warning
        lines.skip(no)
        return
    item_at = next((i for i, name in enumerate(header) if ITEM.match(name)), None)
    numbers = [(name, x) for i, (name, x) in enumerate(zip(header, rest)) if i != item_at]
    wrong = next((name for name, x in numbers if not NUMBER.match(x)), None)
    if wrong is not None:
        lines.skip(no)
        return
    row: Row = {"clock": clock, **{name: _value(name, x) for name, x in numbers}}
    item = None if item_at is None else rest[item_at]
    key = (tuple(name for name, _ in numbers), item)
    block = blocks.setdefault(key, {"rows": [], "lines": [], "item_column": None})
    if item_at is not None:
        block["item_column"] = header[item_at]
    block["rows"].append(row)
    block["lines"].append(no)


def _sessions(blocks: Blocks, meta: dict[str, Any]) -> list[Session]:
    """One session per kind of block and item, in the order first met."""
    out = []
    for (columns, item), block in blocks.items():
        rows = block["rows"]
        for i, row in enumerate(rows, start=1):
            row["t"] = i
        m = dict(meta)
        if item is not None:
            m.update(item=item, item_column=block["item_column"])
        out.append(
            Session(
                series=columnar(rows, ["t", *columns, "clock"]),
                meta=m,
                line=block["lines"][0],
                sample_lines=block["lines"],
            )
        )
    return out


def regular_blocks(
    text: str,
) -> tuple[re.Match[str], list[str], int, list[str], int, list[str]] | None:
    """A sysstat file of one regular shape, for a parse a whole column at a time: (the
    banner, the lines after it, lines a block with its blank line, each block's time,
    the width of the time, the summary lines at the end) when the banner is followed by
    blocks of as many lines each (a header, then the samples), a 24-hour time on every
    line and the same time throughout a block, each block ended by one blank line; the
    summary lines (`Average:`) follow. None for anything else."""
    if (opened := banner_and_lines(text, BANNER, "\n")) is None:
        return None
    banner, lines = opened
    end = len(lines)
    while end > 2 and _summary(lines[end - 1]):
        end -= 1
    summary, body = lines[end:], lines[2:end]
    del lines
    if body and not body[-1]:
        body.pop()  # the blank line before the summary
    step = body.index("") + 1 if "" in body else len(body) + 1  # lines a block, and a blank
    n = (len(body) + 1) // step  # blocks
    if step < 3 or len(body) != n * step - 1 or body[step - 1 :: step].count("") != n - 1:
        return None
    w = len(body[0].split(None, 1)[0]) if body[0].strip() else 0  # the time's width
    clock = itemgetter(slice(None, w))
    clocks = list(map(clock, body[::step]))
    for j in range(step - 1):
        part = body[j::step]
        try:
            if set(map(itemgetter(w), part)) - {" ", "\t"}:
                return None
        except IndexError:
            return None
        if list(map(clock, part)) != clocks:
            return None
    if not CLOCKS.fullmatch("\n".join(clocks) + "\n"):
        return None
    return banner, body, step, clocks, w, summary


def _summary(line: str) -> bool:
    """An `Average:` line (`Durchschn.:`, `Moyenne :`): a first word ending with a colon."""
    fields = line.split(None, 2)
    return bool(fields) and (fields[0].endswith(":") or fields[1:2] == [":"])


def _fast(text: str, file: str) -> Parsed | None:
    """The parse of a regular file (`regular_blocks`) of one kind of block, a whole column
    at a time: a line per item (`CPU`) in each block, or one line when no column names an
    item; plain numbers only (digits, a point). None for anything else: the line-by-line
    parse reads it and names each line it skips."""
    read = regular_blocks(text)
    if read is None:
        return None
    banner, body, step, clocks, w, _ = read
    n, rest = len(clocks), itemgetter(slice(w, None))
    heads = list(map(rest, body[::step]))
    names = heads[0].split()
    if heads.count(heads[0]) != n or any(NUMBER.match(x) for x in names):
        return None
    if len(set(names)) != len(names) or {"t", "clock"} & set(names) or CONTROL.search(heads[0]):
        return None
    item_at = next((i for i, name in enumerate(names) if ITEM.match(name)), None)
    if len(names) < 2 or len(banner["cpus"] or "") > 18 or (item_at is None and step != 3):
        return None  # more than one line a block and no item: the slow path interleaves
    meta: dict[str, Any] = {"tool": "sar", "t_unit": "sample"}
    meta.update(host=banner["host"], date=banner["date"])
    if banner["cpus"]:
        meta["cpus"] = int(banner["cpus"])
    sessions: list[Session] = []
    for j in range(1, step - 1):
        rows = list(map(rest, body[j::step]))
        words = rows[0].split()
        item = words[item_at] if item_at is not None and len(words) == len(names) else None
        if item is not None and any(item == s.meta["item"] for s in sessions):
            return None
        columns = read_columns(rows, len(names), _reader(item, item_at))
        if columns is None:
            return None
        series: dict[str, Column] = {"t": list(range(1, n + 1))}
        series.update(
            (name, col) for i, (name, col) in enumerate(zip(names, columns)) if i != item_at
        )
        series["clock"] = list(clocks)
        m = dict(meta)
        if item_at is not None:
            m.update(item=item, item_column=names[item_at])
        at = list(range(3 + j, 3 + j + n * step, step))
        sessions.append(Session(series=series, meta=m, line=at[0], sample_lines=at))
    return Parsed("sar", file, sessions=sessions)


def _reader(item: str | None, item_at: int | None) -> Callable[[int, list[str]], Column | None]:
    """How a column of words reads (see `read_columns`): the item's name on every row in
    column `item_at`, plain numbers in the others."""

    def convert(i: int, words: list[str]) -> Column | None:
        if i == item_at:
            return [] if item is not None and words.count(item) == len(words) else None
        return _fast_numbers(words)

    return convert


def _fast_numbers(words: list[str]) -> Column | None:
    """The values of a column of plain numbers as `_value` reads them (whole numbers of at
    most 18 digits as ints, `digits.digits` of at most 40 characters as floats); None when
    a word is another kind (the slow path skips its line, or names the error)."""
    joined = " ".join(words)
    if not joined.isascii() or joined.translate(PLAIN) or max(map(len, words)) > 18:
        return None
    points = joined.count(".")
    if points == 0:
        return numbers(words, kind=int)
    if points != len(words) or ".." in joined or ". " in f"{joined} " or " ." in f" {joined}":
        return None
    try:
        return numbers(words)
    except ValueError:
        return None
