"""F5: tpcc-mysql (`tpcc_start`) output.

After `MEASURING START.`, one line per interval: elapsed seconds, New-Order transactions in
the interval (`trx`), their 95th/99th percentile and max response time (ms; some builds print
`95:` without `%`), then `count|max_rt` for Payment, Order-Status, Delivery and Stock-Level.
`<TpmC>` and the value on the next line give the summary: `tpmC`, and `trx`, the same rate as
New-Order transactions per interval (tpmC / 60 x interval), so it compares with the series.
The banner, the parameters and the end report (after `STOPPING THREADS`: raw results and
constraint checks, of which only `<TpmC>` is read) are the tool's own; any other line not read
(a wrapper's output) is named in one warning.
"""

from __future__ import annotations

import re
from typing import Any

from ingest.parse import register
from ingest.parse._text import NUMBER, Lines, columnar
from ingest.parse.base import Parsed, Parser, Row, Session

PAIR = rf"(\d+)\|({NUMBER})"
INTERVAL = re.compile(
    rf"^\s*(\d+), trx: (\d+), 95%?: ({NUMBER}), 99%?: ({NUMBER}), max_rt: ({NUMBER}), "
    rf"{PAIR}, {PAIR}, {PAIR}, {PAIR}\s*$"
)
OTHERS = ["payment", "order_status", "delivery", "stock_level"]
SERIES = ["t", "trx", "p95_ms", "p99_ms", "max_rt_ms"] + [
    c for o in OTHERS for c in (o, f"{o}_max_rt_ms")
]
PARAM = re.compile(r"^\s*\[(warehouse|connection|rampup|measure)\]:\s*(\d+)")
TPMC = re.compile(rf"^\s*({NUMBER}) TpmC\s*$")
# the banner and the parameters tpcc_start prints (its end report, after STOPPING THREADS, is
# known as a whole); anything else not read is skipped and named in one warning
KNOWN = re.compile(
    r"(\*+$|\*\*\* .* \*\*\*$|option \w+ with value |<Parameters>|\s*\[\w+\]:|RAMP-UP TIME"
    r"|STOPPING THREADS)"
)


def _interval(m: re.Match[str]) -> Row:
    """One interval line's values. A response time of a transaction type none of which
    completed in the interval (`trx: 0, 95%: 0.000`, `0|0.000`) is the tool's placeholder for
    an empty histogram, not 0 ms: missing (None)."""
    trx = int(m[2])
    row: Row = {"t": int(m[1]), "trx": trx}
    row.update((k, float(v) if trx else None) for k, v in zip(SERIES[2:5], (m[3], m[4], m[5])))
    pairs = m.groups()[5:]
    for i, other in enumerate(OTHERS):
        count = int(pairs[2 * i])
        row[other] = count
        row[f"{other}_max_rt_ms"] = float(pairs[2 * i + 1]) if count else None
    return row


@register
class TpccMysqlParser(Parser):
    name = "tpcc-mysql"
    what = "tpcc-mysql lines"
    description = (
        "tpcc-mysql: `N, trx: ..., 95%: ...` interval lines after MEASURING START, <TpmC> summary"
    )

    def detect(self, head: str) -> str | None:
        for line in head.splitlines():
            if (
                line.startswith("MEASURING START")
                or INTERVAL.match(line)
                or "TPC-C Load Generator" in line
            ):
                return "tpcc-mysql output (`MEASURING START.` or `N, trx: ...` lines)"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        meta: dict[str, Any] = {"tool": "tpcc-mysql"}
        rows, summary, first, measuring, tpmc_next = [], {}, None, False, False
        report = False  # in the end report (raw results, constraint checks): the tool's own
        for no, line in lines:
            if m := PARAM.match(line):
                meta[m[1]] = int(m[2])
            elif line.startswith("MEASURING START"):
                measuring, first = True, no
            elif m := INTERVAL.match(line):
                if not measuring:
                    raise lines.error(no, "tpcc-mysql interval line before `MEASURING START.`")
                rows.append(_interval(m))
            elif line.startswith("STOPPING THREADS"):
                report, measuring = True, False
            elif line.strip() == "<TpmC>":
                tpmc_next = True
            elif tpmc_next and line.strip():
                if not (m := TPMC.match(line)):
                    raise lines.error(no, "expected `<number> TpmC` after `<TpmC>`")
                summary["tpmC"] = float(m[1])
                tpmc_next = False
            elif measuring and re.match(r"^\s*\d+, ", line):
                raise lines.error(no, "unreadable tpcc-mysql interval line")
            elif not (report or KNOWN.match(line)):
                lines.skip(no)
        session = _session(lines, rows, summary, meta, first)
        return Parsed(self.name, file, sessions=[session], problems=lines.problems)


def _session(
    lines: Lines, rows: list[Any], summary: dict[str, Any], meta: dict[str, Any], first: int | None
) -> Session:
    """The run: its intervals and the <TpmC> summary (as `trx` per interval too), complete
    when the summary is there (its absence is a warning); an error when neither is."""
    if not rows and not summary:
        raise lines.error(0, "no tpcc-mysql interval lines and no <TpmC> summary")
    if rows:
        t = [r["t"] for r in rows]
        meta["interval_s"] = t[1] - t[0] if len(t) > 1 else t[0]
        if summary:
            summary["trx"] = round(summary["tpmC"] / 60 * meta["interval_s"], 3)
    if not summary:
        lines.missing_end(len(lines), "the <TpmC> summary")
    return Session(
        series=columnar(rows, SERIES) if rows else {},
        metric="trx",
        summary=summary,
        meta=meta,
        line=first or 1,
        complete=bool(summary),
    )
