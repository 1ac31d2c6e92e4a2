"""LinkBench log lines shared by the LinkBench, LinkBenchX and wrapper-summary parsers."""

from __future__ import annotations

import re

from ingest.parse._text import number
from ingest.parse.base import Row

LOG = re.compile(
    r"^(?P<level>[A-Z]+) (?P<date>\d{4}-\d\d-\d\d) (?P<clock>\d\d:\d\d:\d\d,\d{3}) \[(?P<thread>[^\]]*)\]: (?P<msg>.*)$"
)
LOAD_DONE = re.compile(
    r"^LOAD PHASE COMPLETED\.\s+Loaded (\d+) nodes \(Expected (\d+)\)\.\s+Loaded (\d+) links "
    r"\([\d.]+ links per node\)\.\s+Took ([\d.]+) seconds\.\s+Links/second = (\d+)\s*$"
)
REQUEST_DONE = re.compile(
    r"^REQUEST PHASE COMPLETED\.\s+(\d+) requests done in (\d+) seconds\.\s+"
    r"Requests/second = (\d+)\s*$"
)
OP_FINAL = re.compile(r"^([A-Z_]+) count = (\d+)(.*)$")
PAIR = re.compile(r"(\S+) = (\S+)")
RANGE = re.compile(r"(p\d+) = \[([\d.]+),([\d.]+)\]ms")
PCTS = ["p25", "p50", "p75", "p95", "p99"]
FINAL_COLUMNS = (
    ["phase", "op", "count"]
    + [f"{p}_{e}_ms" for p in PCTS for e in ("lo", "hi")]
    + ["max_ms", "mean_ms"]
)


def op_latency_row(m: re.Match[str], phase: str | None) -> Row:
    """A row of `op-latency` from an OP_FINAL match: `OP count = N  p25 = [lo,hi]ms ... mean = Xms`."""
    row = {"phase": phase, "op": m[1], "count": int(m[2])}
    for pct, lo, hi in RANGE.findall(m[3]):
        row[f"{pct}_lo_ms"], row[f"{pct}_hi_ms"] = number(lo), number(hi)
    for key, value in PAIR.findall(m[3]):
        if key in ("max", "mean"):
            row[f"{key}_ms"] = number(value.removesuffix("ms"))
    return fill(row, FINAL_COLUMNS)


def fill(row: Row, columns: list[str]) -> Row:
    """`row` with exactly `columns`, in order (a missing value is None)."""
    return {c: row.get(c) for c in columns}
