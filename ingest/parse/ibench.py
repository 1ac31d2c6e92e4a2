"""F8: insert benchmark client (iibench.py) interval output, 2017 and current forms.

2017 form: header `#rows #seconds #total_seconds cum_ips table_size last_ips #queries cum_qps
last_qps`, nine numbers per line, then `Totals: S secs, R rows/sec, N rows` (the summary) and
`Done`. Current form: a tab-separated header `i_sec t_sec i_ips t_ips ...` and one row per
interval; it prints no summary line (the cumulative rates are in the series as *_cum).
Both give `t` (total seconds at the end of the interval) and `ips`, the interval insert rate.
"""

from __future__ import annotations

import re

from ingest.parse import register
from ingest.parse._text import NUMBER, Lines, columnar, number
from ingest.parse.base import Parsed, Parser, Row, Session

OLD_HEADER = (
    "#rows #seconds #total_seconds cum_ips table_size last_ips #queries cum_qps last_qps".split()
)
OLD_NAMES = ["rows", "interval_s", "t", "ips_cum", "table_size", "ips", "queries", "qps_cum", "qps"]
OLD_SERIES = [
    "t",
    "ips",
    "qps",
    "interval_s",
    "rows",
    "table_size",
    "ips_cum",
    "queries",
    "qps_cum",
]
NEW_HEADER = (
    "i_sec t_sec i_ips t_ips i_dps t_dps i_qps t_qps max_i max_d max_q "
    "t_ins t_del t_query retry_i retry_d retry_q"
).split()
NEW_NAMES = {
    "i_sec": "interval_s",
    "t_sec": "t",
    "i_ips": "ips",
    "t_ips": "ips_cum",
    "i_dps": "dps",
    "t_dps": "dps_cum",
    "i_qps": "qps",
    "t_qps": "qps_cum",
    "t_ins": "inserts",
    "t_del": "deletes",
    "t_query": "queries",
}
TOTALS = re.compile(rf"^Totals: ({NUMBER}) secs, ({NUMBER}) rows/sec, (\d+) rows\s*$")
ROW = re.compile(rf"^\s*{NUMBER}(?:\s+{NUMBER})*\s*$")


@register
class IbenchParser(Parser):
    name = "ibench"
    description = "insert benchmark (iibench.py) intervals: 2017 `#rows #seconds ...` form and `i_sec t_sec ...` form"

    def detect(self, head: str) -> str | None:
        for line in head.splitlines():
            if line.split() in (OLD_HEADER, NEW_HEADER):
                return f"insert benchmark header `{' '.join(line.split()[:3])} ...`"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        runs: list[tuple[Session, list[str], list[Row]]] = []  # session, columns, rows
        for no, line in lines:
            words = line.split()
            if words in (OLD_HEADER, NEW_HEADER):
                old = words == OLD_HEADER
                names = OLD_NAMES if old else [NEW_NAMES.get(w, w) for w in words]
                columns = (
                    OLD_SERIES
                    if old
                    else ["t", "ips", "qps", "dps"]
                    + [n for n in names if n not in ("t", "ips", "qps", "dps")]
                )
                session = Session(
                    metric="ips",
                    line=no,
                    complete=not old,
                    meta={"tool": "ibench", "form": "2017" if old else "current"},
                )
                runs.append((session, columns, []))
            elif m := TOTALS.match(line):
                if not runs:
                    raise lines.error(no, "`Totals:` before any insert benchmark header")
                runs[-1][0].summary = {
                    "ips": number(m[2]),
                    "total_time_s": number(m[1]),
                    "rows": int(m[3]),
                }
            elif line.strip() == "Done" and runs:
                runs[-1][0].complete = bool(runs[-1][0].summary)
            elif runs and ROW.match(line):
                if len(words) != len(names):
                    raise lines.error(
                        no, f"expected {len(names)} numbers under the insert benchmark header"
                    )
                runs[-1][2].append(dict(zip(names, map(number, words))))
            elif line.strip():
                raise lines.error(no, "not an insert benchmark line")
        sessions = []
        for session, columns, rows in runs:
            if rows:
                session.series = columnar(rows, columns)
                session.meta["interval_s"] = rows[0]["interval_s"]
            if session.meta["form"] == "2017" and not session.complete:
                lines.missing_end(len(lines), "`Totals:` and `Done`")
            if rows or session.summary:
                sessions.append(session)
        if not sessions:
            raise lines.error(0, "no insert benchmark interval lines")
        return Parsed(self.name, file, sessions=sessions, problems=lines.problems)
