"""F7: LinkBenchX (Percona's LinkBench fork) request phase.

The `[Printer Thread]` prints, every interval, `Events: N, concurrency (min-max): a-b,
throughput: R ops/sec` (events and rate of that interval) followed by one `Type: OP, count: ...,
Time(us) max: ..., 95th: ..., 99th: ...` line per operation (table `op-intervals`). `t` is
seconds from the start: the first line's timestamp less its own interval (events / rate).
An optional `REQUEST PHASE COMPLETED` line gives the summary. `meta.start` is that t = 0 as
a local date and time (ISO, milliseconds), as for `linkbench`.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from ingest.parse import register
from ingest.parse._linkbench import LOG, REQUEST_DONE
from ingest.parse._text import Lines, columnar, log_time, number
from ingest.parse.base import Parsed, Parser, Row, Session, Table

EVENTS = re.compile(
    r"^Events: (\d+), concurrency \(min-max\): (\d+)-(\d+), throughput: ([\d.]+) ops/sec\s*$"
)
TYPE = re.compile(
    r"^Type: (\w+), count: (\d+), conc: (\d+), qsize: (\d+), Time\(us\) max: (\d+), 95th: (\d+), 99th: (\d+)\s*$"
)
TYPE_COLUMNS = ["t", "op", "count", "conc", "qsize", "max_us", "p95_us", "p99_us"]
SERIES = ["t", "requests/s", "events", "conc_min", "conc_max"]


@register
class LinkbenchxParser(Parser):
    name = "linkbenchx"
    what = "LinkBenchX log lines"
    description = (
        "LinkBenchX request phase: `Events: ..., throughput: N ops/sec` and `Type: ...` lines"
    )

    def detect(self, head: str) -> str | None:
        for line in head.splitlines():
            m = LOG.match(line)
            if m and EVENTS.match(m["msg"]):
                return "LinkBenchX `Events: ..., throughput: N ops/sec` line"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        start: datetime | None = None
        rows: list[Row] = []
        types: list[Row] = []
        summary: dict[str, float | None] = {}
        first = types_line = 0  # the lines of the first Events and Type records
        for no, line in lines:
            m = LOG.match(line)
            if not m:  # not a log line: skipped and named; a record's words: its own warning
                if "Events: " in line or "Type: " in line or "REQUEST PHASE COMPLETED" in line:
                    lines.problem(
                        no,
                        "LinkBenchX record with an unreadable log prefix: skipped, not in the "
                        f"run: {line[:80]!r}",
                    )
                else:
                    lines.skip(no)
                continue
            msg, when = m["msg"], log_time(m["date"], m["clock"])
            if p := EVENTS.match(msg):
                events, rate = int(p[1]), number(p[4])
                if start is None:
                    first = no
                    start = when - timedelta(seconds=round(events / rate) if rate else 0)
                t = round((when - start).total_seconds(), 3)
                rows.append(
                    {
                        "t": t,
                        "requests/s": rate,
                        "events": events,
                        "conc_min": int(p[2]),
                        "conc_max": int(p[3]),
                    }
                )
            elif p := TYPE.match(msg):
                last = rows[-1]["t"] if rows else None
                types_line = types_line or no
                types.append(
                    dict(zip(TYPE_COLUMNS, [last, p[1]] + [int(v) for v in p.groups()[1:]]))
                )
            elif p := REQUEST_DONE.match(msg):
                summary = {"requests/s": int(p[3]), "requests": int(p[1]), "time_s": int(p[2])}
            elif msg.startswith(("Events:", "Type:")):
                raise lines.error(no, f"unreadable LinkBenchX record: {msg[:80]!r}")
        if start is None:  # no Events line: no rows
            raise lines.error(0, "no LinkBenchX `Events: ..., throughput: ...` lines")
        session = Session(
            series=columnar(rows, SERIES),
            metric="requests/s",
            summary=summary,
            line=first,
            meta={
                "tool": "linkbenchx",
                "phase": "request",
                "start": start.isoformat(timespec="milliseconds"),
            },
            complete=bool(summary),
        )
        tables = [Table("op-intervals", TYPE_COLUMNS, types, line=types_line)] if types else []
        return Parsed(self.name, file, sessions=[session], tables=tables, problems=lines.problems)
