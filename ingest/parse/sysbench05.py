"""F4: sysbench 0.5 interval lines (three variants) and the 0.4/0.5 `OLTP test statistics` summary.

Interval lines (`--report-interval`), all read into t, threads, tps, reads_s, writes_s, lat_ms
(at the percentile in `meta.lat_pct`), err_s, reconn_s:
    [   5s] threads: 8, tps: 1.00, reads/s: 2.00, writes/s: 3.00 response time: 4.00ms (99%)
    [   5s] threads: 8, tps: 1.00, reads/s: 2.00, writes/s: 3.00, response time: 4.00ms (99%)
    [   2s] threads: 8, tps: 1.00, reads: 2.00, writes: 3.00, response time: 4.00ms (95%), errors: 0.00, reconnects:  0.00
The summary block gives tps, rw_s (read/write requests per second), total_time_s, lat_ms; it
is taken once the block is complete (its `execution time (avg/stddev):` line). A sysbench 0.4
file has only the summary: a session with no series. A new `sysbench 0.x` banner, or `t`
going back, starts a new session.
"""

from __future__ import annotations

import re
from typing import Any

from ingest.parse import register
from ingest.parse._text import NUMBER, Lines, columnar
from ingest.parse.base import Parsed, Parser, Row, Session

BANNER = re.compile(r"^sysbench (0\.\d[\w.-]*)")
THREADS = re.compile(r"^Number of threads: (\d+)")
INTERVAL = re.compile(
    rf"^\[\s*(?P<t>\d+)s\] threads: (?P<threads>\d+), tps: (?P<tps>{NUMBER}), reads(?:/s)?: (?P<reads>{NUMBER}), "
    rf"writes(?:/s)?: (?P<writes>{NUMBER}),? response time: (?P<lat>{NUMBER})ms \((?P<pct>\d+)%\)"
    rf"(?:, errors: (?P<err>{NUMBER}), reconnects:\s+(?P<reconn>{NUMBER}))?\s*$"
)
SERIES = ["t", "threads", "tps", "reads_s", "writes_s", "lat_ms", "err_s", "reconn_s"]
BLOCK = "OLTP test statistics:"
TRANSACTIONS = re.compile(rf"^\s+transactions:\s+\d+\s+\(({NUMBER}) per sec\.\)")
RW = re.compile(rf"^\s+read/write requests:\s+\d+\s+\(({NUMBER}) per sec\.\)")
TOTAL_TIME = re.compile(rf"^\s+total time:\s+({NUMBER})s")
PERCENTILE = re.compile(rf"^\s+approx\.\s+(\d+) percentile:\s+({NUMBER})ms")
BLOCK_END = re.compile(r"^\s+execution time \(avg/stddev\):")
# sysbench's own lines outside the interval lines and the statistics block (options,
# progress); any other line is skipped and named in one warning
KNOWN = re.compile(
    r"(Running the test with following options:|Random number generator seed |Report intermediate "
    r"|Initializing random number generator|Initializing worker threads\.\.\.|Threads started!"
    r"|Doing OLTP test|Running mixed OLTP test|Using |Maximum number of requests "
    r"|Time limit exceeded|Done\.|No DB drivers specified)"
)


def _interval(m: re.Match[str], t: int) -> Row:
    """One interval line's row."""
    return {
        "t": t,
        "threads": int(m["threads"]),
        "tps": float(m["tps"]),
        "reads_s": float(m["reads"]),
        "writes_s": float(m["writes"]),
        # nothing ran in the interval: its 0.00ms is a placeholder (missing)
        "lat_ms": float(m["lat"])
        if float(m["tps"]) or float(m["reads"]) or float(m["writes"])
        else None,
        "err_s": _opt(m["err"]),
        "reconn_s": _opt(m["reconn"]),
    }


class _Run:
    def __init__(self, line: int, meta: dict[str, Any]):
        self.line, self.meta = line, dict(meta)
        self.rows: list[Row] = []
        self.summary: dict[str, float | None] = {}
        self.block: dict[str, float] | None = None  # the summary block being read


@register
class Sysbench05Parser(Parser):
    name = "sysbench05"
    what = "sysbench 0.4/0.5 lines"
    description = (
        "sysbench 0.5 interval lines (3 variants) and 0.4/0.5 `OLTP test statistics` summaries"
    )

    def detect(self, head: str) -> str | None:
        for line in head.splitlines():
            if INTERVAL.match(line):
                return "sysbench 0.5 interval line `[ Ns] threads: N, tps: ...`"
            if line.startswith(BLOCK) or BANNER.match(line):
                return "sysbench 0.4/0.5 banner or `OLTP test statistics:` block"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        runs: list[_Run] = []
        meta: dict[str, Any] = {"tool": "sysbench"}
        run = None
        for no, line in lines:
            if m := BANNER.match(line):
                meta = {"tool": "sysbench", "version": m[1]}
                run = None
            elif m := THREADS.match(line):
                meta["threads"] = int(m[1])
            elif m := INTERVAL.match(line):
                t = int(m["t"])
                if run is None or run.summary or (run.rows and t <= run.rows[-1]["t"]):
                    run = _Run(no, meta)
                    runs.append(run)
                run.meta["lat_pct"] = int(m["pct"])
                run.rows.append(_interval(m, t))
            elif line.startswith(BLOCK):
                if run is None or run.summary:
                    run = _Run(no, meta)
                    runs.append(run)
                run.block = {}
            elif run is not None and run.block is not None:
                self._block_line(run, run.block, line)
            elif line.startswith("[") and "threads:" in line:
                raise lines.error(no, "unreadable sysbench 0.5 interval line")
            elif not KNOWN.match(line):
                lines.skip(no)
        sessions: list[Session] = []
        for run in runs:
            if not run.summary:
                lines.missing_end(
                    len(lines), "the sysbench summary (`OLTP test statistics:` block)"
                )
            sessions.append(
                Session(
                    series=columnar(run.rows, SERIES) if run.rows else {},
                    metric="tps",
                    summary=run.summary,
                    meta=run.meta,
                    line=run.line,
                    complete=bool(run.summary),
                )
            )
        sessions = [s for s in sessions if s.intervals or s.summary]
        if not sessions:
            raise lines.error(
                0, "no sysbench 0.5 interval lines and no complete `OLTP test statistics:` block"
            )
        return Parsed(self.name, file, sessions=sessions, problems=lines.problems)

    @staticmethod
    def _block_line(run: _Run, block: dict[str, float], line: str) -> None:
        """One line of `run`'s summary block (`block`, its figures so far)."""
        if m := TRANSACTIONS.match(line):
            block["tps"] = float(m[1])
        elif m := RW.match(line):
            block["rw_s"] = float(m[1])
        elif m := TOTAL_TIME.match(line):
            block["total_time_s"] = float(m[1])
        elif m := PERCENTILE.match(line):
            block["lat_ms"] = float(m[2])
            run.meta["lat_pct"] = int(m[1])
        elif BLOCK_END.match(line):
            run.summary, run.block = (
                {k: block.get(k) for k in ("tps", "rw_s", "total_time_s", "lat_ms")},
                None,
            )


def _opt(value: str | None) -> float | None:
    return None if value is None else float(value)
