"""Linked metrics: what the OS and the server did during a run, on the run's own clock.

For a run whose manifest rule names its vmstat, iostat, sar or periodic server-status files
(docs/manifest.md, "Linked metrics"), `linked_series` builds one columnar series beside the
run's throughput: one row per OS sample, `t` in seconds of the run, columns

    vm.us vm.sy vm.wa vm.cs vm.r vm.b                      vmstat
    ds.us ds.sy ds.wa ds.cs ds.dsk.writ ds.net.recv ...    dstat (its columns, ingest/parse/dstat.py)
    mp.all.%usr mp.all.%sys mp.0.%usr ...                  mpstat -P ALL (per CPU and `all`)
    io.<dev>.r/s io.<dev>.w/s io.<dev>.rMB/s io.<dev>.wMB/s io.<dev>.await io.<dev>.util
    st.<counter>                                           server counters (per second)
    sar.%user sar.%iowait sar.kbmemused ...                sar (whole machine)
    cpu_per_op kb_written_per_op                           derived, per interval

Alignment (never silent, never stretched; docs/manifest.md, "Linked metrics"):
- by time stamps, when both sides have them (`align: auto`, the default, or `timestamps`): an
  OS sample printed at local time T (vmstat -t, iostat -t; the end of its interval) is placed
  at T - start, `start` being the run's own t = 0 as its log gives it (LinkBench's
  `meta.start`). Both are taken as the same host's clock; when the manifest declares the run
  log's `zone` and the monitor printed one, they must be equal or both fixed offsets (UTC,
  +02:00), else the zone cannot be matched: reported, and the join falls back to the offset.
- otherwise (or `align: offset`): sample i (1-based; the since-boot sample is already dropped
  by the parsers and so never averaged in) ends at `offset_s + i * interval_s`.
Then, either way: a series that does not end where the run ends (its log's end of phase, else its last interval) by more than the tolerance
(default: two samples, `TOLERANCE_SAMPLES`, whatever the run's length), at the line of its last
sample (a monitor started with a warm-up the run excludes ends late: `offset_s: phase-start`); and, with file:line, wherever the samples have time stamps: a time stamp repeated
or going back, and a step that differs from the median step by more than the step tolerance
(default half an interval, at least 1 s: the stamps have whole seconds), i.e. a gap, and a
median step that differs from `interval_s`. Server-status snapshots carry their own clock
(time stamps or Uptime): when every snapshot has a time stamp (`meta.start`, the first one's)
they join by time like the monitors, else they are put on the run's clock by `offset_s`.

Derived per interval: the run's throughput over each OS interval (t - interval_s, t], its
interval rates weighted by their overlap (None when the run covers less than half of it), then CPU seconds per operation = (us + sy) / 100 x cores /
ops per second, and KB written per operation = the devices' summed wkB/s / ops per second.
A value the inputs cannot give is None, never 0.
"""

from __future__ import annotations

import fnmatch
import re
import statistics
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from itertools import repeat
from operator import mul
from typing import Any, NamedTuple

from ingest.join.columns import IOSTAT, VMSTAT
from ingest.join.osmetrics import cpu_s_per_op, each_op
from ingest.join.records import Linked, Run, Series
from ingest.parse import Parsed
from ingest.parse.base import Session
from ingest.parse.sar import SAMPLE_FIELDS, whole_machine
from ingest.problems import Problem
from ingest.read.records import MONITOR_KINDS, Manifest, Rule

# the panels shown first, and so the linked columns written, when the manifest names none
DEFAULT_PANELS = ("vm.us", "vm.sy", "vm.wa", "io.*.w/s", "cpu_per_op")


TOLERANCE_SAMPLES = 2
# the columns of CPU user and system time, by the monitor preferred
CPU_BUSY = (
    ("vm.us", "vm.sy"),
    ("ds.us", "ds.sy"),
    ("mp.all.%usr", "mp.all.%sys"),
    ("sar.%user", "sar.%system"),
)
# a monitor column's values by their time on the run's clock
Columns = dict[str, dict[float, object]]


def tolerance(interval_s: float, declared: float | None = None) -> float:
    """The largest difference between where a series ends and where the run ends that is not
    reported: two samples, whatever the run's length (a share of the run would hide a whole
    warm-up in an hour-long run), unless the manifest declares `tolerance_s`."""
    return declared if declared is not None else TOLERANCE_SAMPLES * interval_s


def place(n: int, interval_s: float, offset_s: float) -> list[float]:
    """End times on the run's clock of samples 1..n."""
    return [round(offset_s + i * interval_s, 6) for i in range(1, n + 1)]


def step_tolerance(interval_s: float, declared: float | None = None) -> float:
    """The largest difference between a time-stamp step and the median step that is not a gap."""
    return declared if declared is not None else max(interval_s / 2, 1.0)


def zone_offset(zone: str | None) -> float | None:
    """Seconds east of UTC of a zone written as UTC, GMT, Z, +02:00 or -0500; None otherwise
    (a name like CEST or IST is ambiguous: it is matched by name only)."""
    if zone is None:
        return None
    if zone.upper() in ("UTC", "GMT", "Z"):
        return 0.0
    m = re.fullmatch(r"(?:UTC|GMT)?([+-])(\d\d):?(\d\d)", zone.upper())
    return None if not m else (1 if m[1] == "+" else -1) * (int(m[2]) * 3600 + int(m[3]) * 60)


def zone_shift(monitor_zone: str | None, run_zone: str | None) -> float | None:
    """Seconds to add to (monitor time - run start) so both are on one clock; None when the
    two zones cannot be matched. Without either zone: the same host clock, no shift."""
    if monitor_zone is None or run_zone is None or monitor_zone.upper() == run_zone.upper():
        return 0.0
    a, b = zone_offset(run_zone), zone_offset(monitor_zone)
    return None if a is None or b is None else a - b


def check_steps(
    file: str, what: str, times: list[datetime], lines: list[int], interval_s: float, tol: float
) -> list[Problem]:
    """file:line problems of a monitor's time stamps: repeated, going back, gaps (a step beyond
    `tol` from the median step) and a median step that is not `interval_s`. Nothing is moved."""
    steps = [(b - a).total_seconds() for a, b in zip(times, times[1:])]
    if not steps:
        return []
    median = statistics.median(steps)
    out, odd = [], []
    for i, step in enumerate(steps, start=1):
        line = lines[i] if i < len(lines) else None
        if step == 0:
            odd.append(
                Problem(
                    file,
                    line,
                    f"{what}: time stamp {times[i].isoformat(' ')} repeated (a duplicate sample?)",
                )
            )
        elif step < 0:
            odd.append(
                Problem(
                    file, line, f"{what}: time goes back {-step:g} s, to {times[i].isoformat(' ')}"
                )
            )
        elif abs(step - median) > tol:
            kind = "gap" if step > median else "short step"
            odd.append(
                Problem(
                    file,
                    line,
                    f"{what}: {kind}: {step:g} s since the previous sample (median {median:g} s, "
                    f"tolerance {tol:g} s); kept at its time",
                )
            )
    out += odd[:5]
    if len(odd) > 5:
        out.append(
            Problem(
                file,
                None,
                f"{what}: {len(odd) - 5} more repeated, backward or irregular time stamps",
            )
        )
    if abs(median - interval_s) > tol:
        out.append(
            Problem(
                file,
                lines[1] if len(lines) > 1 else None,
                f"{what}: the time stamps are {median:g} s apart (median), but interval_s is "
                f"{interval_s:g} s (tolerance {tol:g} s)",
            )
        )
    return out


def stamps(s: Session, run_start: datetime | None = None) -> list[datetime] | None:
    """A monitor session's per-sample local times (vmstat -t, iostat -t, dstat -T), or None.
    dstat -t prints no year (`clock`, `MM-DDTHH:MM:SS`): its times take the year that puts
    them nearest the run's start, when the run has one."""
    col = s.series.get("time")
    if col and all(x is not None for x in col):
        return [datetime.fromisoformat(x) for x in col]
    col = s.series.get("clock")
    if run_start is None or s.meta.get("tool") != "dstat" or not col or None in col:
        return None
    return [_nearest_year(x, run_start) for x in col]


def _nearest_year(month_day_time: str, near: datetime) -> datetime:
    """`MM-DDTHH:MM:SS` in the year (that of `near`, or the one before or after) nearest `near`."""
    years = (near.year - 1, near.year, near.year + 1)
    found = []
    for year in years:
        try:
            found.append(datetime.fromisoformat(f"{year}-{month_day_time}"))
        except ValueError:  # 02-29 in a year without it
            continue
    return min(found, key=lambda x: abs((x - near).total_seconds()))


def on_clock(
    file: str, what: str, s: Session, clock: Clock
) -> tuple[list[float], str, list[Problem]]:
    """The end times of a monitor's samples on the run's clock, how they were found
    ("timestamps" or "offset"), and the problems found on the way."""
    run_start = clock.start()
    times, problems = stamps(s, run_start), []
    n = len(s.series["t"])
    if times:
        problems += check_steps(
            file, what, times, s.sample_lines, clock.interval_s, clock.step_tol()
        )
    if clock.align != "offset" and times and run_start is not None:
        shift = zone_shift(s.meta.get("zone"), clock.zone)
        if shift is not None:
            return (
                [round((x - run_start).total_seconds() + shift, 3) for x in times],
                "timestamps",
                problems,
            )
        problems.append(
            Problem(
                file,
                s.line,
                f"{what}: its time zone {s.meta.get('zone')} cannot be matched with the "
                f"run's declared zone {clock.zone}: placed by offset_s and interval_s instead",
            )
        )
    elif clock.align == "timestamps":
        missing = "the run's log has no start time" if times else f"{what} printed no time stamps"
        problems.append(
            Problem(
                file,
                s.line,
                f"{what}: align: timestamps, but {missing}: placed by offset_s "
                "and interval_s instead",
            )
        )
    return place(n, clock.interval_s, clock.offset_s), "offset", problems


def check_span(
    file: str,
    what: str,
    t: list[Any],
    run_end: float | None,
    interval_s: float,
    tol: float,
    by: str = "offset",
    lines: list[int] | None = None,
    offset_s: float = 0,
) -> list[Problem]:
    """Problems when a series does not end where the run ends, beyond `tol` seconds, at the
    line of its last sample (`lines`: each sample's line, when known); `by`: how the samples
    were placed ("offset": sample i ends at offset_s + i x interval_s; "timestamps"). With time
    stamps, a monitor that started more than `tol` after the run's t = 0 is reported too."""
    if not t or run_end is None:
        return []
    out, last = [], (lines[len(t) - 1] if lines and len(lines) >= len(t) else None)
    late = round(t[-1] - run_end, 3)
    if abs(late) > tol:
        if by == "timestamps":
            out.append(
                Problem(
                    file,
                    last,
                    f"{what}: its last sample ends at {t[-1]:g} s of the run (its time stamp), "
                    f"but the run ends at {run_end:g} s ({late:+g} s, tolerance {tol:g} s): did "
                    "the monitor run for the whole run? The samples are kept at their own "
                    "times, not shifted or stretched",
                )
            )
        else:
            out.append(
                Problem(
                    file,
                    last,
                    f"{what}: its last sample ends at {t[-1]:g} s of the run (offset_s "
                    f"{offset_s:g} + {len(t)} x {interval_s:g} s), but the run ends at "
                    f"{run_end:g} s ({late:+g} s, tolerance {tol:g} s): check "
                    "interval_s/offset_s; the samples are kept at their declared times, "
                    "not shifted or stretched",
                )
            )
    first = t[0] - interval_s
    if by == "timestamps" and first > tol:
        out.append(
            Problem(
                file,
                lines[0] if lines else None,
                f"{what}: its first sample starts at {first:g} s of the run (tolerance {tol:g} s): did "
                "the monitor run for the whole run?",
            )
        )
    return out


def ops_per_interval(
    run_t: list[Any], ops: list[Any], t: list[Any], interval_s: float
) -> list[float | None]:
    """The run's mean throughput over each interval (x - interval_s, x] of `t`: the run's
    interval rates weighted by how much of each run interval (t[k-1], t[k]] overlaps it."""
    out, j = [], 0
    starts = [0.0, *run_t[:-1]]
    for x in t:
        a = x - interval_s
        while j < len(run_t) and run_t[j] <= a:
            j += 1
        k, weight, total = j, 0.0, 0.0
        while k < len(run_t) and starts[k] < x:
            overlap = min(run_t[k], x) - max(starts[k], a)
            if ops[k] is not None and overlap > 0:
                weight += overlap
                total += ops[k] * overlap
            k += 1
        out.append(total / weight if weight >= 0.5 * interval_s else None)
    return out


@dataclass(frozen=True)
class Clock:
    """How a monitor's samples are placed on the run's clock (the module docstring): sample i
    ends at `offset_s + i * interval_s`, or, as `align` allows, at its own time stamp against
    the run's t = 0 (`run_start`, its log's local ISO time, in the declared `zone`). A series
    is checked to end where the run ends (`run_end`: its log's end of phase, else its last
    interval's end) within `tol_s`, its time stamps to step within `step_tol_s` (None: the
    defaults, `tolerance` and `step_tolerance`)."""

    interval_s: float
    offset_s: float = 0.0
    align: str = "auto"  # auto, timestamps or offset
    run_start: str | None = None
    zone: str | None = None
    run_end: float | None = None
    tol_s: float | None = None
    step_tol_s: float | None = None
    # a monitor's own offset, by kind ("vmstat", "dstat", ...), where it is not `offset_s`
    offsets: dict[str, float] = field(default_factory=dict)

    def of(self, kind: str) -> Clock:
        """This clock as one monitor sees it: its own offset, when it has one."""
        own = self.offsets.get(kind)
        return self if own is None or own == self.offset_s else replace(self, offset_s=own)

    def start(self) -> datetime | None:
        return datetime.fromisoformat(self.run_start) if self.run_start else None

    def tol(self) -> float:
        return tolerance(self.interval_s, self.tol_s)

    def step_tol(self) -> float:
        return step_tolerance(self.interval_s, self.step_tol_s)


@dataclass(frozen=True)
class Monitors:
    """A run's monitors, each (file name, parsed session(s)): vmstat, iostat (a session per
    device), periodic server status, sar; `cores` defaults to iostat's or sar's `(N CPU)`."""

    vmstat: tuple[str, Session] | None = None
    iostat: tuple[str, list[Session]] | None = None
    status: tuple[str, Session] | None = None
    sar: tuple[str, list[Session]] | None = None
    dstat: tuple[str, Session] | None = None
    mpstat: tuple[str, list[Session]] | None = None
    cores: int | None = None


class Joined(NamedTuple):
    """What `linked_series` gives: the columnar series, the problems found, and how each
    monitor was placed ({"vmstat"|"iostat"|"status"|"sar": "timestamps"|"offset"})."""

    series: dict[str, list[Any]]
    problems: list[Problem]
    align: dict[str, str]


def linked_series(run_t: list[Any], ops: list[Any], clock: Clock, monitors: Monitors) -> Joined:
    """One columnar series of the run's linked metrics (see the module docstring): the
    monitors' samples on the run's clock beside its own times `run_t` and rates `ops`."""
    if clock.run_end is None and run_t:
        clock = replace(clock, run_end=run_t[-1])
    columns: Columns = {}
    problems: list[Problem] = []
    how: dict[str, str] = {}
    vmstat, iostat, status, sar = monitors.vmstat, monitors.iostat, monitors.status, monitors.sar
    cores = monitors.cores
    if vmstat:
        how["vmstat"] = _join_vmstat(*vmstat, clock.of("vmstat"), columns, problems)
    if iostat:
        found = _join_iostat(*iostat, clock.of("iostat"), columns, problems)
        if found:
            how["iostat"] = found
        cores = cores or next((x.meta["cpus"] for x in iostat[1] if x.meta.get("cpus")), None)
    if status:
        how["status"] = _join_status(*status, clock.of("status"), columns, problems)
    if sar:
        found = _join_sar(*sar, clock.of("sar"), columns, problems)
        if found:
            how["sar"] = found
        cores = cores or next((x.meta["cpus"] for x in sar[1] if x.meta.get("cpus")), None)
    if monitors.dstat:
        how["dstat"] = _join_dstat(*monitors.dstat, clock.of("dstat"), columns, problems)
    if monitors.mpstat:
        found = _join_mpstat(*monitors.mpstat, clock.of("mpstat"), columns, problems)
        if found:
            how["mpstat"] = found
        cores = cores or next(
            (x.meta["cpus"] for x in monitors.mpstat[1] if x.meta.get("cpus")), None
        )
    times = sorted(set().union(*columns.values()))
    out: dict[str, list[Any]] = {"t": times}
    for name, col in columns.items():  # a column with a value at every time: as it is
        out[name] = list(col.values()) if list(col) == times else list(map(col.get, times))
    if times and (vmstat or iostat or sar or monitors.dstat or monitors.mpstat):
        out.update(_per_op(out, ops_per_interval(run_t, ops, times, clock.interval_s), cores))
    return Joined(out, problems, how)


def _placed(
    file: str, what: str, s: Session, clock: Clock, problems: list[Problem], checked: bool = True
) -> tuple[list[float], str]:
    """A monitor session's sample times on the run's clock and how they were placed; when
    `checked`, the problems of its time stamps and of its span are added to `problems`."""
    t, how, found = on_clock(file, what, s, clock)
    if checked:
        problems += found
        problems += check_span(
            file, what, t, clock.run_end, clock.interval_s, clock.tol(), how,
            s.sample_lines, clock.offset_s,
        )  # fmt: skip
    return t, how


def _join_vmstat(
    file: str, s: Session, clock: Clock, columns: Columns, problems: list[Problem]
) -> str:
    """vmstat's columns on the run's clock into `columns`; returns how they were placed."""
    t, how = _placed(file, "vmstat", s, clock, problems)
    for c in VMSTAT:
        if c in s.series:
            columns[f"vm.{c}"] = dict(zip(t, s.series[c]))
    return how


def _join_dstat(
    file: str, s: Session, clock: Clock, columns: Columns, problems: list[Problem]
) -> str:
    """dstat's columns on the run's clock into `columns` as `ds.<column>`; returns how they
    were placed."""
    t, how = _placed(file, "dstat", s, clock, problems)
    for c, col in s.series.items():
        if c not in ("t", "clock", "time"):
            columns[f"ds.{c}"] = dict(zip(t, col))
    return how


def _join_mpstat(
    file: str, sessions: list[Session], clock: Clock, columns: Columns, problems: list[Problem]
) -> str | None:
    """mpstat's columns of every CPU and `all` on the run's clock into `columns` as
    `mp.<cpu>.<column>` (`mp.all.%usr`); returns how they were placed (None: no CPU). By
    offset, a CPU's sample i is its block i (a lost line leaves a gap, not a shift)."""
    placed = None
    for i, s in enumerate(sessions):
        t, how = _placed(file, "mpstat", s, clock, problems, checked=i == 0)
        if how == "offset":
            t = [round(clock.offset_s + k * clock.interval_s, 6) for k in s.series["t"]]
        placed = placed or how
        for c, col in s.series.items():
            if c not in SAMPLE_FIELDS:
                columns[f"mp.{s.meta.get('item')}.{c}"] = dict(zip(t, col))
    return placed


def _join_iostat(
    file: str, sessions: list[Session], clock: Clock, columns: Columns, problems: list[Problem]
) -> str | None:
    """Each iostat device's columns (IOSTAT) on the run's clock into `columns`; returns how
    they were placed (None: no device). Problems of the time stamps are reported once."""
    devices = [x for x in sessions if x.meta.get("device")]
    how = None
    for i, dev in enumerate(devices):
        t, how_dev = _placed(file, "iostat", dev, clock, problems, checked=i == 0)
        how = how or how_dev
        for name, (src, factor, *_meta) in IOSTAT.items():
            col = dev.series.get(src)  # sysstat 12 prints r_await/w_await only: no await
            if col is None:
                continue
            if isinstance(col, array):  # numbers only; read rounded to 3 decimals already
                values = list(col) if factor == 1 else _rounded(map(mul, col, repeat(factor)))
            else:
                values = [None if v is None else round(v * factor, 3) for v in col]
            columns[f"io.{dev.meta['device']}.{name}"] = dict(zip(t, values))
    return how


def _rounded(values: Iterable[float]) -> list[float]:
    return list(map(round, values, repeat(3)))


def _join_sar(
    file: str, sessions: list[Session], clock: Clock, columns: Columns, problems: list[Problem]
) -> str | None:
    """sar's whole-machine columns (its `all` rows, or a report with no item column) on the
    run's clock into `columns` as `sar.<name>` (`sar.%user`, `sar.kbmemused`); returns how
    they were placed (None: no whole-machine report). The samples are placed by offset_s and
    interval_s (sar prints a time of day, and the date only in its banner)."""
    whole = whole_machine(sessions)
    placed = None
    for i, s in enumerate(whole):
        t, how = _placed(file, "sar", s, clock, problems, checked=i == 0)
        placed = placed or how
        for name, col in s.series.items():
            if name not in SAMPLE_FIELDS:
                columns.setdefault(f"sar.{name}", dict(zip(t, col)))
    return placed


def _join_status(
    file: str, s: Session, clock: Clock, columns: Columns, problems: list[Problem]
) -> str:
    """Server counters on the run's clock into `columns` (by their own time stamps when
    every snapshot has one, else by offset_s); returns how they were placed."""
    align, zone, run_start = clock.align, clock.zone, clock.start()
    t, how = [round(clock.offset_s + x, 6) for x in s.series["t"]], "offset"
    if align != "offset" and run_start is not None and s.meta.get("start"):
        shift = zone_shift(s.meta.get("zone"), zone)
        if shift is None:
            problems.append(
                Problem(
                    file,
                    s.line,
                    f"server status: its time zone {s.meta.get('zone')} cannot be "
                    f"matched with the run's declared zone {zone}: placed by offset_s",
                )
            )
        else:  # the first snapshot's own time on the run's clock; t counts from it
            first = (datetime.fromisoformat(s.meta["start"]) - run_start).total_seconds() + shift
            t, how = [round(first + x, 3) for x in s.series["t"]], "timestamps"
    elif align == "timestamps":
        missing = (
            "the run's log has no start time"
            if s.meta.get("start")
            else "not every snapshot has a time stamp"
        )
        problems.append(
            Problem(
                file, s.line, f"server status: align: timestamps, but {missing}: placed by offset_s"
            )
        )
    step = s.meta.get("interval_s") or clock.interval_s
    problems += check_span(
        file, "server status", t, clock.run_end, step, tolerance(step, clock.tol_s), how,
        s.sample_lines, clock.offset_s,
    )  # fmt: skip
    for c, col in s.series.items():
        if c != "t":
            columns[f"st.{c}"] = dict(zip(t, col))
    return how


def _per_op(out: dict[str, list[Any]], per: list[Any], cores: int | None) -> dict[str, list[Any]]:
    """cpu_per_op and kb_written_per_op per sample, from the joined columns and the run's
    throughput over each sample (`per`)."""
    derived = {}
    # CPU busy from vmstat, else dstat, mpstat's `all`, sar -u
    user, system = next(
        (pair for pair in CPU_BUSY if pair[0] in out and pair[1] in out), CPU_BUSY[-1]
    )
    if user in out and system in out and cores:
        derived["cpu_per_op"] = [
            None if us is None or sy is None else _round(cpu_s_per_op(us + sy, cores, o))
            for us, sy, o in zip(out[user], out[system], per)
        ]
    written = [c for c in out if c.startswith("io.") and c.endswith(".wMB/s")]
    total = None
    if written:
        total = [
            None if None in values else sum(values) * 1024
            for values in zip(*(out[c] for c in written))
        ]
    elif "ds.dsk.writ" in out:  # dstat: bytes written per second, all disks
        total = [None if b is None else b / 1024 for b in out["ds.dsk.writ"]]
    if total is not None:
        derived["kb_written_per_op"] = [_round(each_op(w, o)) for w, o in zip(total, per)]
    return derived


def _round(x: float | None) -> float | None:
    return None if x is None else float(f"{x:.6g}")


def matching(patterns: Iterable[str], names: list[str]) -> list[str]:
    """The names (in their order) that one of the patterns (names or globs: `vm.*`,
    `io.*.w/s`) names."""
    return [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in patterns)]


def kept_columns(
    spec: dict[str, Any], linked: list[str], own: list[str]
) -> tuple[list[str], list[str]]:
    """(the panels, as names, shown first; the linked columns written). Written: the columns
    the panels name, and those `columns:` asks for (`all`: every one); without `panels:`, the
    DEFAULT_PANELS that the run has (docs/manifest.md, "Linked metrics")."""
    declared = spec.get("panels") or list(DEFAULT_PANELS)
    panels = []
    for p in declared:
        panels += [n for n in matching([p], own + linked) if n not in panels]
    asked = spec.get("columns") or []
    keep = linked if asked == "all" else matching([*panels, *asked], linked)
    return panels, keep


def attach(  # long: one pass over the runs, each step a line or two of its own
    m: Manifest,
    runs: list[Run],
    series: dict[str, Series],
    files: dict[str, Parsed],
    fill: Callable[[Rule, str, dict[str, Any]], str],
) -> tuple[dict[str, Linked], list[Problem]]:
    """The linked metrics of every run whose rule has `linked:` (docs/manifest.md, "Linked
    metrics"), by run id, and the problems found.

    runs/series/files: what `runs.collect_runs` gives (files: member -> Parsed, read by the
    manifest's `files:` rules); fill(rule, template, labels) -> the member name."""
    out: dict[str, Linked] = {}
    problems: list[Problem] = []
    for rec in runs:
        rule = next((r for r in m.runs if r.input is not None and r.took(rec.source.file)), None)
        if rule is None or rule.linked is None:
            continue
        spec = rule.linked
        found = _monitors(spec, rule, rec, files, fill)
        if not found:
            continue  # no linked: or its monitors were not kept (e.g. LinkBench hours 2-23)
        s = series[rec.id]
        offsets, offset_problems = _offsets(m, rule, rec, spec, found, (s.get("t") or [0])[-1])
        problems += offset_problems
        offset = min(offsets.values())  # where the first monitor started
        clock = Clock(
            interval_s=spec["interval_s"],
            offset_s=offset,
            offsets=offsets,
            align=spec.get("align", "auto"),
            run_start=rec.start,
            zone=spec.get("zone"),
            run_end=(rec.phase_s or {}).get("end"),
            tol_s=spec["tolerance_s"],
            step_tol_s=spec.get("step_tolerance_s"),
        )
        ops = s.get(rec.metric, []) if rec.metric else []
        joined = linked_series(s.get("t", []), ops, clock, Monitors(**found))
        problems += [Problem(p.file, p.line, f"run {rec.id}: {p.reason}") for p in joined.problems]
        doc = joined.series
        linked = [c for c in doc if c != "t"]
        # a panel is a linked metric or one of the run's own columns (LinkBench's latency, errors)
        own = [c for c in rec.columns if c not in ("t", rec.metric)]
        panels, keep = kept_columns(spec, linked, own)
        unknown = [p for p in spec["panels"] if not matching([p], own + linked)]
        absent = [
            fill(rule, spec[k], rec.labels) for k in MONITOR_KINDS if k in spec and k not in found
        ]
        if unknown and absent:  # one of its monitors is missing or empty: say which
            problems.append(
                Problem(
                    m.path,
                    rule.line,
                    f"run {rec.id}: no {', '.join(absent)} in the input (missing or empty): "
                    f"its panels {unknown} are left out",
                )
            )
        elif unknown:
            names = own + linked
            problems.append(
                Problem(
                    m.path,
                    rule.line,
                    f"run {rec.id}: linked panels {unknown} are not among its "
                    f"metrics ({', '.join(names[:12])}{', ...' if len(names) > 12 else ''})",
                )
            )
        if not keep:
            continue
        out[rec.id] = Linked(
            series={"t": doc["t"], **{c: doc[c] for c in keep}},
            columns=keep,
            panels=panels,
            interval_s=spec["interval_s"],
            offset_s=offset,
            offset_from=spec["offset_s"] if isinstance(spec["offset_s"], str) else None,
            offsets_s=offsets if spec["offset_s"] == "run-end" else None,
            align=joined.align,
            files=sorted(member for member, _ in found.values()),
        )
    return out, problems


def _monitors(
    spec: dict[str, Any],
    rule: Rule,
    rec: Run,
    files: dict[str, Parsed],
    fill: Callable[[Rule, str, dict[str, Any]], str],
) -> dict[str, Any]:
    """{"vmstat"|"status": (member, session), "iostat": (member, sessions)} of the monitors
    the rule names that the input holds."""
    found = {}
    for kind in MONITOR_KINDS:
        member = fill(rule, spec[kind], rec.labels) if kind in spec else None
        if member in files and (sessions := files[member].sessions):
            several = kind in ("iostat", "sar", "mpstat")  # a session per device or CPU
            found[kind] = (member, sessions if several else sessions[0])
    return found


def _offsets(
    m: Manifest, rule: Rule, rec: Run, spec: dict[str, Any], found: dict[str, Any], end: float
) -> tuple[dict[str, float], list[Problem]]:
    """Each monitor's offset on the run's clock, by kind: the declared one, or where the run's
    log says the phase began (`offset_s: phase-start`: the monitors started with the phase),
    or the run's end less that monitor's own samples (`offset_s: run-end`: monitors started a
    little before the run, each run and each monitor by its own amount, and stopped with it)."""
    declared = spec["offset_s"]
    if declared == "run-end":
        end = (rec.phase_s or {}).get("end") or end
        return {k: round(end - _span(k, v[1], spec["interval_s"]), 6) for k, v in found.items()}, []
    if declared != "phase-start":
        return dict.fromkeys(found, declared), []
    start = (rec.phase_s or {}).get("start")
    if start is None:
        reason = f"run {rec.id}: offset_s: phase-start, but its log gives no phase start: placed at offset 0"
        return dict.fromkeys(found, 0), [Problem(m.path, rule.line, reason)]
    return dict.fromkeys(found, start), []


def _span(kind: str, sessions: Session | list[Session], interval_s: float) -> float:
    """Seconds from where a monitor started to the end of its last sample, as the join places
    its samples at offset 0: sample i of n ends at i x interval_s (mpstat: its last block's
    number, a lost block leaving a gap; server status: its own seconds)."""
    s = sessions[0] if isinstance(sessions, list) else sessions
    t = s.series.get("t")
    if not t:
        return 0.0
    if kind == "status":
        return float(t[-1])
    return float(t[-1] if kind == "mpstat" else len(t)) * interval_s
