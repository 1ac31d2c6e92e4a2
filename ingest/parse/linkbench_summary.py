"""F6 companions: the LinkBench wrapper's summary (`l.r.*`, `r.r.*`) and size (`*.sz.*`) files.

A summary file holds the phase's COMPLETED line (a summary-only session: links/s for the load,
requests/s for a request phase), the wrapper's tab-separated per-operation OS metrics
(`samp r/s rkb/s wkb/s r/q rkb/q wkb/q ips` -> table `iostat`, `samp cs/s cpu/s cs/q cpu/q` ->
table `vmstat`, /q meaning per operation), the database size before and after (`du -sh`,
table `db-size`) and, for request phases, the final per-operation latency lines (`op-latency`).
A size file holds only the `du` part. `ps` lines are skipped.
"""

from __future__ import annotations

import re

from ingest.parse import register
from ingest.parse._linkbench import (
    FINAL_COLUMNS,
    LOAD_DONE,
    LOG,
    OP_FINAL,
    REQUEST_DONE,
    op_latency_row,
)
from ingest.parse._text import Lines, number
from ingest.parse.base import Parsed, Parser, Session, Table

TAB_HEADER = re.compile(r"^samp\t\S+")
WHEN = re.compile(r"^(before|after) (/\S*)$")
DU = re.compile(r"^(\d+(?:\.\d+)?)([KMGTPE]?)\t(\S.*)$")
DU_COLUMNS = ["when", "path", "size", "bytes"]
POWERS = {"": 0, "K": 1, "M": 2, "G": 3, "T": 4, "P": 5, "E": 6}


def read_du(lines: Lines) -> Table | None:
    """Table `db-size`: the `before <dir>` / `after <dir>` blocks of `du -sh` output (1024 units)."""
    rows, when, first = [], None, None
    for no, line in lines:
        if m := WHEN.match(line):
            when = m[1]
        elif when and (m := DU.match(line)):
            bytes_ = round(float(m[1]) * 1024 ** POWERS[m[2]])
            rows.append({"when": when, "path": m[3], "size": m[1] + m[2], "bytes": bytes_})
            first = first or no
    return Table("db-size", DU_COLUMNS, rows, line=first or 1) if rows else None


@register
class LinkbenchSummaryParser(Parser):
    name = "linkbench-summary"
    what = "LinkBench wrapper summary lines"
    description = "LinkBench wrapper summary: COMPLETED line, per-op iostat/vmstat blocks, db size, op latency"

    def detect(self, head: str) -> str | None:
        if any(TAB_HEADER.match(line) for line in head.splitlines()):
            return "LinkBench wrapper summary (`samp\\tr/s\\t...` block)"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        sessions, tables, header, ops, ops_line = [], [], None, [], None
        for no, line in lines:
            m = LOG.match(line)
            msg = m["msg"] if m else ""
            if p := LOAD_DONE.match(msg):
                sessions.append(
                    Session(
                        metric="links/s",
                        line=no,
                        meta={"tool": "linkbench", "phase": "load"},
                        summary={
                            "links/s": int(p[5]),
                            "links": int(p[3]),
                            "nodes": int(p[1]),
                            "time_s": float(p[4]),
                        },
                    )
                )
            elif p := REQUEST_DONE.match(msg):
                sessions.append(
                    Session(
                        metric="requests/s",
                        line=no,
                        meta={"tool": "linkbench", "phase": "request"},
                        summary={
                            "requests/s": int(p[3]),
                            "requests": int(p[1]),
                            "time_s": int(p[2]),
                        },
                    )
                )
            elif p := OP_FINAL.match(msg):
                ops.append(op_latency_row(p, sessions[-1].meta["phase"] if sessions else None))
                ops_line = ops_line or no
            elif TAB_HEADER.match(line):
                header = (no, line.split("\t"))
            elif header:
                start, names = header
                values = line.split("\t")
                if len(values) != len(names):
                    raise lines.error(
                        no, f"expected {len(names)} tab-separated values under `{' '.join(names)}`"
                    )
                try:
                    row = dict(zip(names, map(number, values)))
                except ValueError:
                    raise lines.error(no, "the wrapper's summary values must be numbers") from None
                name = "vmstat" if "cs/s" in names else "iostat"
                tables.append(Table(name, names, [row], line=start))
                header = None
            elif not m and not (WHEN.match(line) or DU.match(line)):  # (du lines: read_du)
                lines.skip(no)
        if sizes := read_du(lines):
            tables.append(sizes)
        if ops:
            tables.append(Table("op-latency", FINAL_COLUMNS, ops, line=ops_line or 1))
        if not sessions:
            raise lines.error(0, "no LOAD/REQUEST PHASE COMPLETED line in the LinkBench summary")
        return Parsed(self.name, file, sessions=sessions, tables=tables, problems=lines.problems)


@register
class DbSizeParser(Parser):
    name = "db-size"
    description = (
        "database size before/after a run: `before <dir>` / `after <dir>` blocks of `du -sh` lines"
    )

    def detect(self, head: str) -> str | None:
        first = head.splitlines()[:2]
        if len(first) == 2 and WHEN.match(first[0]) and DU.match(first[1]):
            return "`before <dir>` followed by a `du -sh` line"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        sizes = read_du(lines)
        if sizes is None:
            raise lines.error(0, "no `before <dir>` / `after <dir>` du blocks")
        return Parsed(self.name, file, tables=[sizes], problems=lines.problems)
