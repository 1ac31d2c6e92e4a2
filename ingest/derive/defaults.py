"""The tables every study with runs gets, unless a declared or module table has the same id
or the manifest's `default_tables:` leaves them out: `runs`, each run's labels, source
(published, file, session), window n, mean and cv and cross-check (full-run mean, the tool's
summary, their relative difference), and `jitter`, the spread of the per-interval rate over the
window (min, p1 ... p99, max). A label whose key is one of the fixed columns' (e.g. `name`)
gets no column of its own: its value is in the run's name."""

from __future__ import annotations

from ingest.derive.context import StudyContext
from ingest.derive.tables import Column, DerivedTable, col

RUNS = ("n", "mean", "cv")  # the spread (min, percentiles, max) is the jitter table's
JITTER = ("n", "mean", "cv", "min", "p1", "p5", "p50", "p95", "p99", "max")
CHECK = ("full_mean", "summary", "check_rel_diff")  # the runs table's cross-check of each run
FIXED = {"run", "name", "metric", "published", "file", "session", *RUNS, *JITTER, *CHECK}


def build(ctx: StudyContext) -> list[DerivedTable]:
    """The default tables the manifest's `default_tables:` keeps (none without runs)."""
    makers = {"runs": runs_table, "jitter": jitter_table}
    return [makers[i](ctx) for i in ctx.manifest.default_tables] if ctx.runs else []


def _metric_of(ctx: StudyContext) -> str | None:
    """The one metric every run's statistics are of, or None when the runs differ (LinkBench's
    load in links/s beside its request phases in requests/s): each row then names its own."""
    found = {r.metric for r in ctx.runs}
    return found.pop() if len(found) == 1 else None


def _stat_col(key: str, metric: str | None) -> Column:
    of = f" {metric}" if metric else ""
    if key == "n":
        return col("n", "Intervals in window", "number", 0)
    if key == "cv":
        return col("cv", "Coefficient of variation", "number", 3)
    return col(key, f"{'Mean' if key == 'mean' else key}{of}", "number", 2)


def _table(
    ctx: StudyContext, id: str, title: str, stats: tuple[str, ...], with_source: bool
) -> DerivedTable:
    """One row per run: its labels (headed by the manifest's `label_names:`, else the key),
    when `with_source` whether it is published and its file and session, the window
    statistics `stats`, and with the source its cross-check (full-run mean against the tool's
    summary). Every heading names the metric its numbers are of; when the runs' metrics differ,
    a `metric` column names each row's."""
    metric = _metric_of(ctx)
    labels = [
        k
        for k in ctx.manifest.labels
        if k not in FIXED and any(r.labels.get(k) is not None for r in ctx.runs)
    ]
    source = (
        [
            col("published", "Published", "text"),
            col("file", "File", "text"),
            col("session", "Session", "number", 0),
        ]
        if with_source
        else []
    )
    of = f" {metric}" if metric else ""
    check = (
        [
            col("full_mean", f"Full-run mean{of}", "number", 2),
            col("summary", f"Tool summary{of}", "number", 2),
            col("check_rel_diff", "Mean vs summary (rel. diff.)", "number", 4),
        ]
        if with_source
        else []
    )
    columns = [
        col("run", "Run", "label"),
        col("name", "Name", "text"),
        *(col(k, ctx.manifest.heading(k), "label") for k in labels),
        *([] if metric else [col("metric", "Metric", "label")]),
        *source,
        *(_stat_col(k, metric) for k in stats),
        *check,
    ]
    rows = []
    for r in ctx.runs:
        row = {"run": r.id, "name": r.name, **{k: r.labels.get(k) for k in labels}}
        if not metric:
            row["metric"] = r.metric
        if with_source:
            row.update(
                {
                    "published": "yes" if r.published else "no",
                    "file": r.source.file,
                    "session": r.source.session,
                    "full_mean": r.full["mean"],
                    "summary": r.check["summary"],
                    "check_rel_diff": r.check["rel_diff"],
                }
            )
        row.update({k: r.window[k] for k in stats})
        rows.append(row)
    return ctx.table(id, title, columns, rows)


def _what(ctx: StudyContext) -> str:
    """What the statistics are of, for a title: the metric, or the runs' (each row says which)."""
    found = sorted({str(r.metric) for r in ctx.runs})
    return _metric_of(ctx) or f"{' or '.join(found)} (the Metric column says which)"


def runs_table(ctx: StudyContext, id: str = "runs") -> DerivedTable:
    """Every run (published or extra) with its labels, source, window
    statistics of the manifest's metric and cross-check (the one `runs` table: the default,
    and the one a study module reuses)."""
    w = ctx.manifest.run_window()
    return _table(
        ctx,
        id,
        f"Every run: {_what(ctx)} from {w['start']:g} s to {w['end']:g} s",
        RUNS,
        True,
    )


def jitter_table(ctx: StudyContext, id: str = "jitter") -> DerivedTable:
    """Per run: the spread of the per-interval rate over the window (a study module may reuse it)."""
    w = ctx.manifest.run_window()
    steps = {r.tool.get("interval_s", ctx.manifest.interval_s) for r in ctx.runs}
    per = "per-second" if steps == {1} else "per-interval"
    return _table(
        ctx,
        id,
        f"Jitter: {per} {_what(ctx)} from {w['start']:g} s to {w['end']:g} s",
        JITTER,
        False,
    )
