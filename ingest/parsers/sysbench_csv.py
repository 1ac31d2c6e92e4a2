"""sysbench 1.0 `--report_csv=yes` interval lines (F2), with the usual banner and summary.

A line is `time,threads,tps,qps,reads/s,writes/s,other/s,latency_ms,err/s,reconn/s`. The
latency percentile is not printed: it is 95 (sysbench's default) unless told otherwise, so
`meta.lat_pct` is 95 and marked `lat_pct_assumed`.
"""

from __future__ import annotations

import re

from . import register
from .sysbench1 import Sysbench1, _times

NUM = r"(\d+(?:\.\d+)?)"
CSV_LINE = re.compile(r"^" + ",".join([NUM] * 10) + r"$", re.M)
LOOKS_LIKE_CSV = re.compile(r"^\d+(?:\.\d+)?,")
CSV_BLOCK = re.compile(r"(?:^\d+(?:\.\d+)?,[^\n]*\n)+", re.M)


class SysbenchCsv(Sysbench1):
    """sysbench 1.0 with `--report_csv=yes`."""

    name = "sysbench-csv"
    description = "sysbench 1.0 `--report_csv=yes` lines `1,56,356.92,...` (F2) and final summary"

    def detect(self, head: str) -> str | None:
        rows = [ln for ln in head.splitlines() if CSV_LINE.match(ln)]
        if rows and ("Threads started!" in head or len(rows) >= 3):
            return "lines of 10 comma-separated numbers (sysbench --report_csv)"
        return None

    interval_re = CSV_LINE
    block_re = CSV_BLOCK

    def columns(self, rows: list[tuple], first: str, file: str, line: int):
        t, thds, tps, qps, _r, _w, _o, lat, err, reconn = zip(*rows)
        series = {
            "t": _times(t),
            "tps": list(map(float, tps)),
            "qps": list(map(float, qps)),
            "lat_ms": list(map(float, lat)),
            "err_s": list(map(float, err)),
            "reconn_s": list(map(float, reconn)),
        }
        return "tps", int(float(thds[0])), 95, series

    def parse(self, text: str, file: str):
        out = super().parse(text, file)
        for s in out.sessions:
            if s.series:
                s.meta["lat_pct_assumed"] = True
        return out

    def is_broken_interval(self, line: str) -> bool:
        return bool(LOOKS_LIKE_CSV.match(line))


register(SysbenchCsv)
