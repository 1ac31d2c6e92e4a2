"""Server counters: SHOW GLOBAL STATUS dumps and `mysqladmin extended-status` tables.

Two layouts of the same data, one snapshot of `Variable_name / Value` pairs after another:
- `global-status`: `mysql -e 'SHOW GLOBAL STATUS'` output, a `Variable_name<TAB>Value` header
  then one `name<TAB>value` line per variable. A file may hold several dumps (each with its
  header), optionally each preceded by a time stamp line (`date`, ISO `YYYY-MM-DD HH:MM:SS`,
  or epoch seconds), as a `while ...; do date; mysql -e ...; sleep N; done` loop writes.
- `mysqladmin-status`: `mysqladmin extended-status` boxed tables (`| Variable_name | Value |`
  between `+---+---+` rules), once or every N seconds with `-i N`; with `-r` (relative) every
  table after the first holds the change of every number since the one before.

Relative mode is read from the data, not guessed from the name (`_is_relative`): in absolute
tables `Uptime` only grows, by about the interval each time; in relative ones every table after
the first holds the interval itself as its `Uptime`. So the tables are relative when a later
`Uptime` is at or below the one before it, or when the later `Uptime`s are about constant while
the steps between them are not the first step (a freshly started server's first `Uptime`, 4,
is below the interval: 4, 10, 10, 10 is relative, 4, 14, 24, 34 absolute). A file without
`Uptime` is taken as absolute. Two tables (4 then 10: relative 10 s, or absolute 6 s later?)
cannot tell: a manifest `files:` rule declares `mode: relative` or `mode: absolute`, which
wins over the detection (the session's `mode_from` says which decided).

What a parse gives (names lower-cased, as in the rest of data/):
- a table `status` per snapshot (`variable, value`, as printed: relative tables stay
  differences), its `line` the snapshot's header line. Before/after pairs around a run become
  per-operation counter tables from these (`counter_deltas`).
- with three or more snapshots (periodic): a session whose series is the per-second rate of
  every counter that changed, and the value of every gauge (`GAUGES`), per interval. `t` is
  seconds since the first snapshot, from the time stamps when every snapshot has one, else
  from `Uptime`. The first snapshot only starts the clock (like vmstat's since-boot row, it is
  never a rate). A counter that falls (FLUSH STATUS, a restart) has no rate for that interval
  and is reported as a problem with its line. A last snapshot with fewer variables than the
  first (the file was cut short) is left out of the series and reported.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from ingest.parse import register
from ingest.parse._text import Lines
from ingest.parse.base import Column, Parsed, Parser, Row, Session, Table
from ingest.problems import Problem

TAB_HEADER = re.compile(r"^Variable_name\tValue\s*$")
BOX_HEADER = re.compile(r"^\|\s*Variable_name\s*\|\s*Value\s*\|\s*$")
BOX_RULE = re.compile(r"^\+-+\+-+\+\s*$")
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
INTEGER = re.compile(r"-?\d{1,30}")  # status values are 64-bit at most: bound the digits
DECIMAL = re.compile(r"-?\d{1,30}\.\d{1,30}")
# Status variables that are levels, not running totals: charted as values, never as rates.
GAUGES = re.compile(
    r"^(uptime|uptime_since_flush_status|threads_\w+|max_used_connections|open_\w+|"
    r"innodb_buffer_pool_pages_(data|dirty|free|misc|total|old)|innodb_buffer_pool_bytes_\w+|"
    r"innodb_row_lock_current_waits|innodb_row_lock_time_(avg|max)|innodb_history_list_length|"
    r"innodb_num_open_files|innodb_page_size|innodb_buffer_pool_load_status|key_blocks_\w+|"
    r"qcache_free_\w+|qcache_queries_in_cache|qcache_total_blocks|slave_open_temp_tables|"
    r"rpl_\w+|ssl_\w+|tc_log_\w+|innodb_\w*_current\w*|\w+_running|\w+_connected|\w+_cached)$"
)
# status output names that count since start: what makes a file status and not variables
STATUS_NAMES = re.compile(
    r"^(\|\s*)?(Uptime|Com_select|Questions|Innodb_rows_read|Aborted_clients|Bytes_received)"
    r"\s*(\t|\|)",
    re.M,
)
# `date` (C locale: `Mon Mar  2 10:00:00 CET 2026`; some: `Mon 02 Mar 2026 10:00:00 AM CET`), ISO
DATE_C = re.compile(
    r"[A-Z][a-z]{2} (?P<mon>[A-Z][a-z]{2}) +(?P<day>\d{1,2}) (?P<clock>\d\d:\d\d:\d\d) "
    r"(?P<zone>[A-Za-z][\w+-]{0,9}) (?P<year>\d{4})"
)
DATE_DMY = re.compile(
    r"[A-Z][a-z]{2} (?P<day>\d{1,2}) (?P<mon>[A-Z][a-z]{2}) (?P<year>\d{4}) (?P<clock>\d\d:\d\d:\d\d)"
    r"(?: (?P<ampm>[AP]M))? (?P<zone>[A-Za-z][\w+-]{0,9})"
)
ISO = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d")
EPOCH = datetime(1970, 1, 1)


def _value(text: str) -> int | float | str:
    """An int or float when the text is a number (bounded length), else the text as it is."""
    if INTEGER.fullmatch(text):
        return int(text)
    if DECIMAL.fullmatch(text):
        return float(text)
    return text


def _stamp(text: str) -> tuple[datetime, str | None] | None:
    """(the local date and time as printed, its zone or None) of a time stamp line, or None if
    the line is not one. Epoch seconds are UTC. The zone is kept as a name, never looked up."""
    text = text.strip()
    if re.fullmatch(r"\d{9,11}(\.\d{1,6})?", text):
        return EPOCH + timedelta(seconds=float(text)), "UTC"
    if ISO.fullmatch(text):
        return datetime.fromisoformat(text), None
    for pattern in (DATE_C, DATE_DMY):
        if m := pattern.fullmatch(text):
            clock = m["clock"] + (f" {m['ampm']}" if m.groupdict().get("ampm") else "")
            fmt = "%Y %b %d %I:%M:%S %p" if m.groupdict().get("ampm") else "%Y %b %d %H:%M:%S"
            try:
                return datetime.strptime(f"{m['year']} {m['mon']} {m['day']} {clock}", fmt), m[
                    "zone"
                ]
            except ValueError:
                return None
    return None


class _Snapshot:
    def __init__(self, line: int, stamp: tuple[datetime, str | None] | None):
        self.line = line
        self.values: Row = {}  # variable -> value
        self.lines: dict[str, int] = {}  # variable -> its line
        self.when: datetime | None
        self.zone: str | None
        self.when, self.zone = stamp if stamp else (None, None)
        # seconds on the printed clock (naive: never the ingesting machine's zone)
        self.stamp: float | None = (
            None if self.when is None else (self.when - EPOCH).total_seconds()
        )


class _StatusParser(Parser):
    linked_as = "status"
    """Shared reading: subclasses say what a header, a row and a separator look like."""

    boxed = False

    def detect(self, head: str) -> str | None:
        header = BOX_HEADER if self.boxed else TAB_HEADER
        if any(header.match(l) for l in head.splitlines()[:20]) and STATUS_NAMES.search(head):
            return f"a Variable_name / Value {'table' if self.boxed else 'dump'} with status counters (Uptime, Com_*, ...)"
        return None

    def _row(self, raw: str) -> tuple[str, str] | None:
        if self.boxed:
            if not raw.startswith("|"):
                return None
            cells = [c.strip() for c in raw.strip().strip("|").split("|")]
            return (cells[0], cells[1]) if len(cells) == 2 else None
        cells = raw.split("\t")
        return (cells[0], cells[1].strip()) if len(cells) == 2 else None

    def parse(self, text: str, file: str, mode: str | None = None) -> Parsed:
        """`mode`: "relative" or "absolute" as a manifest declares it; None: read from Uptime."""
        lines = Lines(text, file)
        header = BOX_HEADER if self.boxed else TAB_HEADER
        snaps: list[_Snapshot] = []
        stamp: tuple[datetime, str | None] | None = None
        in_table = False
        for n, raw in lines:
            if not raw.strip() or (self.boxed and BOX_RULE.match(raw)):
                continue
            if header.match(raw):
                snaps.append(_Snapshot(n, stamp))
                stamp, in_table = None, True
                continue
            row = self._row(raw)
            if row and in_table and NAME.fullmatch(row[0]):
                snap = snaps[-1]
                name = row[0].lower()
                if name in snap.values:
                    raise lines.error(n, f"{row[0]} twice in one snapshot (a missing header line?)")
                snap.values[name], snap.lines[name] = _value(row[1]), n
                continue
            found = _stamp(raw)
            if found is None:
                raise lines.error(
                    n, "expected a 'Variable_name / Value' row, header or time stamp line"
                )
            stamp, in_table = found, False
        if not snaps:
            raise lines.error(1, "no 'Variable_name / Value' header: not a status dump")
        if not snaps[0].values:
            raise lines.error(snaps[0].line, "no variables under this header")
        snaps = [s for s in snaps if s.values] if len(snaps) > 1 else snaps
        parsed = Parsed(self.name, file, problems=lines.problems)
        parsed.tables = [
            Table(
                "status",
                ["variable", "value"],
                [{"variable": k, "value": v} for k, v in s.values.items()],
                line=s.line,
            )
            for s in snaps
        ]
        if len(snaps) > 1 and len(snaps[-1].values) < len(snaps[0].values):
            lines.missing_end(
                snaps[-1].line, "this snapshot's last variable (it has fewer than the first)"
            )
            snaps = snaps[:-1]
        if len(snaps) >= 3:
            relative = mode == "relative" if mode else _is_relative(snaps)
            session = _rates(snaps, relative, file, parsed.problems)
            session.meta["mode_from"] = "declared" if mode else "Uptime"
            parsed.sessions.append(session)
        return parsed


def _is_relative(snaps: list[_Snapshot]) -> bool:
    """Whether mysqladmin -r printed these tables (every table after the first: differences).
    Absolute Uptime grows at every table; relative tables' later Uptime is the interval each
    time: a step that does not grow, or later values about constant (within 1 s or a fifth)
    while the steps differ from the first (absolute -i 1 gives 4, 5, 6: steps all 1)."""
    ups = [
        u for s in snaps if isinstance(u := s.values.get("uptime"), int) and not isinstance(u, bool)
    ]
    if len(snaps) < 2 or len(ups) < len(snaps):  # a table without a whole Uptime
        return False
    steps = [b - a for a, b in zip(ups, ups[1:])]
    if any(d <= 0 for d in steps):
        return True
    later = ups[1:]
    if len(later) < 2:
        return False  # two tables: ambiguous (declare `mode:`); absolute, as before/after pairs are

    def about(a: float, b: float) -> bool:
        return abs(a - b) <= max(1, 0.2 * min(abs(a), abs(b)))

    constant = all(about(u, later[0]) for u in later)
    return constant and not all(about(d, steps[0]) for d in steps)


def _absolute(snaps: list[_Snapshot], relative: bool) -> list[Row]:
    """Every snapshot's values as levels (relative tables, where mysqladmin subtracted every
    number, gauges and Uptime included, summed back onto the first)."""
    if not relative:
        return [s.values for s in snaps]
    out = [dict(snaps[0].values)]
    for s in snaps[1:]:
        current = dict(out[-1])
        for k, v in s.values.items():
            base = current.get(k)
            numeric = isinstance(v, (int, float)) and isinstance(base, (int, float))
            current[k] = base + v if numeric else v
        out.append(current)
    return out


def counter_deltas(
    before: list[Row], after: list[Row], operations: float | None = None
) -> list[Row]:
    """Rows `variable, before, after, delta[, per_op]` from two `status` tables' rows (absolute
    snapshots around a run): numeric variables only; per_op = delta / operations."""
    first = {r["variable"]: r["value"] for r in before}
    rows = []
    for r in after:
        a, b = first.get(r["variable"]), r["value"]
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            row = {"variable": r["variable"], "before": a, "after": b, "delta": b - a}
            if operations:
                row["per_op"] = round((b - a) / operations, 6)
            rows.append(row)
    return rows


def _whole(x: float) -> int | float:
    return int(x) if x == int(x) else x


def _clock(snaps: list[_Snapshot], totals: list[Row], file: str) -> list[float]:
    """Seconds since the first snapshot: from time stamps if all have one, else from Uptime."""
    stamps = [s.stamp for s in snaps if s.stamp is not None]
    if len(stamps) == len(snaps):
        return [_whole(round(x - stamps[0], 3)) for x in stamps]
    ups = [u for t in totals if isinstance(u := t.get("uptime"), (int, float))]
    if len(ups) < len(totals):
        raise Problem(
            file, snaps[0].line, "periodic snapshots need a time stamp line before each, or Uptime"
        )
    return [u - ups[0] for u in ups]


def _rates(snaps: list[_Snapshot], relative: bool, file: str, problems: list[Problem]) -> Session:
    """The session of periodic snapshots: each counter's rate over each interval (a counter that
    falls has none there, a warning), each gauge's level, on the snapshots' clock."""
    totals = _absolute(snaps, relative)
    clock = _clock(snaps, totals, file)
    names = [k for k, v in totals[0].items() if isinstance(v, (int, float)) and k != "uptime"]
    gauges = [k for k in names if GAUGES.match(k)]
    counters = [k for k in names if k not in gauges and len({t.get(k) for t in totals}) > 1]
    series: dict[str, Column] = {"t": clock[1:]}
    for k in counters:
        series[k] = _counter_rates(k, snaps, totals, clock, file, problems)
    for k in gauges:
        series[k] = [t.get(k) if isinstance(t.get(k), (int, float)) else None for t in totals[1:]]
    for i in range(1, len(clock)):
        if clock[i] <= clock[i - 1]:
            problems.append(
                Problem(
                    file,
                    snaps[i].line,
                    f"the clock does not advance ({clock[i - 1]} -> {clock[i]} s)",
                )
            )
    meta = _rates_meta(snaps, relative, clock, file, problems)
    # a rate's row is the interval ending at a snapshot: the line of that snapshot (the first starts the clock)
    return Session(
        series=series, meta=meta, line=snaps[1].line, sample_lines=[s.line for s in snaps[1:]]
    )


def _counter_rates(
    k: str,
    snaps: list[_Snapshot],
    totals: list[Row],
    clock: list[float],
    file: str,
    problems: list[Problem],
) -> Column:
    """Counter `k`'s rate per second over each interval; None where a side is missing, the
    clock does not advance, or the counter fell (with a warning)."""
    col: Column = []
    for i in range(1, len(snaps)):
        a, b, dt = totals[i - 1].get(k), totals[i].get(k), clock[i] - clock[i - 1]
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)) or dt <= 0:
            col.append(None)
        elif b < a:
            problems.append(
                Problem(
                    file,
                    snaps[i].lines.get(k, snaps[i].line),
                    f"{k} fell from {a} to {b} "
                    "(FLUSH STATUS or a restart?): no rate for this interval",
                )
            )
            col.append(None)
        else:
            col.append(round((b - a) / dt, 3))
    return col


def _rates_meta(
    snaps: list[_Snapshot], relative: bool, clock: list[float], file: str, problems: list[Problem]
) -> dict[str, Any]:
    """The session's meta: the mode, the snapshots, the median interval and, when every
    snapshot has a time stamp, t = 0 as printed and its zone (a change of zone is a warning)."""
    steps = sorted(b - a for a, b in zip(clock, clock[1:]))
    meta = {
        "tool": "mysql status",
        "mode": "relative" if relative else "absolute",
        "snapshots": len(snaps),
        "interval_s": steps[len(steps) // 2],
        "first_snapshot": "dropped (starts the clock)",
    }
    first = snaps[0].when
    if first is not None and all(s.when is not None for s in snaps):
        meta["start"] = (
            first.isoformat()
        )  # t = 0 as printed, to join a run by time (join/linked.py)
        zones = {s.zone for s in snaps}
        if len(zones) > 1:
            changed = next(s for s in snaps if s.zone != snaps[0].zone)
            problems.append(
                Problem(
                    file,
                    changed.line,
                    f"this snapshot's time zone changes from {snaps[0].zone} to "
                    f"{changed.zone}: the time stamps are kept as printed",
                )
            )
        if snaps[0].zone:
            meta["zone"] = snaps[0].zone
    return meta


@register
class GlobalStatus(_StatusParser):
    name = "global-status"
    description = (
        "SHOW GLOBAL STATUS dumps (Variable_name<TAB>Value), one, before/after, or periodic"
    )


@register
class MysqladminStatus(_StatusParser):
    name = "mysqladmin-status"
    description = "mysqladmin extended-status tables (boxed), absolute or -r -i N relative"
    boxed = True
