"""sysbench 1.0/1.1 output: interval lines (F1) and the final summary (F3).

A file may hold several sysbench invocations; each starts with a `sysbench 1.x.y (...)`
banner and becomes one `Session`. A session is complete only when its final summary was
printed to the end (the `execution time (avg/stddev)` line of `Threads fairness`). Sessions
that died early (FATAL lines, no summary) are kept with `complete=False` and reported in
`Parsed.problems`; a session with no interval line and no summary is only reported.
Interval times are kept as printed (sysbench skips seconds when the server stalls).
A last line without its end-of-line is a cut file: it is dropped and reported. Any other line
that is neither read nor one of sysbench's own (`KNOWN`, `SUMMARY_KNOWN`: options, progress,
summary headings), such as FATAL messages or a wrapper's output, is named in one warning.
"""

from __future__ import annotations

import re
from itertools import chain
from typing import Any

from ingest.parse import register
from ingest.parse._text import skipped_problem
from ingest.parse.base import Column, Parsed, Parser, Session
from ingest.problems import Problem
from ingest.write.numbers import floats_of, ints_of

BANNER = re.compile(r"^sysbench (\d+\.\d+[\w.\-]*)")
THREADS = re.compile(r"^Number of threads: (\d+)")
REPORT_EVERY = re.compile(r"^Report intermediate results every (\d+) second")
# `[ 12s ] thds: 32 tps: 1.00 qps: 2.00 (r/w/o: 1/1/0) lat (ms,95%): 3.00 err/s 0.00 reconn/s: 0.00`
# (err/s with or without colon; `eps:` instead of tps/qps for non-SQL tests; 1.1 may add `queue:`)
# Groups: t, tps, qps, eps, lat, err, reconn (the columns of every line; fewer groups, faster findall).
# Digits are ASCII (`[0-9]`: a Unicode `\d` costs the findall a quarter more, and sysbench
# prints none other) and every repeat is possessive (`++`: what follows a number is never part
# of it, so nothing is given back), which changes no match and saves the backtracking.
INTERVAL = re.compile(
    r"^\[ *+([0-9]++(?:\.[0-9]++)?)s \] thds: [0-9]++ "
    r"(?:tps: ([0-9.]++) qps: ([0-9.]++) \(r/w/o: [0-9.]++/[0-9.]++/[0-9.]++\)|eps: ([0-9.]++))"
    r" lat \(ms,[0-9.]++%\): ([0-9.]++)"
    r"(?: err/s:? ([0-9.]++) reconn/s:? ([0-9.]++))?"
    r"(?: queue length: [0-9]++, concurrency: [0-9]++)? *+$",
    re.M,
)
# threads and latency percentile, read once per session from its first interval line
INTERVAL_HEAD = re.compile(r"thds: (\d+) .* lat \(ms,([\d.]+)%\)")
LOOKS_LIKE_INTERVAL = re.compile(r"^\[ *\d+(?:\.\d+)?s \] thds:")
# a run of consecutive lines that look like interval lines
INTERVAL_BLOCK = re.compile(r"(?:^\[ *+[0-9]++(?:\.[0-9]++)?s \] thds:[^\n]*+\n)++", re.M)
PER_SEC = re.compile(
    r"^ +(transactions|queries|ignored errors|reconnects): +(\d+) +\(([\d.]+) per sec\.\)"
)
SUMMARY_VALUE = re.compile(
    r"^ +(total time|time elapsed|total number of events|events/s \(eps\)"
    r"|min|avg|max|(\d+)th percentile|events per second): +([\d.]+)s?$"
)
SUMMARY_KEYS = {
    "transactions": "tps",
    "queries": "qps",
    "ignored errors": "err_s",
    "reconnects": "reconn_s",
    "total time": "total_time_s",
    "time elapsed": "time_elapsed_s",
    "total number of events": "events",
    "events/s (eps)": "eps",
    "events per second": "eps",
    "min": "lat_min_ms",
    "avg": "lat_avg_ms",
    "max": "lat_max_ms",
}
SUMMARY_START = ("SQL statistics:", "General statistics:", "CPU speed:", "Throughput:")
# what sysbench prints besides intervals and the figures read: options, progress, headings of
# the summary and its figures not kept; any other line is skipped and named in one warning
KNOWN = re.compile(
    r"(Running the test with following options:|Initializing random number generator from "
    r"|Initializing worker threads\.\.\.|Threads started!|Warming up|Time limit exceeded"
    r"|Done\.|Prime numbers limit: \d+|Target transaction rate: |Report checkpoint"
    r"|Additional request)"
)
SUMMARY_KNOWN = re.compile(
    r"\s*(SQL statistics|queries performed|General statistics|Latency \(ms\)|Threads fairness"
    r"|CPU speed|Throughput|File operations|(read|write|other|total|sum): +[\d.]+"
    r"|events \(avg/stddev\): |execution time \(avg/stddev\): )"
)
SUMMARY_END = "    execution time (avg/stddev):"


class Sysbench1(Parser):
    """sysbench 1.x text output (`--report-interval`), including sysbench-tpcc."""

    name = "sysbench1"
    description = "sysbench 1.0/1.1 interval lines `[ 1s ] thds: ...` and final summary (F1, F3)"

    def detect(self, head: str) -> str | None:
        for line in head.splitlines():
            if LOOKS_LIKE_INTERVAL.match(line):
                return "sysbench 1.x interval line `[ Ns ] thds:`"
        # summary-only (no --report-interval; with it, lines would be ours or CSV reports)
        if (
            re.search(r"^sysbench 1\.\d", head, re.M)
            and "Report intermediate results" not in head
            and re.search(r"^(SQL statistics|CPU speed):$", head, re.M)
        ):
            return "sysbench 1.x banner and final summary, no interval reports"
        return None

    # Subclasses (the CSV report) change only how an interval line is read: `interval_re`
    # matches one line, `columns` turns the matched groups of a session into its series.
    interval_re = INTERVAL  # one line (re.M, anchored)
    block_re = INTERVAL_BLOCK  # consecutive lines that look like interval lines

    def columns(
        self, rows: list[tuple[Any, ...]], first: str, file: str, line: int
    ) -> tuple[str, int, int | float, dict[str, Column]]:
        """(metric, threads, lat_pct, series) from the groups of a session's interval lines
        (groups a line lacks are "") and the text of its first interval line."""
        t, tps, qps, eps, lat, err, reconn = columns_of(rows)
        series = {"t": times_of(t)}
        if "" not in tps:
            metric = "tps"
            series.update(tps=floats_of(tps), qps=floats_of(qps))
        elif "" not in eps:
            metric = "eps"
            series["eps"] = floats_of(eps)
        else:
            raise Problem(file, line, "session mixes tps and eps interval lines")
        # no event (transaction) finished in the interval: the latency is of events, and
        # sysbench prints its empty histogram's 0.00, a placeholder, not a time (missing,
        # docs/formats.md "Placeholders"), even when some queries ran (`tps: 0.00 qps: 0.25`)
        if 0.0 in series[metric]:
            lat = [x if n else "" for x, n in zip(lat, series[metric])]
        series["lat_ms"] = floats_of(lat)
        if metric == "tps":
            series["err_s"], series["reconn_s"] = floats_of(err), floats_of(reconn)
        head = INTERVAL_HEAD.search(first)
        if head is None:  # `first` matched `interval_re`, which has both
            raise Problem(file, line, "interval line without its threads or latency percentile")
        thds, pct = head.groups()
        return metric, int(thds), _num(pct), series

    def is_broken_interval(self, line: str) -> bool:
        return bool(LOOKS_LIKE_INTERVAL.match(line))

    def parse(self, text: str, file: str) -> Parsed:
        out = Parsed(format=self.name, file=file)
        end = text.rfind("\n") + 1
        cut = text.count("\n", 0, end) + 1 if end < len(text) else 0  # a last line without "\n"
        body = text[:end]
        builder = _SessionBuilder(self, file, out)
        # Runs of interval lines are read with one findall each (the bulk of a file, in C);
        # the lines around them, and any run holding an unreadable line, line by line.
        no, pos = 1, 0
        for block in self.block_re.finditer(body):
            self._lines(builder, body[pos : block.start()], no)
            no += body.count("\n", pos, block.start())
            chunk = block.group()
            rows, n = self.interval_re.findall(chunk), chunk.count("\n")
            if len(rows) == n:
                builder.add_rows(no, rows, chunk[: chunk.index("\n")])
            else:
                self._lines(builder, chunk, no)
            no, pos = no + n, block.end()
        self._lines(builder, body[pos:], no)
        last_incomplete = builder.close(body.count("\n"))
        if cut and not last_incomplete:
            out.problems.append(
                Problem(file, cut, "last line has no end of line (file cut short?); ignored")
            )
        if not any(s.intervals or s.summary for s in out.sessions):
            raise Problem(
                file,
                1,
                f"no sysbench results (no interval line, no summary; {builder.count} session(s))",
            )
        return out

    def _lines(self, builder: _SessionBuilder, piece: str, no: int) -> None:
        """Feed the "\n"-terminated lines of `piece`, the first being line `no`."""
        match = self.interval_re.match
        for i, line in enumerate(piece.split("\n")[:-1], no):
            m = match(line)
            if m is None:
                builder.feed(i, line)
            else:
                builder.add_rows(i, [m.groups("")], line)


def columns_of(rows: list[tuple[Any, ...]]) -> list[list[Any]]:
    """The columns of rows of one length (regex groups): one flat list, sliced (in C; a
    `zip(*rows)` of 3,600 rows of 7 costs 2.5 times as much)."""
    width = len(rows[0])
    flat = list(chain.from_iterable(rows))
    return [flat[i::width] for i in range(width)]


def times_of(t: list[str]) -> Column:
    """Interval end times as printed: ints (`Printed`, ints_of), or floats when any has a
    fraction."""
    try:
        return ints_of(t)
    except ValueError:
        return [_num(x) for x in t]


def _num(s: str) -> int | float:
    return int(s) if s.isdigit() else float(s)


class _SessionBuilder:
    """Accumulates lines into sessions; one instance per parse."""

    def __init__(self, parser: Sysbench1, file: str, out: Parsed):
        self.p, self.file, self.out = parser, file, out
        self.count = 0
        self.cur: Session | None = None
        self.in_summary = False
        self.skipped: list[int] = []  # lines not read (`skip`), named in one warning
        self.first_skipped = ""

    def start(self, no: int, version: str | None) -> None:
        self.finish(no - 1)
        self.count += 1
        self.cur = Session(
            line=no,
            complete=False,
            meta={"tool": "sysbench", "version": version, "session": self.count},
        )
        self.rows: list[tuple[Any, ...]] = []
        self.in_summary = False
        self.summary_done = False

    def add_rows(self, no: int, rows: list[tuple[Any, ...]], first: str) -> None:
        """Interval lines (their regex groups), the first at line `no` with text `first`."""
        if self.cur is None or self.in_summary:
            self.start(no, None)  # interval lines without a banner
        if not self.rows:
            self.first = first
        self.rows.extend(rows)

    def feed(self, no: int, line: str) -> None:
        """A line that is not an interval line."""
        m = BANNER.match(line)
        if m:
            self.start(no, m.group(1))
            return
        if self.p.is_broken_interval(line):
            if self.cur is None:
                self.start(no, None)
            self.problem(no, "unreadable interval line")
            return
        if self.cur is None:
            self.skip(no, line)  # before any banner or interval line
            return
        if line.startswith(SUMMARY_START):
            self.in_summary = True
        if line.startswith("Threads started!"):
            return
        if self.in_summary:
            if not self.summary_line(self.cur, line):
                self.skip(no, line)
        elif m := THREADS.match(line):
            self.cur.meta["threads"] = int(m.group(1))
        elif m := REPORT_EVERY.match(line):
            self.cur.meta["interval_s"] = int(m.group(1))
        elif not KNOWN.match(line):
            self.skip(no, line)

    def skip(self, no: int, line: str) -> None:
        """A non-blank line not read (a FATAL message, a wrapper's line): named at the end."""
        if line.strip():
            if not self.skipped:
                self.first_skipped = line
            self.skipped.append(no)

    def summary_line(self, cur: Session, line: str) -> bool:
        """Read a line of `cur`'s final summary; False when it is none of its lines."""
        s = cur.summary
        if m := PER_SEC.match(line):
            key = SUMMARY_KEYS[m.group(1)]
            s[key] = float(m.group(3))
            if key == "tps":
                s["transactions"] = int(m.group(2))
        elif m := SUMMARY_VALUE.match(line):
            label, pct, value = m.groups()
            key = "lat_pct_ms" if pct else SUMMARY_KEYS[label]
            s[key] = int(value) if key == "events" else float(value)
            if pct:
                cur.meta["summary_lat_pct"] = int(pct)
        elif line.startswith(SUMMARY_END):
            self.summary_done = True
        else:
            return bool(SUMMARY_KNOWN.match(line))
        return True

    def problem(self, no: int, reason: str) -> None:
        self.out.problems.append(Problem(self.file, no, reason))

    def finish(self, last_no: int) -> None:
        cur = self.cur
        if cur is None:
            return
        self.cur = None
        has_rate = "tps" in cur.summary or "eps" in cur.summary
        cur.complete = self.summary_done and has_rate
        cur.metric = ("tps" if "tps" in cur.summary else "eps") if has_rate else None
        if self.rows:
            cur.metric, threads, pct, cur.series = self.p.columns(
                self.rows, self.first, self.file, cur.line
            )
            cur.meta.setdefault("threads", threads)
            cur.meta["lat_pct"] = pct
        if not self.summary_done:
            cur.summary = {}
        what = f"session {self.count} (line {cur.line})"
        if not cur.series and not cur.summary:
            self.problem(cur.line, f"{what} has no results (failed start?); skipped")
            return
        if not cur.complete:
            self.problem(
                last_no if last_no >= cur.line else cur.line,
                f"{what} ends without the final summary (interrupted or cut short): "
                f"{cur.intervals} interval(s) kept, not a complete run",
            )
        self.out.sessions.append(cur)

    def close(self, last_no: int) -> bool:
        """Finish the last session; True when it was reported incomplete. The skipped lines
        are named in one warning."""
        before = len(self.out.problems)
        self.finish(last_no)
        incomplete = len(self.out.problems) > before
        if self.skipped:
            what = f"{self.p.name} lines"
            self.out.problems.append(
                skipped_problem(self.file, self.skipped, self.first_skipped, what)
            )
        return incomplete


register(Sysbench1)
