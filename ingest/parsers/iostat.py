"""F12: `iostat -x` (sysstat 10/11 `Device:` form and sysstat 12 form, any locale).

Columns are mapped by header name. Throughput is stored in kB/s whatever the tool printed
(`rMB/s` becomes `rkB/s`, `rsec/s` becomes `rkB/s`); decimal commas are read. Each report is
a block ended by a blank line; the first report (averages since boot) is dropped. One session
per device plus one for the avg-cpu block (`meta.device` is the device, or None for the CPU);
`t` counts reports (`meta.t_unit` is "sample"), as iostat prints no interval.
"""
from __future__ import annotations

import re

from . import register
from ._text import Lines, columnar
from .base import Parsed, Parser, Session

BANNER = re.compile(r"^Linux \S+ \((?P<host>[^)]*)\).*?(?:\((?P<cpus>\d+) CPU\))?\s*$")
STAMP = re.compile(r"^\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}[ T]\d{1,2}:\d{2}:\d{2}")
DEVICE_HEADER = re.compile(r"^Device:?\s+\S")
DECIMAL_COMMA = re.compile(r"^-?\d+,\d+$")
# unit conversions to kB/s: header name -> (stored name, factor)
UNITS = {f"{p}{u}/s": (f"{p}kB/s", k) for p in "rwd" for u, k in (("MB", 1024), ("sec", 0.5))}


def _value(token: str) -> float:
    return float(token.replace(",", ".") if DECIMAL_COMMA.match(token) else token)


class _Report:
    def __init__(self, line: int):
        self.line = line
        self.cpu: dict | None = None
        self.devices: dict[str, dict] = {}
        self.closed = False  # its last block was ended by a blank line


@register
class IostatParser(Parser):
    name = "iostat"
    description = "iostat -x: avg-cpu and per-device reports (kB/s, decimal commas; first report dropped: since boot)"

    def detect(self, head: str) -> str | None:
        for line in head.splitlines()[:60]:
            if line.startswith("avg-cpu:") or (DEVICE_HEADER.match(line) and "r/s" in line):
                return "iostat report (`avg-cpu:` or `Device ... r/s` header)"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        meta: dict = {"tool": "iostat", "t_unit": "sample", "since_boot_report": "dropped"}
        reports: list[_Report] = []
        report: _Report | None = None
        block = None  # "cpu-header", "cpu", "devices" or None (between blocks)
        cpu_names: list[str] = []
        dev_names: list[str] = []

        def new_report(no: int) -> _Report:
            r = _Report(no)
            reports.append(r)
            return r

        for no, line in lines:
            if not line.strip():
                if block == "cpu-header":
                    raise lines.error(no, "avg-cpu header without values")
                if report is not None and block is not None:
                    report.closed = True
                block = None
                continue
            if m := BANNER.match(line):
                meta["host"] = m["host"]
                if m["cpus"]:
                    meta["cpus"] = int(m["cpus"])
                continue
            if STAMP.match(line):
                report, block = new_report(no), None
                continue
            if line.startswith("avg-cpu:"):
                if report is None or report.cpu is not None or report.devices:
                    report = new_report(no)
                cpu_names = line.split()[1:]
                block = "cpu-header"
                continue
            if DEVICE_HEADER.match(line):
                if report is None or report.devices:
                    report = new_report(no)
                dev_names = [UNITS.get(n, (n, 1))[0] for n in line.split()[1:]]
                factors = [UNITS.get(n, (n, 1))[1] for n in line.split()[1:]]
                block = "devices"
                report.closed = False
                continue
            values = line.split()
            if block == "cpu-header":
                report.cpu = self._row(lines, no, cpu_names, values, [1] * len(cpu_names))
                block = "cpu"
                report.closed = False
            elif block == "devices":
                device, values = values[0], values[1:]
                report.devices[device] = self._row(lines, no, dev_names, values, factors)
            else:
                raise lines.error(no, "not part of an iostat report (expected `avg-cpu:` or a `Device` header)")

        if reports and not reports[-1].closed:
            dropped = reports.pop()
            lines.missing_end(dropped.line, "the end of its last report (no blank line after it): report ignored")
        if len(reports) < 2:
            raise lines.error(0, "no iostat report after the since-boot report")
        return Parsed(self.name, file, sessions=self._sessions(reports[1:], cpu_names, dev_names, meta),
                      problems=lines.problems)

    @staticmethod
    def _row(lines: Lines, no: int, names: list[str], values: list[str], factors: list[float]) -> dict:
        if len(values) != len(names):
            raise lines.error(no, f"expected {len(names)} values under `{' '.join(names)}`, found {len(values)}")
        try:
            return {n: round(_value(v) * f, 3) for n, v, f in zip(names, values, factors)}
        except ValueError:
            raise lines.error(no, "iostat values must be numbers") from None

    @staticmethod
    def _sessions(reports: list[_Report], cpu_names, dev_names, meta) -> list[Session]:
        sessions = []
        cpu_rows = [dict(r.cpu, t=i) for i, r in enumerate(reports, 1) if r.cpu is not None]
        if cpu_rows:
            sessions.append(Session(series=columnar(cpu_rows, ["t"] + cpu_names),
                                    meta=dict(meta, device=None), line=reports[0].line))
        devices = list(dict.fromkeys(d for r in reports for d in r.devices))
        for device in devices:
            rows = [dict(r.devices[device], t=i) for i, r in enumerate(reports, 1) if device in r.devices]
            sessions.append(Session(series=columnar(rows, ["t"] + dev_names),
                                    meta=dict(meta, device=device), line=reports[0].line))
        return sessions
