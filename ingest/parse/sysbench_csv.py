"""sysbench 1.0 `--report_csv=yes` interval lines (F2), with the usual banner and summary.

A line is `time,threads,tps,qps,reads/s,writes/s,other/s,latency_ms,err/s,reconn/s`. The
latency percentile is not printed: it is 95 (sysbench's default) unless told otherwise, so
`meta.lat_pct` is 95 and marked `lat_pct_assumed`.
"""

from __future__ import annotations

import re
from typing import Any

from ingest.parse import register
from ingest.parse.base import Column, Parsed
from ingest.parse.sysbench1 import Sysbench1, columns_of, times_of
from ingest.write.numbers import floats_of

NUM = r"([0-9]++(?:\.[0-9]++)?)"  # ASCII digits, possessive: as sysbench1.INTERVAL
CSV_LINE = re.compile(r"^" + ",".join([NUM] * 10) + r"$", re.M)
LOOKS_LIKE_CSV = re.compile(r"^\d+(?:\.\d+)?,")
CSV_BLOCK = re.compile(r"(?:^[0-9]++(?:\.[0-9]++)?,[^\n]*+\n)++", re.M)


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

    def columns(
        self, rows: list[tuple[Any, ...]], first: str, file: str, line: int
    ) -> tuple[str, int, int, dict[str, Column]]:
        t, thds, tps, qps, _r, _w, _o, lat, err, reconn = columns_of(rows)
        series = {
            "t": times_of(t),
            "tps": floats_of(tps),
            "qps": floats_of(qps),
            "lat_ms": floats_of(lat),
            "err_s": floats_of(err),
            "reconn_s": floats_of(reconn),
        }
        return "tps", int(float(thds[0])), 95, series

    def parse(self, text: str, file: str) -> Parsed:
        out = super().parse(text, file)
        for s in out.sessions:
            if s.series:
                s.meta["lat_pct_assumed"] = True
        return out

    def is_broken_interval(self, line: str) -> bool:
        return bool(LOOKS_LIKE_CSV.match(line))


register(SysbenchCsv)
