"""F6: LinkBench (original) client logs, load and request phases.

LinkBench prints cumulative progress, so per-interval rates are differences of successive
(timestamp, count) pairs:
- load: `N/M id1s loaded ... L links loaded at R links/sec avg.`; the first interval starts at
  the tool's own start, first timestamp - L/R;
- request: `Requester #i N/M requests done` per requester, every `displayfreq` seconds, summed
  over requesters round by round (a round is complete when every requester has reported);
  the first interval starts at the end of the warm-up (`warmup finished ... 0/M requests done`),
  or at the requester's start when there is no warm-up. Warm-up lines are not part of the run.
  Without requester lines, `N/M requests finished ... T/L secs elapsed` lines are used instead.
Per-operation latency goes to two tables: `op-intervals` (`ThreadID = ...` lines, one row per
thread, op and interval; microseconds, except RANGE_SIZE and *_NLINKS which are sizes) and
`op-latency` (the final `OP count = ... p50 = [lo,hi]ms ... mean = Xms` lines, as printed).
`LOAD PHASE COMPLETED` / `REQUEST PHASE COMPLETED` give the summaries. JVM and driver noise
(`WARN ...`, `OpenJDK ... warning`, wrapper lines: not log lines) is skipped and named in one
warning; a line holding a record's words whose log prefix is unreadable (a 9-digit fraction of
a second, a two-digit year) is a warning of its own, as its counts are not in the run.

`meta.start` is the phase's t = 0 as a local date and time (ISO, milliseconds; log4j prints no
zone): the load's first progress line less its elapsed time (links / average rate), the
request phase's end of warm-up (or requester start, or first `requests finished` line less its
elapsed seconds). `meta.phase_start_s` / `meta.phase_end_s`: the first `Requester thread #i
started` line (the warm-up's start, negative) and the `PHASE COMPLETED` line, in seconds of
the run's clock: where monitors started beside the phase sit (`offset_s: phase-start`). Every `t` of the series is seconds after it, so OS samples with their own
time stamps join the run at `time - start` (`ingest.linked`).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from ingest.parse import register
from ingest.parse._linkbench import (
    FINAL_COLUMNS,
    LOAD_DONE,
    LOG,
    OP_FINAL,
    PAIR,
    REQUEST_DONE,
    fill,
    op_latency_row,
)
from ingest.parse._text import Lines, columnar, log_time, number, rate
from ingest.parse.base import Column, Parsed, Parser, Row, Session, Table

LOAD_PROGRESS = re.compile(
    r"^(\d+)/(\d+) id1s loaded \(([\d.]+)% complete\) at ([\d.]+) id1s/sec avg\. "
    r"(\d+) links loaded at ([\d.]+) links/sec avg\.$"
)
STARTED = re.compile(r"^Requester thread #(\d+) started")
WARMING = re.compile(r"^Requester #(\d+) warming up\.")
WARMED = re.compile(
    r"^Requester #(\d+) warmup finished\s+after (\d+) warmup requests\.\s+(\d+)/(\d+) requests done$"
)
REQUESTER = re.compile(r"^Requester #(\d+) (\d+)/(\d+) requests done$")
FINISHED = re.compile(
    r"^(\d+)/(\d+) requests finished: [\d.]+% complete at [\d.]+ ops/sec ([\d.]+)/(\d+) secs elapsed"
)
THREAD_TOTAL = re.compile(r"^ThreadID = \d+ total requests = \d+ requests/second = \d+")
THREAD_STATS = re.compile(r"^ThreadID = (\d+) ([A-Z_]+) (totalOps = .*)$")
# words that only appear in record lines: such a line that does not parse is an error, not noise
RECORD_WORDS = (
    "id1s loaded",
    "requests done",
    "PHASE COMPLETED",
    "ThreadID = ",
    " count = ",
    "requests finished",
)

STAT_KEYS = {
    "totalOps": "total_ops",
    "totalErrors": "errors",
    "ops": "ops",
    "sampleDuration": "sample_ms",
    "samples": "samples",
    "mean": "mean",
    "min": "min",
    "25%": "p25",
    "50%": "p50",
    "75%": "p75",
    "90%": "p90",
    "95%": "p95",
    "99%": "p99",
    "max": "max",
}
SIZE_OPS = {"RANGE_SIZE"}  # sizes, not latencies (and *_NLINKS)
INTERVAL_COLUMNS = ["phase", "t", "thread", "op"] + list(STAT_KEYS.values())


class _Phase:
    """Cumulative (time, count) points of one phase and what was said about it."""

    def __init__(self, name: str, line: int):
        self.name, self.line = name, line
        self.start: datetime | None = None
        self.points: list[tuple[float, int]] = []  # (seconds from start, cumulative count)
        self.extra: list[Row] = []  # per-point extra columns
        self.summary: dict[str, Any] = {}
        self.began: datetime | None = (
            None  # the first `Requester thread #i started` (before any warm-up)
        )
        self.ended: datetime | None = None  # the `... PHASE COMPLETED` line
        self.meta: dict[str, Any] = {"tool": "linkbench", "phase": name}

    def since_start(self, when: datetime) -> float | None:
        return None if self.start is None else _seconds(self.start, when)


def _seconds(start: datetime, when: datetime) -> float:
    """Seconds from `start` to `when`, to the millisecond."""
    return round((when - start).total_seconds(), 3)


class _Log:
    """One LinkBench log being read, a log line's message at a time: its load and request
    phases, each requester's reports, the `requests finished` lines, the per-op rows and the
    line of each table's first row."""

    def __init__(self, lines: Lines):
        self.lines = lines
        self.load: _Phase | None = None
        self.request: _Phase | None = None
        self.current: _Phase | None = None  # the phase the per-op lines belong to
        self.rounds: dict[int, list[tuple[datetime, int]]] = {}  # requester -> (time, count)s
        self.base: dict[int, datetime] = {}  # requester -> start of its measured run
        self.finished: list[tuple[datetime, float, int]] = []  # (time, seconds elapsed, requests)
        self.op_intervals: list[Row] = []
        self.op_final: list[Row] = []
        self.starts: dict[str, int] = {}  # table name -> line of its first row

    def record(self, no: int, msg: str, when: datetime) -> None:
        """One log line's message, read by the first pattern that matches it; a message with a
        record's words that none reads is an error, anything else is not a record."""
        for pattern, read in self.RECORDS:
            if p := pattern.match(msg):
                read(self, no, when, p)
                return
        if any(w in msg for w in RECORD_WORDS):
            raise self.lines.error(no, f"unreadable LinkBench record: {msg[:80]!r}")

    def _requesting(self, no: int) -> _Phase:
        """The request phase (begun at line `no` if it is its first line), now the current one."""
        self.request = self.current = self.request or _Phase("request", no)
        return self.request

    def _load_progress(self, no: int, when: datetime, p: re.Match[str]) -> None:
        load = self.load
        if load is None:
            load = self.load = self.current = _Phase("load", no)
            links, avg = int(p[5]), float(p[6])
            if avg > 0:
                load.start = when - timedelta(seconds=links / avg)
                load.points.append((0.0, 0))
                load.extra.append({"ids": 0})
            else:
                load.start = when
        elif load.start is None:
            raise self.lines.error(
                no,
                "LinkBench load progress after the LOAD PHASE COMPLETED line (lines out of order?)",
            )
        load.points.append((_seconds(load.start, when), int(p[5])))
        load.extra.append({"ids": int(p[1])})
        load.meta["ids_expected"] = int(p[2])

    def _load_done(self, no: int, when: datetime, p: re.Match[str]) -> None:
        self.load = self.load or _Phase("load", no)
        self.load.ended = when
        self.load.summary = {
            "links/s": int(p[5]),
            "links": int(p[3]),
            "nodes": int(p[1]),
            "time_s": float(p[4]),
        }

    def _started(self, no: int, when: datetime, p: re.Match[str]) -> None:
        request = self._requesting(no)
        request.began = request.began or when
        self.base.setdefault(int(p[1]), when)
        self.rounds.setdefault(int(p[1]), [])

    def _not_a_count(self, no: int, when: datetime, p: re.Match[str]) -> None:
        """`warming up` and the per-thread totals: log lines that add nothing to the run."""

    def _warmed(self, no: int, when: datetime, p: re.Match[str]) -> None:
        request = self._requesting(no)
        self.base[int(p[1])] = when
        self.rounds.setdefault(int(p[1]), [])
        request.meta["warmup_requests"] = request.meta.get("warmup_requests", 0) + int(p[2])

    def _requester(self, no: int, when: datetime, p: re.Match[str]) -> None:
        self._requesting(no)
        self.rounds.setdefault(int(p[1]), []).append((when, int(p[2])))

    def _finished(self, no: int, when: datetime, p: re.Match[str]) -> None:
        self._requesting(no)
        self.finished.append((when, float(p[3]), int(p[1])))

    def _request_done(self, no: int, when: datetime, p: re.Match[str]) -> None:
        self.request = self.request or _Phase("request", no)
        self.request.ended = when
        self.request.summary = {
            "requests/s": int(p[3]),
            "requests": int(p[1]),
            "time_s": int(p[2]),
        }

    def _thread_stats(self, no: int, when: datetime, p: re.Match[str]) -> None:
        row = {
            STAT_KEYS[k]: number(v.removesuffix("ms"))
            for k, v in PAIR.findall(p[3])
            if k in STAT_KEYS
        }
        if len(row) != len(STAT_KEYS):
            raise self.lines.error(
                no, "LinkBench `ThreadID = ...` line without all of " + ", ".join(STAT_KEYS)
            )
        self.op_intervals.append(
            dict(row, phase=self.current, when=when, thread=int(p[1]), op=p[2])
        )
        self.starts.setdefault("op-intervals", no)

    def _op_final(self, no: int, when: datetime, p: re.Match[str]) -> None:
        self.op_final.append(op_latency_row(p, self.current.name if self.current else None))
        self.starts.setdefault("op-latency", no)

    # in this order: the first pattern that matches a message reads it
    RECORDS = (
        (LOAD_PROGRESS, _load_progress),
        (LOAD_DONE, _load_done),
        (STARTED, _started),
        (WARMING, _not_a_count),
        (THREAD_TOTAL, _not_a_count),
        (WARMED, _warmed),
        (REQUESTER, _requester),
        (FINISHED, _finished),
        (REQUEST_DONE, _request_done),
        (THREAD_STATS, _thread_stats),
        (OP_FINAL, _op_final),
    )


@register
class LinkbenchParser(Parser):
    name = "linkbench"
    what = "LinkBench log lines"
    description = "LinkBench client log: load (links/s) and request (requests/s) phases, per-op latency tables"

    def detect(self, head: str) -> str | None:
        for line in head.splitlines():
            m = LOG.match(line)
            if m and any(
                r.match(m["msg"])
                for r in (LOAD_PROGRESS, REQUESTER, WARMING, FINISHED, LOAD_DONE, REQUEST_DONE)
            ):
                return "LinkBench log line (`id1s loaded`, `Requester #i`, `PHASE COMPLETED`)"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        log = _Log(lines)
        for no, line in lines:
            m = LOG.match(line)
            if m:
                log.record(no, m["msg"], log_time(m["date"], m["clock"]))
            elif any(w in line for w in RECORD_WORDS):  # a record with a bad time stamp
                lines.problem(
                    no,
                    "LinkBench record with an unreadable log prefix (level, date, "
                    f"time or thread): skipped, its counts are not in the run: {line[:80]!r}",
                )
            else:  # JVM, driver and wrapper noise (skipped, named in one warning)
                lines.skip(no)
        load, request, op_intervals = log.load, log.request, log.op_intervals
        if request is not None:
            self._request_points(request, log.rounds, log.base, log.finished)
        for row in op_intervals:  # on the clock of their phase, known now
            phase = row.pop("phase")
            row.update(phase=phase and phase.name, t=phase and phase.since_start(row.pop("when")))
        sessions = [self._session(p, lines) for p in (load, request) if p is not None]
        if request is not None:
            self._op_columns(sessions[-1], [r for r in op_intervals if r["phase"] == "request"])
        tables = [
            Table(
                "op-intervals",
                INTERVAL_COLUMNS,
                [fill(r, INTERVAL_COLUMNS) for r in op_intervals],
                line=log.starts.get("op-intervals", 1),
            ),
            Table("op-latency", FINAL_COLUMNS, log.op_final, line=log.starts.get("op-latency", 1)),
        ]
        tables = [t for t in tables if t.rows]
        if not any(s.intervals or s.summary for s in sessions):
            raise lines.error(0, "no LinkBench progress or PHASE COMPLETED lines")
        return Parsed(self.name, file, sessions=sessions, tables=tables, problems=lines.problems)

    @staticmethod
    def _request_points(
        phase: _Phase,
        rounds: dict[int, list[tuple[datetime, int]]],
        base: dict[int, datetime],
        finished: list[tuple[datetime, float, int]],
    ) -> None:
        """Cumulative (t, requests) points: requester rounds summed, else `requests finished` lines."""
        reporting = sorted(rounds)
        complete = min((len(rounds[r]) for r in reporting), default=0)
        if complete:
            phase.meta["requesters"] = len(reporting)
            if all(r in base for r in reporting):
                phase.start = max(base[r] for r in reporting)
                phase.points.append((0.0, 0))
            else:
                phase.start = max(rounds[r][0][0] for r in reporting)
            for k in range(complete):
                when = max(rounds[r][k][0] for r in reporting)
                phase.points.append(
                    (_seconds(phase.start, when), sum(rounds[r][k][1] for r in reporting))
                )
        elif finished:
            phase.meta["source"] = "requests finished"
            phase.start = finished[0][0] - timedelta(seconds=finished[0][1])
            phase.points = [(0.0, 0)] + [(elapsed, count) for _, elapsed, count in finished]
        phase.extra = [{} for _ in phase.points]

    @staticmethod
    def _op_columns(session: Session, rows: list[Row]) -> None:
        """The request run's latency and errors as series columns, from its `ThreadID` rows.

        The k-th line of a (thread, op) is stats round k; a round (every thread's lines, a few
        ms apart) is joined to the progress row whose `t` is nearest its last line's `t`, when
        they are at most half the run's interval apart and no other round is nearer that row (LinkBench prints the stats just before
        the progress line of the same 10 s). A round with no such row (the last, partial one,
        printed at the end of the phase after the last progress line) is left out, and `meta.
        op_stats` says which and how far the joined rounds were from their rows' `t`.
        Columns: `lat.<OP>.p95` and `lat.<OP>.mean` in ms (the log prints microseconds; p95 only
        when one thread ran the op, as threads' percentiles cannot be combined; the mean is
        weighted by each thread's ops), ops ordered by their count in the run, most first, and
        `err_s`: the rise of `totalErrors` (cumulative from the end of the warm-up), summed over
        threads and ops, per second of each thread's `sampleDuration`.
        """
        series_t = session.series.get("t") or []
        rows = [
            r
            for r in rows
            if r["t"] is not None and r["op"] not in SIZE_OPS and not r["op"].endswith("_NLINKS")
        ]
        if not rows or not series_t:
            return
        rounds = _rounds(rows)
        stats, left_out = _join_rounds(rounds, series_t)
        counts: dict[str, int] = {}
        for r in rows:
            counts[r["op"]] = counts.get(r["op"], 0) + (r["ops"] or 0)
        ops = sorted(counts, key=lambda op: -counts[op])
        one_thread = len({r["thread"] for r in rows}) == 1
        names = [
            n for op in ops for n in ([f"lat.{op}.p95"] if one_thread else []) + [f"lat.{op}.mean"]
        ] + ["err_s"]
        columns: dict[str, Column] = {n: [None] * len(series_t) for n in names}
        for i, (_, _, group, errors) in stats.items():
            for op in ops:
                mine = [r for r in group if r["op"] == op]
                done = sum(r["ops"] or 0 for r in mine)
                # an op none of which ran in the round prints its empty histogram's 0 (missing)
                if one_thread and mine and done:
                    columns[f"lat.{op}.p95"][i] = round(mine[0]["p95"] / 1000, 6)
                if done:
                    columns[f"lat.{op}.mean"][i] = round(
                        sum(r["mean"] * r["ops"] for r in mine) / done / 1000, 6
                    )
            sample_s = {r["thread"]: r["sample_ms"] / 1000 for r in group}
            if all(s > 0 for s in sample_s.values()):
                columns["err_s"][i] = round(sum(e / sample_s[th] for th, e in errors.items()), 3)
        offsets = [v[1] for v in stats.values()]
        if stats:  # no round joined: no columns of None
            session.series.update(columns)
        session.meta["op_stats"] = {
            "rounds": len(rounds),
            "joined": len(offsets),
            "progress_minus_stats_s": [min(offsets), max(offsets)] if offsets else None,
            "left_out_t": sorted(left_out),
        }

    @staticmethod
    def _session(phase: _Phase, lines: Lines) -> Session:
        metric = "links/s" if phase.name == "load" else "requests/s"
        rows = []
        for (t0, c0), (t1, c1), e0, e1 in zip(
            phase.points, phase.points[1:], phase.extra, phase.extra[1:]
        ):
            row = {"t": t1, metric: rate(c1 - c0, t1 - t0)}
            if "ids" in e1:
                row["id1s/s"] = rate(e1["ids"] - e0["ids"], t1 - t0)
            rows.append(row)
        columns = ["t", metric] + (["id1s/s"] if phase.name == "load" else [])
        steps = sorted(b[0] - a[0] for a, b in zip(phase.points, phase.points[1:]))
        if steps:
            phase.meta["interval_s"] = round(steps[len(steps) // 2], 1)
            # progress lines come when a count is reached, not on a clock: intervals differ in
            # length, so a run's mean rate is weighted by them (ingest/join/stats.py)
            phase.meta["intervals"] = "uneven"
        if phase.start is not None:
            phase.meta["start"] = phase.start.isoformat(timespec="milliseconds")
            # where the phase itself began and ended on the run's clock: a request phase begins
            # with its warm-up (negative), which the run's t = 0 excludes (docs/formats.md F6)
            if phase.began is not None:
                phase.meta["phase_start_s"] = phase.since_start(phase.began)
            if phase.ended is not None:
                phase.meta["phase_end_s"] = phase.since_start(phase.ended)
        if not phase.summary:
            lines.missing_end(
                len(lines), f"the LinkBench {phase.name.upper()} PHASE COMPLETED line"
            )
        return Session(
            series=columnar(rows, columns),
            metric=metric,
            summary=phase.summary or {},
            meta=phase.meta,
            line=phase.line,
            complete=bool(phase.summary),
        )


def _rounds(rows: list[Row]) -> dict[int, list[Row]]:
    """The `ThreadID` rows by stats round: the k-th line of a (thread, op) is round k."""
    seen: dict[tuple[int, str], int] = {}
    rounds: dict[int, list[Row]] = {}
    for r in rows:
        k = seen[(r["thread"], r["op"])] = seen.get((r["thread"], r["op"]), -1) + 1
        rounds.setdefault(k, []).append(r)
    return rounds


def _join_rounds(
    rounds: dict[int, list[Row]], series_t: Column
) -> tuple[dict[int, tuple[float, float, list[Row], dict[int, int]]], list[float]]:
    """({progress row: (|offset|, offset, round, errors per thread)}, the `t` of the rounds
    left out): each round joined to the progress row nearest its last line, when at most half
    the median interval away and no other round is nearer that row. A round's errors are the
    rise of each thread's `totalErrors` since the round before."""
    steps = sorted(b - a for a, b in zip([0.0] + series_t, series_t))
    half = steps[len(steps) // 2] / 2
    prev_errors: dict[tuple[int, str], int] = {}
    stats: dict[int, tuple[float, float, list[Row], dict[int, int]]] = {}
    left_out = []
    for k in sorted(rounds):
        group = rounds[k]
        errors: dict[int, int] = {}
        for r in group:
            errors[r["thread"]] = (
                errors.get(r["thread"], 0)
                + r["errors"]
                - prev_errors.get((r["thread"], r["op"]), 0)
            )
            prev_errors[(r["thread"], r["op"])] = r["errors"]
        when = max(r["t"] for r in group)
        i = min(range(len(series_t)), key=lambda j: abs(series_t[j] - when))
        offset = round(series_t[i] - when, 3)
        if abs(offset) > half:
            left_out.append(when)
        elif i in stats and stats[i][0] <= abs(offset):
            left_out.append(when)  # a nearer round has this row
        else:
            if i in stats:
                left_out.append(round(series_t[i] - stats[i][1], 3))
            stats[i] = (abs(offset), offset, group, errors)
    return stats, left_out
