"""The tables every study with query runs gets (docs/manifest.md, "Query runs"), unless a
declared or module table has the same id: `query-summary`, each query's runs per label
combination (median, fastest, slowest); `query-runs`, every run as timed; `query-plans`, the
EXPLAIN plans printed before the runs, once per distinct plan."""

from __future__ import annotations

from typing import Any

from ingest.derive.context import StudyContext
from ingest.derive.tables import DerivedTable, Row, col
from ingest.join.queries import QueryData, cell_stats, group, label_columns, natural
from ingest.join.records import QueryRun
from ingest.read.records import Manifest


def summary_table(m: Manifest, data: QueryData) -> DerivedTable:
    """`query-summary`: one row per (query, labels), in query order: n, finished, median, min,
    max, mean, spread, status."""
    keys = label_columns(m, data.runs)
    rows: list[Row] = []
    notes: dict[str, str] = {}
    cells = group(data.runs, keys)
    for key in sorted(cells, key=lambda k: (natural(k[-1]), _order(data.runs, keys, k[:-1]))):
        st = cell_stats(cells[key])
        row = {**dict(zip(keys, key[:-1])), "query": key[-1], **st}
        if st["finished"] < st["n"]:
            for c in ("median", "min", "max") if not st["finished"] else ("median",):
                notes[f"{len(rows)}/{c}"] = st["status"]
        rows.append(row)
    return {
        "id": "query-summary",
        "title": "Each query's runs: median, fastest and slowest, in seconds",
        "columns": [
            *(col(k, m.heading(k), "label") for k in keys),
            col("query", "Query", "label"),
            col("n", "Runs", "number", 0),
            col("finished", "Finished", "number", 0),
            col("median", "Median s", "number"),
            col("min", "Min s", "number"),
            col("max", "Max s", "number"),
            col("mean", "Mean s", "number", 1),
            col("spread", "Spread (max - min) / median", "number", 3),
            col("status", "Status", "text"),
        ],
        "rows": rows,
        "notes": notes,
    }


def _order(runs: list[QueryRun], keys: list[str], values: tuple[Any, ...]) -> int:
    """Position of a label combination among the runs (archive order)."""
    for i, r in enumerate(runs):
        if tuple(r.labels.get(k) for k in keys) == tuple(values):
            return i
    return len(runs)


def runs_table(m: Manifest, data: QueryData) -> DerivedTable:
    """`query-runs`: every run, its time (missing when it did not finish) and where it was read."""
    keys = label_columns(m, data.runs)
    rows: list[Row] = []
    notes: dict[str, str] = {}
    for r in data.runs:
        if r.note:
            notes[f"{len(rows)}/seconds"] = r.note
        rows.append(
            {
                **{k: r.labels.get(k) for k in keys},
                "query": r.query,
                "repeat": r.repeat,
                "seconds": r.seconds,
                **{k: r.sar.get(k) for k in data.sar_columns},
                "status": r.status,
                "published": "yes" if r.published else "no",
                "source": r.source,
            }
        )
    return {
        "id": "query-runs",
        "title": "Every run of every query, as timed",
        "columns": [
            *(col(k, m.heading(k), "label") for k in keys),
            col("query", "Query", "label"),
            col("repeat", "Run", "number", 0),
            col("seconds", "Seconds", "number"),
            *(col(k, f"{name} (sar, mean)", "number", 2) for k, name in data.sar_columns.items()),
            col("status", "Status", "text"),
            col("published", "Published", "label"),
            col("source", "Read from", "text"),
        ],
        "rows": rows,
        "notes": notes,
    }


def plans_table(m: Manifest, data: QueryData) -> DerivedTable:
    """`query-plans`: the EXPLAIN rows of each (labels, query), once per distinct plan, with
    the repeats that printed it (a plan that changed between repeats has a row group each)."""
    keys = label_columns(m, data.runs)
    plan_cols: list[str] = []
    for p in data.plans:
        for r in p["rows"]:
            plan_cols += [c for c in r if c not in plan_cols]
    rows = []
    order = {k: i for i, k in enumerate(group(data.runs, keys))}
    for p in sorted(
        data.plans,
        key=lambda p: (order.get((*p["labels"].values(), p["query"]), 0), natural(p["query"])),
    ):
        for step, r in enumerate(p["rows"], start=1):
            rows.append(
                {
                    **{k: p["labels"].get(k) for k in keys},
                    "query": p["query"],
                    "runs": _ranges(p["repeats"]),
                    "step": step,
                    **{c: r.get(c) for c in plan_cols},
                }
            )
    numeric = {"id", "rows", "filtered"}
    return {
        "id": "query-plans",
        "title": "The EXPLAIN plan of each query, as printed before its runs",
        "columns": [
            *(col(k, m.heading(k), "label") for k in keys),
            col("query", "Query", "label"),
            col("runs", "Runs", "text"),
            col("step", "Step", "number", 0),
            *(
                col(
                    c,
                    c,
                    "number" if c in numeric else "text",
                    2 if c == "filtered" else 0 if c in numeric else None,
                )
                for c in plan_cols
            ),
        ],
        "rows": rows,
        "notes": {},
    }


def _ranges(numbers: list[int]) -> str:
    """`1-3, 5` for [1, 2, 3, 5]."""
    out, start = [], None
    ns = sorted(numbers)
    for i, n in enumerate(ns):
        start = n if start is None else start
        if i + 1 == len(ns) or ns[i + 1] != n + 1:
            out.append(f"{start}-{n}" if n != start else str(n))
            start = None
    return ", ".join(out)


def build(ctx: StudyContext) -> list[DerivedTable]:
    """The tables every study with query runs gets (a declared table of the same id replaces one)."""
    m, data = ctx.manifest, ctx.queries
    if not data.runs:
        return []
    tables = [summary_table(m, data), runs_table(m, data)]
    if data.plans:
        tables.append(plans_table(m, data))
    return tables
