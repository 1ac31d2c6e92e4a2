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

import re
from collections import deque
from datetime import UTC, datetime

from ingest.parse import register
from ingest.parse._text import Lines
from ingest.parse.base import Parsed, Parser, Session

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")  # colour codes when dstat wrote to a terminal
GROUP = re.compile(r"-+[A-Za-z][\w/.:-]*?-*")  # `----total-cpu-usage----`, `-dsk/total-`
CPU = {"usr": "us", "sys": "sy", "idl": "id", "wai": "wa", "stl": "st"}
SYSTEM = {"int": "in", "csw": "cs"}
BYTES = ("dsk", "net", "paging", "mem", "swap")  # groups printed in bytes: k = 1024
PREFIX = {"dsk": "dsk", "net": "net", "paging": "pg"}
KNOWN = {"usr", "read", "recv", "int", "csw", "in", "used", "time", "epoch"}
CLOCK = re.compile(r"(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)")
POWERS = {"k": 1, "K": 1, "M": 2, "G": 3, "T": 4}
TIME = {"time": "clock", "date/time": "clock", "epoch": "time"}  # -> series name
KNOWN_TOKENS = 20_000  # tokens remembered per column: bounds the memory whatever the file
_consume = deque(maxlen=0).extend  # runs an iterator to its end, in C
NOTICE = "You did not select any stats"  # dstat's first line when run without options


@register
class DstatParser(Parser):
    name = "dstat"
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
    """The columns of the current header and the rows read so far, column by column."""

    def __init__(self, lines: Lines):
        self.lines = lines
        self.layout: list[list[tuple[str, int]]] | None = None  # per group: (name, scale of k)
        self.names: list[str] = []  # every column, in order, across headers
        self.series: dict[str, list] = {}
        self.units: dict[str, str] = {}
        self.at: list[int] = []
        self.time: str | None = None  # "clock" or "time" when a header has a time column
        self.first_dropped = False
        self.flat: list[tuple[str, int]] = []  # every column of the current header, in order
        self.columns: list[list] = []  # their series, in the same order
        self.known: dict[str, dict[str, object]] = {}  # per column: token -> value
        self.caches: list[dict[str, object]] = []  # those of the current header's columns
        self.time_at: int | None = None  # the time column's place in a row

    def header(self, no: int, groups: list[str], line: str) -> None:
        cells = line.rstrip().split("|")
        if len(cells) != len(groups):
            raise self.lines.error(
                no, f"dstat header: {len(groups)} groups but {len(cells)} `|`-separated columns"
            )
        layout = []
        seen: set[str] = set()
        for group, cell in zip(groups, cells):
            cols = [c for c in cell.split() if c]
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
        self.columns = [self.series[key] for key, _ in self.flat]
        self.caches = [self.known.setdefault(key, {}) for key, _ in self.flat]
        self.time_at = next((i for i, (_, scale) in enumerate(self.flat) if scale == 0), None)

    def row(self, no: int, line: str) -> None:
        layout = self.layout or []
        cells = line.split("|")
        if len(cells) != len(layout):
            self.lines.skip(no)
            return
        tokens: list[str] = []
        for cell, keys in zip(cells, layout):
            found = [cell.strip()] if keys[0][1] == 0 else cell.split()
            if len(found) != len(keys):
                self.lines.skip(no)
                return
            tokens += found
        values = list(map(dict.get, self.caches, tokens))  # the same few tokens recur
        if self.time_at is not None:
            values[self.time_at] = _time(tokens[self.time_at])
        if None in values and not self._convert(tokens, values):
            self.lines.skip(no)
            return
        if not self.first_dropped:
            self.first_dropped = True
            return
        n = len(self.at)
        _consume(map(list.append, self.columns, values))
        self.at.append(no)
        if len(values) < len(self.series):
            for col in self.series.values():  # a column this header lacks: missing, never 0
                if len(col) == n:
                    col.append(None)

    def _convert(self, tokens: list[str], values: list) -> bool:
        """Fill in `values` the tokens not met before (remembered, up to KNOWN_TOKENS per
        column); False when one does not read."""
        for i, (token, (_, scale)) in enumerate(zip(tokens, self.flat)):
            if values[i] is None:
                value = values[i] = _value(token, scale)
                if value is None:
                    return False
                if len(self.caches[i]) < KNOWN_TOKENS:
                    self.caches[i][token] = value
        return True

    def parsed(self, file: str) -> Parsed:
        if self.layout is None:
            raise self.lines.error(0, "no dstat header (`---groups---` over `col col|col`)")
        if not self.at:
            raise self.lines.error(0, "no dstat rows after the since-boot row")
        meta: dict = {"tool": "dstat", "t_unit": "sample", "since_boot_row": "dropped"}
        meta["units"] = self.units
        series: dict[str, list] = {"t": list(range(1, len(self.at) + 1))}
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


def _value(token: str, scale: float):
    """A dstat value as a plain number (`27k` -> 27 x scale), a time column's value as text;
    None when the token does not read."""
    if scale == 0:
        return _time(token)
    power = POWERS.get(token[-1], 0) if token else 0
    digits = token[:-1] if power or token[-1:] == "B" else token
    if not (digits.isascii() and digits.replace(".", "", 1).isdigit()):
        return None
    if "." not in digits:
        return int(digits) * int(scale) ** power
    value = float(digits) * scale**power
    return int(value) if value == int(value) else round(value, 3)


def _time(token: str) -> str | None:
    """`dd-mm HH:MM:SS` as `MM-DDTHH:MM:SS`; epoch seconds as an ISO UTC time; else None."""
    if m := CLOCK.fullmatch(token):
        day, month, hh, mm, ss = m.groups()
        if 1 <= int(month) <= 12 and 1 <= int(day) <= 31 and hh < "24" and mm < "60" and ss < "61":
            return f"{month}-{day}T{hh}:{mm}:{ss}"
        return None
    if token.isascii() and token.isdigit() and len(token) <= 11:
        stamp = datetime.fromtimestamp(int(token), UTC).replace(tzinfo=None)
        return stamp.isoformat()
    return None
