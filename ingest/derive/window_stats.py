"""The window-statistics rows a time series chart shows beside its runs: one row per run (its
id, its name, then the mean, percentiles and CV of its metric over the study's window), with
each column's heading given as an i18n key (i18n/en.toml), so that the template only looks the
rows up and names the columns in the reader's language. Written as window-stats.yaml, and as
window-stats.csv with the same columns (what the chart links)."""

from __future__ import annotations

from ingest.derive.tables import Column, DerivedTable, Row
from ingest.join.records import Record

# (key, i18n key of its heading, digits) of the columns after `run` and `name`
STATS = (
    ("mean", "stats-mean", 1),
    ("p1", "stats-p1", 1),
    ("p5", "stats-p5", 1),
    ("p50", "stats-p50", 1),
    ("p95", "stats-p95", 1),
    ("p99", "stats-p99", 1),
    ("cv", "stats-cv", 3),
)


def window_stats(records: list[Record]) -> DerivedTable:
    """The rows of every run (runs.yaml records, in their order); a run without window
    statistics has its cells missing."""
    columns: list[Column] = [
        {"key": "run", "i18n": "stats-run-id", "kind": "label"},
        {"key": "name", "i18n": "stats-run", "kind": "label"},
        *({"key": k, "i18n": i, "kind": "number", "digits": d} for k, i, d in STATS),
    ]
    rows: list[Row] = []
    for r in records:
        w = r.get("window") or {}
        rows.append(
            {"run": r["id"], "name": r.get("name") or r["id"], **{k: w.get(k) for k, _, _ in STATS}}
        )
    return {"columns": columns, "rows": rows}
