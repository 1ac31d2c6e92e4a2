"""dstat text output (`dstat`, default `-cdngy`, with or without `-t`/`-T`, any interval).

The header is two lines: groups (`----total-cpu-usage---- -dsk/total- -net/total- ...`) and
their columns, `|` between groups (`usr sys idl wai stl| read  writ| recv  send|...`). It may
repeat mid-file. Each row has the same `|`-separated cells. The first row is the average since
boot (as vmstat's) and is dropped; `t` counts samples (`meta.t_unit` is "sample") and
`ingest.linked` puts the series on a run's clock.

Values are printed with unit suffixes: `2217B`, `27k`, `39M`, `1.2G`, `0`. They become plain
numbers: bytes for the disk, network and paging groups (k = 1024), counts for the others
(k = 1000). Columns are named as vmstat and iostat name what they mean: CPU `us sy id wa st`
(and `hiq siq` where printed), interrupts and context switches `in cs`; disk `dsk.read
dsk.writ`, network `net.recv net.send`, paging `pg.in pg.out` (bytes per second; a device's
group adds its name: `dsk.sda.read`); any other group `<group>.<column>`. `meta.units` names
each column's unit.

Time: `-t` prints a `time` column, `dd-mm HH:MM:SS` (dstat's default format; the year is not
printed, so none is guessed): kept as `clock` `MM-DDTHH:MM:SS`. `-T` prints `epoch` seconds: kept
as `time` (ISO, UTC, `meta.zone`). A row that does not read (a word where a number belongs, a
missing group) is skipped and counted: one warning per file.
"""

from __future__ import annotations

import operator
import re
from datetime import UTC, datetime
from operator import itemgetter
from typing import Any

from ingest.parse import register
from ingest.parse._text import Lines
from ingest.parse.base import Column, Parsed, Parser, Session
from ingest.problems import Problem

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")  # colour codes when dstat wrote to a terminal
# `----total-cpu-usage----`, `-dsk/total-`: one class after the letter, so no backtracking
GROUP = re.compile(r"-+[A-Za-z][\w/.:-]*")
CPU = {"usr": "us", "sys": "sy", "idl": "id", "wai": "wa", "stl": "st"}
SYSTEM = {"int": "in", "csw": "cs"}
BYTES = ("dsk", "net", "paging", "mem", "swap")  # groups printed in bytes: k = 1024
PREFIX = {"dsk": "dsk", "net": "net", "paging": "pg"}
KNOWN = {"usr", "read", "recv", "int", "csw", "in", "used", "time", "epoch"}
# dd-mm HH:MM:SS (fixed width: no backtracking), day and month and time in range
CLOCK = re.compile(r"(?:0[1-9]|[12]\d|3[01])-(?:0[1-9]|1[0-2]) (?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d")
POWERS = {"k": 1, "K": 1, "M": 2, "G": 3, "T": 4}
TIME = {"time": "clock", "date/time": "clock", "epoch": "time"}  # -> series name
KNOWN_TOKENS = 20_000  # tokens remembered per column: bounds the memory whatever the file
NOTICE = "You did not select any stats"
MARK = "\x00"  # a word between rows split at once: dstat prints none
CHUNK = 1000  # rows split at once: a few thousand words, kept in the CPU's cache


@register
class DstatParser(Parser):
    name = "dstat"
    linked_as = "dstat"
    what = "dstat rows"
    description = "dstat: `----total-cpu-usage---- -dsk/total- ...` groups, `usr sys idl|read writ|...` rows (first row dropped: since boot)"

    def detect(self, head: str) -> str | None:
        lines = head.splitlines()[:50]
        for groups, columns in zip(lines, lines[1:]):
            if (
                _groups(groups)
                and "|" in columns
                and KNOWN & set(columns.replace("|", " ").split())
            ):
                return "dstat's two-line header: `---groups---` over `col col|col col`"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        reader = _Reader(lines)
        if reader.whole(text):
            return reader.parsed(file)
        reader = _Reader(lines)
        pending: list[str] | None = None  # the groups line, waiting for its columns
        for no, raw in lines:
            line = ANSI.sub("", raw) if "\x1b" in raw else raw
            stripped = line.strip()
            if not stripped:
                continue
            if pending is not None:
                reader.header(no, pending, line)
                pending = None
            elif stripped[0] == "-" and (groups := _groups(line)) is not None:
                pending = groups
            elif reader.layout is not None:
                reader.row(no, line)
            elif not line.startswith(NOTICE):
                lines.skip(no)
        return reader.parsed(file)


def _groups(line: str) -> list[str] | None:
    """The group names of a dstat groups line (`total-cpu-usage`, `dsk/total`), or None."""
    tokens = line.split()
    if not tokens or not all(GROUP.fullmatch(t) for t in tokens):
        return None
    return [t.strip("-") for t in tokens]


class _Reader:
    """The rows read under each header, kept as text and converted a column at a time when
    the header changes or the file ends (a column's tokens through one dict in C: dstat
    prints few distinct ones)."""

    def __init__(self, lines: Lines):
        self.lines = lines
        self.layout: list[list[tuple[str, float]]] | None = None  # per group: (name, scale of k)
        self.names: list[str] = []  # every column, in order, across headers
        self.series: dict[str, Column] = {}
        self.units: dict[str, str] = {}
        self.at: list[int] = []  # the line of every sample kept
        self.time: str | None = None  # "clock" or "time" when a header has a time column
        self.first_dropped = False
        self.flat: list[tuple[str, float]] = []  # every column of the current header, in order
        self.known: dict[
            str, dict[str, float | int | str | None]
        ] = {}  # per column: token -> value
        self.aligned: tuple[Any, ...] | None = (
            None  # how a row aligned with the header is read (header)
        )
        self.split_at: tuple[Any, ...] = (0, [], [])  # words a row, its `|` words, its value words
        self.tokens: list[str] = []  # the values of the rows under the current header, as text
        self.rows: list[int] = []  # their lines

    def header(self, no: int, groups: list[str], line: str) -> None:
        self.flush()
        cells = line.rstrip().split("|")
        if len(cells) != len(groups):
            raise self.lines.error(
                no, f"dstat header: {len(groups)} groups but {len(cells)} `|`-separated columns"
            )
        layout = []
        seen: set[str] = set()
        for group, cell in zip(groups, cells):
            cols = cell.split()
            if not cols:
                raise self.lines.error(no, f"dstat header: group {group!r} has no columns")
            if cols[0] in TIME:  # a time's value holds a space: the group's cell is one value
                cols = cols[:1]
            keys = []
            for col in cols:
                key, unit, scale = _column(group, col)
                if key in seen:
                    raise self.lines.error(no, f"dstat header: column {key!r} twice")
                seen.add(key)
                if key not in self.series:
                    self.names.append(key)
                    self.series[key] = [None] * len(self.at)
                    if unit:
                        self.units[key] = unit
                if scale == 0:
                    self.time = key
                keys.append((key, scale))
            layout.append(keys)
        self.layout = layout
        self.flat = [k for keys in layout for k in keys]
        # a row read with one split, its `|` as words: right when each `|` falls after as
        # many words as the header's groups have (a clock `dd-mm HH:MM:SS`, two words, only
        # as the first group, read from the row's text); any other row is read group by group
        self.aligned = None
        clock = [i for i, keys in enumerate(layout) if keys[0][1] == 0]
        if not clock or (clock == [0] and self.flat[0][0] == "clock"):
            sizes = [len(keys) + (i in clock) for i, keys in enumerate(layout)]
            ends = [sum(sizes[: i + 1]) + i for i in range(len(sizes))]  # each `|`'s word
            values = [i for i in range(ends[-1]) if i not in ends[:-1]][2 * bool(clock) :]
            bars = ends[:-1]
            self.split_at = (ends[-1], bars, values)
            self.aligned = (
                None
                if clock and not bars
                else (
                    ends[-1],
                    len(bars),
                    operator.itemgetter(*bars) if bars else None,
                    ("|",) * len(bars) if len(bars) > 1 else "|",
                    operator.itemgetter(*values) if len(values) > 1 else None,
                    bool(clock),
                )
            )

    def whole(self, text: str) -> bool:
        """Every row read at once, when the file is one header (repeated as it is) over rows
        that each split as the header says (see `_aligned`): one split of CHUNK rows at a
        time, a mark word between rows. False for any other file (a blank line, colours, a
        cut, another header, a row of another shape): the caller reads it afresh, row by row."""
        lines = self.lines.lines
        if "\x1b" in text or not text.endswith("\n") or len(lines) < 4:
            return False
        groups = _groups(lines[0])
        if groups is None or not lines[1].strip():
            return False
        try:
            self.header(2, groups, lines[1])
        except Problem:
            return False
        if self.aligned is None:
            return False
        heads = {lines[0], lines[1]}
        at = [no for no, line in enumerate(lines, 1) if line not in heads]
        rows = [line for line in lines if line not in heads]
        if len(rows) < 2:
            return False
        for start in range(0, len(rows), CHUNK):  # a chunk at a time: bounded memory
            columns = self._columns(rows[start : start + CHUNK], lines[1])
            if columns is None:
                return False
            if start == 0:  # the first row: the average since boot
                columns = [col[1:] for col in columns]
            self._convert(columns, at[start + (start == 0) : start + CHUNK])
        self.first_dropped = True
        return True

    def _columns(self, rows: list[str], header: str) -> list[list[str]] | None:
        """The values of `rows` column by column, each row split as the header says; None
        when one does not."""
        width, bars, values = self.split_at
        joined = f" {MARK} ".join(rows)
        n, step = len(rows), width + 1
        if joined.count(MARK) != n - 1 or joined.count("|") != n * len(bars):
            return None  # each row's words, then its `|`, must sit where the header's do:
        words = joined.replace("|", " | ").split()
        if len(words) != n * step - 1 or words[width::step].count(MARK) != n - 1:
            return None
        if any(words[b::step].count("|") != n for b in bars):
            return None
        columns = [words[v::step] for v in values]
        if self.aligned and self.aligned[-1]:  # the clock as printed: the text before `|`
            w = header.index("|")
            try:
                if set(map(itemgetter(w), rows)) != {"|"}:
                    return None
            except IndexError:
                return None
            cells = list(map(itemgetter(slice(None, w)), rows))
            columns.insert(0, list(map(str.strip, cells)))
        return columns

    def row(self, no: int, line: str) -> None:
        tokens = self._aligned(line) or self._by_group(line)
        if tokens is None:
            self.lines.skip(no)
        elif not self.first_dropped:
            self.first_dropped = True  # the average since boot
        else:
            self.tokens += tokens
            self.rows.append(no)

    def _aligned(self, line: str) -> list[str] | None:
        """The row's values in column order when each group has its header's number of words,
        read with one split; else None."""
        if self.aligned is None:
            return None
        words, count, bars, marks, values, clock = self.aligned
        tokens = line.replace("|", " | ").split()
        if len(tokens) != words or tokens.count("|") != count or values is None:
            return None
        if bars is not None and bars(tokens) != marks:
            return None
        if clock:  # the clock's two words as printed, the first `|` ending it
            return [line[: line.index("|")].strip(), *values(tokens)]
        return list(values(tokens))

    def _by_group(self, line: str) -> list[str] | None:
        """The row's values in column order, read group by group; None when a group has
        another number of values than its header's."""
        layout = self.layout or []
        cells = line.split("|")
        if len(cells) != len(layout):
            return None
        tokens: list[str] = []
        for cell, keys in zip(cells, layout):
            found = [cell.strip()] if keys[0][1] == 0 else cell.split()
            if len(found) != len(keys):
                return None
            tokens += found
        return tokens

    def flush(self) -> None:
        """The rows read under the current header, converted column by column into the
        series; a row with a value that does not read is skipped (counted) as a whole."""
        if not self.rows:
            return
        width = len(self.flat)
        self._convert([self.tokens[j::width] for j in range(width)], self.rows)
        self.tokens, self.rows = [], []

    def _convert(self, words: list[list[str]], rows: list[int]) -> None:
        """Rows given as their words column by column (`rows`: their lines) into the series."""
        n = len(rows)
        columns = []
        bad: set[int] = set()
        for (key, scale), tokens in zip(self.flat, words):
            values: list[float | int | str | None]
            if scale == 0:
                values = list(map(_time, tokens))
            else:
                cache = self.known.setdefault(key, {})
                new = {t: _value(t, scale) for t in set(tokens).difference(cache)}
                if len(cache) < KNOWN_TOKENS:
                    cache.update(new)
                values = list(
                    map((cache if len(cache) < KNOWN_TOKENS else cache | new).get, tokens)
                )
            if None in values:  # a value that does not read: its row is skipped
                bad.update(i for i, v in enumerate(values) if v is None)
            columns.append(values)
        rows = list(rows)
        if bad:
            for i in sorted(bad):
                self.lines.skip(rows[i])
            keep = [i for i in range(n) if i not in bad]
            columns = [[col[i] for i in keep] for col in columns]
            rows = [rows[i] for i in keep]
        for (key, _), values in zip(self.flat, columns):
            self.series[key] += values
        for col in self.series.values():  # a column this header lacks: missing, never 0
            if len(col) == len(self.at):
                col += [None] * len(rows)
        self.at += rows

    def parsed(self, file: str) -> Parsed:
        self.flush()
        if self.layout is None:
            raise self.lines.error(0, "no dstat header (`---groups---` over `col col|col`)")
        if not self.at:
            raise self.lines.error(0, "no dstat rows after the since-boot row")
        self.lines.skipped.sort()  # rows skipped at a flush come after the lines skipped since
        meta: dict[str, Any] = {"tool": "dstat", "t_unit": "sample", "since_boot_row": "dropped"}
        meta["units"] = self.units
        series: dict[str, Column] = {"t": list(range(1, len(self.at) + 1))}
        for key in self.names:
            if key != self.time:
                series[key] = self.series[key]
        if self.time:
            series[self.time] = self.series[self.time]
            if self.time == "time":
                meta["zone"] = "UTC"
        session = Session(series=series, meta=meta, line=self.at[0], sample_lines=self.at)
        return Parsed("dstat", file, sessions=[session], problems=self.lines.problems)


def _column(group: str, col: str) -> tuple[str, str, float]:
    """(series name, unit, scale of k) of column `col` in `group`; scale 0: a time column."""
    kind, _, item = group.partition("/")
    if col in TIME:
        return TIME[col], "", 0
    if kind == "total-cpu-usage":
        return CPU.get(col, col), "%", 1000
    if kind == "system" and col in SYSTEM:
        return SYSTEM[col], "/s", 1000
    if kind in PREFIX:
        name = PREFIX[kind] + ("" if item in ("", "total") else f".{item}") + f".{col}"
        return name, "B/s", 1024
    return f"{group}.{col}", ("B" if kind in BYTES else ""), (1024 if kind in BYTES else 1000)


def _value(token: str, scale: float) -> float | int | str | None:
    """A dstat value as a plain number (`27k` -> 27 x scale), a time column's value as text;
    None when the token does not read."""
    if scale == 0:
        return _time(token)
    power = POWERS.get(token[-1], 0) if token else 0
    digits = token[:-1] if power or token[-1:] == "B" else token
    if not (digits.isascii() and digits.replace(".", "", 1).isdigit()):
        return None
    if "." not in digits:
        whole: int = int(digits) * int(scale) ** power  # (a power is never negative)
        return whole
    value = float(digits) * scale**power
    return int(value) if value == int(value) else round(value, 3)


def _time(token: str) -> str | None:
    """`dd-mm HH:MM:SS` as `MM-DDTHH:MM:SS`; epoch seconds as an ISO UTC time; else None."""
    if CLOCK.fullmatch(token):
        return f"{token[3:5]}-{token[:2]}T{token[6:]}"
    if token.isascii() and token.isdigit() and len(token) <= 11:
        stamp = datetime.fromtimestamp(int(token), UTC).replace(tzinfo=None)
        return stamp.isoformat()
    return None
