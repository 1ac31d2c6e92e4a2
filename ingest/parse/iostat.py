"""F12: `iostat -x` (sysstat 10/11 `Device:` form and sysstat 12 form, any locale).

Columns are mapped by header name. Throughput is stored in kB/s whatever the tool printed
(`rMB/s` becomes `rkB/s`, `rsec/s` becomes `rkB/s`); decimal commas are read. Each report is
a block ended by a blank line; the first report (averages since boot) is dropped. One session
per device plus one for the avg-cpu block (`meta.device` is the device, or None for the CPU);
`t` counts reports (`meta.t_unit` is "sample"), as iostat prints no interval.

`iostat -t` prints the date and time before each report (the end of its interval), in the
locale's `%x %X` (`05/30/2017 08:17:45 AM` en_US, `05/30/17 08:17:45` C, `30.05.2017
08:17:45` de_DE) or, with `S_TIME_FORMAT=ISO`, `2017-05-30T08:17:45+0200`. When every kept
report has one, each session gets a `time` column (ISO `YYYY-MM-DDTHH:MM:SS`, local time as
printed) and, for the ISO form, `meta.zone` the printed offset (`+0200`); the locale forms
print no zone. A slashed date is month/day (C and en_US); one that does not read so (day 31
in the month field), or stamps on only some reports, is reported and no time is kept.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from ingest.parse import register
from ingest.parse._columns import banner_and_lines, numbers, read_columns
from ingest.parse._text import Lines, columnar
from ingest.parse.base import Column, Parsed, Parser, Session

BANNER = re.compile(r"^Linux \S+ \((?P<host>[^)]*)\).*?(?:\((?P<cpus>\d+) CPU\))?\s*$")
STAMP = re.compile(r"^\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}[ T]\d{1,2}:\d{2}:\d{2}")
# locale forms of `%x %X` and sysstat's ISO form: regex -> strptime format
STAMP_FORMS = [
    (re.compile(r"\d\d/\d\d/\d{4} \d\d:\d\d:\d\d [AP]M"), "%m/%d/%Y %I:%M:%S %p"),
    (re.compile(r"\d\d/\d\d/\d{4} \d\d:\d\d:\d\d"), "%m/%d/%Y %H:%M:%S"),
    (re.compile(r"\d\d/\d\d/\d\d \d\d:\d\d:\d\d(?: [AP]M)?"), None),
    (re.compile(r"\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d"), "%d.%m.%Y %H:%M:%S"),
    (re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?P<zone>[+-]\d\d:?\d\d|Z)?"), "iso"),
]
DEVICE_HEADER = re.compile(r"^Device:?\s+\S")
DECIMAL_COMMA = re.compile(r"^-?\d+,\d+$")
# unit conversions to kB/s: header name -> (stored name, factor)
UNITS = {f"{p}{u}/s": (f"{p}kB/s", k) for p in "rwd" for u, k in (("MB", 1024), ("sec", 0.5))}


def _value(token: str) -> float:
    return float(token.replace(",", ".") if DECIMAL_COMMA.match(token) else token)


class _Report:
    def __init__(self, line: int):
        self.line = line
        self.cpu: dict[str, Any] | None = None
        self.devices: dict[str, dict[str, Any]] = {}
        self.closed = False  # its last block was ended by a blank line
        self.time: str | None = None  # `iostat -t`: local date and time, ISO, as printed


def _stamp(text: str) -> tuple[str, str | None]:
    """(ISO local time, zone or None) of an `iostat -t` line; ValueError if it does not read."""
    text = text.strip()
    for pattern, fmt in STAMP_FORMS:
        m = pattern.fullmatch(text)
        if not m:
            continue
        if fmt == "iso":
            return datetime.fromisoformat(text[:19].replace(" ", "T")).isoformat(), m["zone"]
        if fmt is None:  # two-digit year: %y, 12-hour clock when AM/PM follows
            fmt = "%m/%d/%y %I:%M:%S %p" if text.endswith("M") else "%m/%d/%y %H:%M:%S"
        return datetime.strptime(text, fmt).isoformat(), None
    raise ValueError(f"unknown time stamp form {text[:40]!r}")


class _Reading:
    """One iostat file being read, line by line: its reports, the block a values line belongs
    to ("cpu-header", "cpu", "devices", or None between blocks), the column names and unit
    factors of the last headers, and what the `iostat -t` stamps said."""

    def __init__(self, lines: Lines):
        self.lines = lines
        self.reports: list[_Report] = []
        self.report: _Report | None = None
        self.block: str | None = None
        self.cpu_names: list[str] = []
        self.dev_names: list[str] = []
        self.factors: list[float] = []
        self.stamp_problems: list[tuple[int, str]] = []
        self.zones: dict[str, int] = {}  # printed zone -> first line

    def _new_report(self, no: int) -> _Report:
        self.report = _Report(no)
        self.reports.append(self.report)
        return self.report

    def blank(self, no: int) -> None:
        """A blank line ends the block (and closes the report's last block)."""
        if self.block == "cpu-header":
            raise self.lines.error(no, "avg-cpu header without values")
        if self.report is not None and self.block is not None:
            self.report.closed = True
        self.block = None

    def stamp(self, no: int, line: str) -> None:
        """An `iostat -t` date and time: a new report, stamped when the form reads."""
        report, self.block = self._new_report(no), None
        try:
            report.time, zone = _stamp(line)
        except ValueError as e:
            self.stamp_problems.append(
                (
                    no,
                    f"time stamp not read ({e}; set S_TIME_FORMAT=ISO): "
                    "no time stamps are kept for this file",
                )
            )
            return
        if zone is not None:
            self.zones.setdefault(zone, no)

    def cpu_header(self, no: int, line: str) -> None:
        report = self.report
        if report is None or report.cpu is not None or report.devices:
            self._new_report(no)
        self.cpu_names = line.split()[1:]
        self.block = "cpu-header"

    def device_header(self, no: int, line: str) -> None:
        report = self.report
        if report is None or report.devices:
            report = self._new_report(no)
        self.dev_names = [UNITS.get(n, (n, 1))[0] for n in line.split()[1:]]
        self.factors = [UNITS.get(n, (n, 1))[1] for n in line.split()[1:]]
        self.block = "devices"
        report.closed = False

    def values(self, no: int, line: str) -> None:
        """The avg-cpu values under their header, or one device's row."""
        values = line.split()
        report = self.report  # a header made it: there is one while a block is open
        if self.block == "cpu-header" and report is not None:
            report.cpu = self._row(no, self.cpu_names, values, [1] * len(self.cpu_names))
            self.block = "cpu"
            report.closed = False
        elif self.block == "devices" and report is not None:
            device, values = values[0], values[1:]
            report.devices[device] = self._row(no, self.dev_names, values, self.factors)
        else:
            raise self.lines.error(
                no, "not part of an iostat report (expected `avg-cpu:` or a `Device` header)"
            )

    def _row(
        self, no: int, names: list[str], values: list[str], factors: list[float]
    ) -> dict[str, Any]:
        if len(values) != len(names):
            raise self.lines.error(
                no, f"expected {len(names)} values under `{' '.join(names)}`, found {len(values)}"
            )
        try:
            return {n: round(_value(v) * f, 3) for n, v, f in zip(names, values, factors)}
        except ValueError:
            raise self.lines.error(no, "iostat values must be numbers") from None

    def kept(self) -> list[_Report]:
        """The reports after the since-boot one, less a last report cut short (a warning)."""
        reports = self.reports
        if reports and not reports[-1].closed:
            dropped = reports.pop()
            self.lines.missing_end(
                dropped.line, "the end of its last report (no blank line after it): report ignored"
            )
        if len(reports) < 2:
            raise self.lines.error(0, "no iostat report after the since-boot report")
        return reports[1:]

    def timed(self, kept: list[_Report]) -> bool:
        """Whether the sessions get a `time` column: every kept report stamped, in one zone;
        else the first reason why not is a warning."""
        problems = self.stamp_problems
        stamped = [r for r in kept if r.time is not None]
        if stamped and len(stamped) < len(kept) and not problems:
            bare = next(r for r in kept if r.time is None)
            problems.append(
                (
                    bare.line,
                    "report without the time stamp line the others have: "
                    "no time stamps are kept for this file",
                )
            )
        if len(self.zones) > 1:
            (z0, _), (z1, at) = list(self.zones.items())[:2]
            problems.append(
                (at, f"time zone changes from {z0} to {z1}: no time stamps are kept for this file")
            )
        for no, reason in problems[:1]:
            self.lines.problem(no, reason)
        return bool(stamped) and not problems


@register
class IostatParser(Parser):
    name = "iostat"
    linked_as = "iostat"
    description = "iostat -x: avg-cpu and per-device reports (kB/s, decimal commas; first report dropped: since boot)"

    def detect(self, head: str) -> str | None:
        for line in head.splitlines()[:60]:
            if line.startswith("avg-cpu:") or (DEVICE_HEADER.match(line) and "r/s" in line):
                return "iostat report (`avg-cpu:` or `Device ... r/s` header)"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        fast = _fast(text, file)
        if fast is not None:
            return fast
        lines = Lines(text, file)
        meta: dict[str, Any] = {
            "tool": "iostat",
            "t_unit": "sample",
            "since_boot_report": "dropped",
        }
        reading = _Reading(lines)
        for no, line in lines:
            if not line.strip():
                reading.blank(no)
            elif m := BANNER.match(line):
                meta["host"] = m["host"]
                if m["cpus"]:
                    meta["cpus"] = int(m["cpus"])
            elif STAMP.match(line):
                reading.stamp(no, line)
            elif line.startswith("avg-cpu:"):
                reading.cpu_header(no, line)
            elif DEVICE_HEADER.match(line):
                reading.device_header(no, line)
            else:
                reading.values(no, line)
        kept = reading.kept()
        timed = reading.timed(kept)
        if timed and reading.zones:
            meta["zone"] = next(iter(reading.zones))
        return Parsed(
            self.name,
            file,
            sessions=self._sessions(kept, reading.cpu_names, reading.dev_names, meta, timed),
            problems=lines.problems,
        )

    @staticmethod
    def _sessions(
        reports: list[_Report],
        cpu_names: list[str],
        dev_names: list[str],
        meta: dict[str, Any],
        timed: bool,
    ) -> list[Session]:
        sessions = []
        extra = ["time"] if timed else []
        cpu = [(i, r) for i, r in enumerate(reports, 1) if r.cpu is not None]
        if cpu:
            rows = [dict(r.cpu or {}, t=i, time=r.time) for i, r in cpu]
            sessions.append(
                Session(
                    series=columnar(rows, ["t"] + cpu_names + extra),
                    meta=dict(meta, device=None),
                    line=reports[0].line,
                    sample_lines=[r.line for _, r in cpu],
                )
            )
        devices = list(dict.fromkeys(d for r in reports for d in r.devices))
        for device in devices:
            found = [(i, r) for i, r in enumerate(reports, 1) if device in r.devices]
            rows = [dict(r.devices[device], t=i, time=r.time) for i, r in found]
            sessions.append(
                Session(
                    series=columnar(rows, ["t"] + dev_names + extra),
                    meta=dict(meta, device=device),
                    line=reports[0].line,
                    sample_lines=[r.line for _, r in found],
                )
            )
        return sessions


def _fast_times(stamp_lines: list[str], meta: dict[str, Any]) -> list[str] | None:
    """The kept reports' times (`-t`), their zone put in `meta`; None when a stamp does not
    read or the zone changes."""
    stamps = [_stamp_or_none(x) for x in stamp_lines]
    zones = {zone for _, zone in filter(None, stamps) if zone is not None}
    if None in stamps or len(zones) > 1:
        return None
    if zones:
        meta["zone"] = zones.pop()
    return [when for when, _ in stamps[1:]]  # type: ignore[misc]


def _fast(text: str, file: str) -> Parsed | None:
    """The parse of a regular file, read a whole column at a time: the banner, then reports
    of one shape (an optional time stamp, avg-cpu, then every device under one header), each
    block ended by one blank line. None for anything else (another layout, a value that does
    not read, a cut or a warning to give): the line-by-line parse reads it and names the line.
    """
    if (opened := banner_and_lines(text, BANNER, "\n\n")) is None:
        return None
    banner, lines = opened
    body = lines[2:]  # reports: avg-cpu (a stamp before it with -t), a blank, devices, a blank
    del lines
    shape = _shape(body)
    if shape is None:
        return None
    h, step, n, k = shape
    cpu_head, dev_head = body[h - 2], body[h + 1]
    if (
        not cpu_head.startswith("avg-cpu:")
        or not DEVICE_HEADER.match(dev_head)
        or body[h - 2 :: step].count(cpu_head) != n
        or body[h + 1 :: step].count(dev_head) != n
    ):
        return None
    cpu_names = cpu_head.split()[1:]
    dev_names = [UNITS.get(x, (x, 1))[0] for x in dev_head.split()[1:]]
    factors = [UNITS.get(x, (x, 1))[1] for x in dev_head.split()[1:]]
    for names in (cpu_names, dev_names):
        if len(set(names)) != len(names) or {"t", "time"} & set(names):
            return None
    meta: dict[str, Any] = {"tool": "iostat", "t_unit": "sample", "since_boot_report": "dropped"}
    meta["host"] = banner["host"]
    if banner["cpus"]:
        meta["cpus"] = int(banner["cpus"])
    times = _fast_times(body[::step], meta) if h == 3 else []
    if times is None:
        return None  # the slow path says why no time is kept
    at = list(range(3 + step, 3 + n * step, step))  # the kept reports' first lines
    extra = {"time": times} if times else {}
    try:
        cpu = _fast_columns(body[h - 1 :: step], cpu_names, [1] * len(cpu_names))
        if cpu is None:
            return None
        sessions = [Session(series={"t": list(range(1, n)), **cpu, **extra}, line=at[0])]
        sessions[0].meta, sessions[0].sample_lines = dict(meta, device=None), at
        devices: list[str] = []
        for j in range(1, k + 1):
            rows = body[h + 1 + j :: step]
            device = rows[0].split(None, 1)[0] if rows[0].strip() else ""
            series = _fast_columns(rows, dev_names, factors, device)
            if series is None or device in devices or STAMP.match(device):
                return None
            devices.append(device)
            session = Session(series={"t": list(range(1, n)), **series, **extra}, line=at[0])
            session.meta, session.sample_lines = dict(meta, device=device), list(at)
            sessions.append(session)
    except ValueError:
        return None
    return Parsed("iostat", file, sessions=sessions)


def _shape(body: list[str]) -> tuple[int, int, int, int] | None:
    """(lines of the avg-cpu block, lines a report, reports, devices) when every report has
    the first one's shape, each block ended by one blank line; else None."""
    try:
        h = body.index("")  # lines of the avg-cpu block
        step = body.index("", h + 1) + 1  # lines a report
    except ValueError:
        return None
    n, k = len(body) // step, step - h - 3  # reports; devices
    if h not in (2, 3) or k < 1 or n < 2 or len(body) != n * step:
        return None
    if body[h::step].count("") != n or body[step - 1 :: step].count("") != n:
        return None
    return h, step, n, k


def _stamp_or_none(line: str) -> tuple[str, str | None] | None:
    if not STAMP.match(line):
        return None
    try:
        return _stamp(line)
    except ValueError:
        return None


def _fast_columns(
    rows: list[str], names: list[str], factors: list[float], device: str | None = None
) -> dict[str, Column] | None:
    """{name: values} of the rows of one block kind (one device's rows when `device` names
    it: its first word on every row), less the first row (since boot, read to be checked);
    None when a row has another shape."""
    lead = device is not None

    def convert(j: int, words: list[str]) -> Column | None:
        if lead and j == 0:  # the device's name on every row
            return [] if device is not None and words.count(device) == len(words) else None
        return numbers(words, factor=factors[j - lead], ndigits=3)

    columns = read_columns(rows, len(names) + lead, convert)
    if columns is None:
        return None
    return {name: values[1:] for name, values in zip(names, columns[lead:])}
