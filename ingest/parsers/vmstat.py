"""F11: vmstat output at any interval (procps 3.x and 4.x, with or without -w/-t).

The first data row is the average since boot and is dropped; the column header may repeat
mid-file. vmstat prints no interval, so `t` counts samples (1, 2, ...; `meta.t_unit` is
"sample") and `ingest.osmetrics` puts the series on a run's clock.
"""
from __future__ import annotations

import re

from . import register
from ._text import Lines, columnar
from .base import Parsed, Parser, Session

GROUPS = re.compile(r"^\s*procs\s+-+\s*memory")
HEADER = re.compile(r"^\s*r\s+b\s+swpd\s+")


@register
class VmstatParser(Parser):
    name = "vmstat"
    description = "vmstat: r b swpd free ... us sy id wa st, one row per interval (first row dropped: since boot)"

    def detect(self, head: str) -> str | None:
        for line in head.splitlines()[:50]:
            if HEADER.match(line):
                return "vmstat column header `r b swpd free ...`"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        names: list[str] | None = None
        stamped = False  # `vmstat -t`: each row ends with date and time under one header word
        rows: list[dict] = []
        first = None
        since_boot_dropped = False
        for no, line in lines:
            if not line.strip() or GROUPS.match(line):
                continue
            if HEADER.match(line):
                names = line.split()
                stamped = names[-1] not in KNOWN
                if stamped:
                    names = names[:-1]
                continue
            if names is None:
                raise lines.error(no, "vmstat row before the column header `r b swpd free ...`")
            values = line.split()
            if stamped:
                values = values[:-2]
            if len(values) != len(names) or not all(v.isdigit() for v in values):
                raise lines.error(no, f"not a vmstat row: expected {len(names)} whole numbers under `{' '.join(names)}`")
            if not since_boot_dropped:
                since_boot_dropped = True
                continue
            first = first or no
            rows.append(dict(zip(names, map(int, values))))
        if not rows:
            raise lines.error(0, "no vmstat rows after the since-boot row")
        for i, row in enumerate(rows, start=1):
            row["t"] = i
        session = Session(
            series=columnar(rows, ["t"] + names),
            meta={"tool": "vmstat", "t_unit": "sample", "since_boot_row": "dropped"},
            line=first,
        )
        return Parsed(self.name, file, sessions=[session], problems=lines.problems)


KNOWN = {"r", "b", "swpd", "free", "buff", "cache", "inact", "active", "si", "so", "bi", "bo",
         "in", "cs", "us", "sy", "id", "wa", "st", "gu"}
