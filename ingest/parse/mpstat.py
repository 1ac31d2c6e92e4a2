"""mpstat -P ALL (sysstat) reports: CPU utilisation per CPU and for the whole machine.

The sysstat banner (`Linux <kernel> (<host>) <date> _<arch>_ (<N> CPU)`), then a block per
interval: a header (a time of day, `CPU`, then `%usr %nice %sys %iowait %irq %soft %steal
%guest %gnice %idle`, as the sysstat version prints them: columns are read by name), and one
line per CPU, `all` first. The time is printed in the locale's form (`17:33:44` or
`05:33:44 PM`); values may have decimal commas. The `Average:` block at the end is the tool's
own summary: each session's `summary`. With an interval, mpstat's first block covers the first
interval (not the time since boot, unlike vmstat's first row): every block is kept.

One session per CPU (`meta.item`: `all`, `0`, `1`, ...), in the order first met; `t` counts
samples (`meta.t_unit` "sample": a block is a sample, so a CPU's unreadable line leaves a gap
in its `t`), `clock` is the time of day as printed (24-hour `HH:MM:SS`),
`meta.date` the banner's date as printed. A line that does not read (cut short, a word where a
number belongs) is skipped and counted: one warning per file.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import Any

from ingest.parse import register
from ingest.parse._columns import PLAIN, numbers, read_columns
from ingest.parse._text import Lines
from ingest.parse.base import Column, Parsed, Parser, Session
from ingest.parse.sar import BANNER, after_clock, clock_of, regular_blocks

KNOWN_TOKENS = 200_000  # values remembered: bounds the memory whatever the file
_consume: Callable[[Iterable[Any]], None] = deque(
    maxlen=0
).extend  # runs an iterator to its end, in C
AVERAGE = ("Average:", "Moyenne:", "Durchschn.:", "Media:", "Médio:")


def _header(fields: list[str]) -> list[str] | None:
    """mpstat's column names after `CPU` when `fields` (after the time) are its header: `%irq`
    follows `%iowait` (sar -u ALL prints `%steal` there)."""
    if len(fields) < 3 or fields[0] != "CPU":
        return None
    names = fields[1:]
    if "%iowait" in names and names[names.index("%iowait") + 1 : names.index("%iowait") + 2] == [
        "%irq"
    ]:
        return names
    return None


def _number(token: str) -> float | None:
    text = token.replace(",", ".", 1) if "," in token else token
    if text.isascii() and text.replace(".", "", 1).isdigit():
        return float(text)
    return None


@register
class MpstatParser(Parser):
    name = "mpstat"
    linked_as = "mpstat"
    what = "mpstat lines"
    description = "mpstat -P ALL (sysstat): a time, CPU, %usr %nice %sys %iowait %irq ...; one session per CPU and `all`"

    def detect(self, head: str) -> str | None:
        if any(_header(rest) for rest in after_clock(head)):
            return "sysstat banner and an mpstat header: CPU %usr ... %iowait %irq"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        fast = _fast(text, file)
        if fast is not None:
            return fast
        lines = Lines(text, file)
        meta: dict[str, Any] = {"tool": "mpstat", "t_unit": "sample"}
        names: list[str] | None = None
        cpus: dict[str, _Cpu] = {}  # by item: `all`, `0`, `1`, ...
        known: dict[str, float] = {}  # token -> value
        last: tuple[str, str] | None = None  # the last time printed, and its 24-hour form
        block, block_clock, new_block = 0, None, True  # the sample (interval) being read
        for no, line in lines:
            fields = line.split()
            if not fields:
                continue
            if fields[0] in AVERAGE or fields[1:2] == [":"]:
                rest = fields[1:] if fields[0].endswith(":") else fields[2:]
                if names is not None and not _header(rest):
                    _average(lines, no, rest, names, cpus)
                continue
            if fields[0] == "Linux" and (banner := BANNER.match(line)) is not None:
                meta.update(host=banner["host"], date=banner["date"])
                if banner["cpus"]:
                    meta["cpus"] = int(banner["cpus"])
                continue
            stamp = (
                fields[0]
                if len(fields) < 2 or fields[1] not in ("AM", "PM")
                else fields[0] + fields[1]
            )
            if last is not None and stamp == last[0]:
                clock, taken = last[1], 2 if len(stamp) > len(fields[0]) else 1
            elif (took := clock_of(fields)) is not None:
                clock, taken = took
                last = (stamp, clock)
            else:
                lines.skip(no)
                continue
            rest = fields[taken:]
            header = _header(rest)
            if header is not None:
                names, new_block = header, True
            elif names is None:
                raise lines.error(no, "mpstat values before a header (a time, CPU, %usr ...)")
            else:
                if new_block or clock != block_clock:
                    block, block_clock, new_block = block + 1, clock, False
                _sample(lines, no, block, clock, rest, names, cpus, known)
        if not any(c.lines for c in cpus.values()):
            raise lines.error(0, "no mpstat samples (a header, then a line per CPU)")
        return Parsed(self.name, file, sessions=_sessions(cpus, meta), problems=lines.problems)


class _Cpu:
    """One CPU's samples, column by column, under the header it was first met with."""

    def __init__(self, names: list[str]):
        self.names = names
        self.series: dict[str, Column] = {"t": [], **{n: [] for n in names}, "clock": []}
        self.columns = [self.series[n] for n in names]
        self.lines: list[int] = []
        self.summary: dict[str, float] = {}


def _sample(
    lines: Lines,
    no: int,
    block: int,
    clock: str,
    rest: list[str],
    names: list[str],
    cpus: dict[str, Any],
    known: dict[str, Any],
) -> None:
    """One CPU's line of values into its session as sample `block` (a line that does not
    read, or a second line of one CPU in a block: skipped, so a lost line leaves a gap in `t`).
    `known`: the values of the tokens met before (mpstat prints few distinct ones)."""
    tokens = rest[1:]
    values = list(map(known.get, tokens))
    if None in values:
        values = [_number(x) for x in tokens]
        if None in values:
            lines.skip(no)
            return
        if len(known) < KNOWN_TOKENS:
            known.update(zip(tokens, values))
    cpu = cpus.get(rest[0])
    if cpu is None:
        cpu = cpus[rest[0]] = _Cpu(names)
    t = cpu.series["t"]
    if len(values) != len(names) or cpu.names != names or (t and t[-1] >= block):
        lines.skip(no)  # cut short, another header's columns, or the CPU twice in a block
        return
    t.append(block)
    _consume(map(list.append, cpu.columns, values))
    cpu.series["clock"].append(clock)
    cpu.lines.append(no)


def _average(
    lines: Lines, no: int, rest: list[str], names: list[str], cpus: dict[str, Any]
) -> None:
    """An `Average:` line: the tool's own mean for its CPU, as that session's summary."""
    values = [_number(x) for x in rest[1:]]
    if not rest or len(values) != len(names) or None in values or rest[0] not in cpus:
        lines.skip(no)
        return
    cpus[rest[0]].summary = dict(zip(names, values))


def _sessions(cpus: dict[str, Any], meta: dict[str, Any]) -> list[Session]:
    out = []
    for item, cpu in cpus.items():
        if not cpu.lines:
            continue
        out.append(
            Session(
                series=cpu.series,
                summary=cpu.summary,
                meta={**meta, "item": item, "item_column": "CPU"},
                line=cpu.lines[0],
                sample_lines=cpu.lines,
            )
        )
    return out


def _fast(text: str, file: str) -> Parsed | None:
    """The parse of a regular file (`regular_blocks`), a whole column at a time, then the
    `Average:` block. None for anything else (another layout, a 12-hour clock, a value that
    does not read): the line-by-line parse reads it and names each line it skips."""
    read = regular_blocks(text)
    if read is None:
        return None
    banner, body, step, clocks, w, average = read
    n = len(clocks)
    heads = list(map(itemgetter(slice(w, None)), body[::step]))
    names = _header(heads[0].split())
    if names is None or heads.count(heads[0]) != n:
        return None
    if len(set(names)) != len(names) or {"t", "clock"} & set(names):
        return None
    rest = itemgetter(slice(w, None))  # a line less its clock
    meta: dict[str, Any] = {"tool": "mpstat", "t_unit": "sample"}
    meta.update(host=banner["host"], date=banner["date"])
    if banner["cpus"]:
        meta["cpus"] = int(banner["cpus"])
    cpus: dict[str, _Cpu] = {}
    known: dict[str, float] = {}  # mpstat prints few distinct values: one float each
    for j in range(1, step - 1):
        rows = list(map(rest, body[j::step]))
        item = rows[0].split(None, 1)[0] if rows[0].strip() else ""
        if item in cpus:
            return None
        columns = read_columns(rows, len(names) + 1, _reader(item, known))
        if columns is None:
            return None
        cpu = cpus[item] = _Cpu(names)
        cpu.series.update(zip(names, columns[1:]))
        cpu.series["t"] = list(range(1, n + 1))
        cpu.series["clock"] = list(clocks)
        cpu.lines = list(range(3 + j, 3 + j + n * step, step))
    if not _fast_average(average, names, cpus):
        return None
    return Parsed("mpstat", file, sessions=_sessions(cpus, meta))


def _reader(item: str, known: dict[str, Any]) -> Callable[[int, list[str]], Column | None]:
    """How a CPU's column of words reads (see `read_columns`): its name on every row, then
    plain numbers (digits and a point: what the line-by-line parse reads)."""

    def convert(j: int, words: list[str]) -> Column | None:
        if j == 0:
            return [] if words.count(item) == len(words) else None
        joined = " ".join(words)
        if not joined.isascii() or joined.translate(PLAIN):
            return None
        try:
            return numbers(words, known=known)
        except ValueError:
            return None

    return convert


def _fast_average(average: list[str], names: list[str], cpus: dict[str, Any]) -> bool:
    """The `Average:` lines as each CPU's summary; False when one does not read (the
    line-by-line parse counts it as skipped)."""
    for line in average:
        fields = line.split()
        if not fields or not (fields[0] in AVERAGE or fields[1:2] == [":"]):
            return False
        rest = fields[1:] if fields[0].endswith(":") else fields[2:]
        if _header(rest):
            continue
        values = [_number(x) for x in rest[1:]]
        if not rest or len(values) != len(names) or None in values or rest[0] not in cpus:
            return False
        cpus[rest[0]].summary = dict(zip(names, values))
    return True
