"""Derived tables any study module can reuse (shape: docs/data-schema.md, `tables/<id>.yaml`)."""
from __future__ import annotations


def col(key: str, label: str, kind: str = "number", digits: int | None = None, unit: str | None = None) -> dict:
    c = {"key": key, "label": label, "kind": kind}
    if digits is not None:
        c["digits"] = digits
    if unit is not None:
        c["unit"] = unit
    return c


def _label_cols(ctx, names: dict[str, str] | None = None) -> list[dict]:
    """Label columns of the runs, headed by `names` (label key -> reader's name) when given."""
    used = [k for k in ctx.manifest.labels if any(r["labels"].get(k) is not None for r in ctx.runs)]
    return [col(k, (names or {}).get(k, k.replace("_", " ")), "label") for k in used]


def runs_table(ctx, id: str = "runs", names: dict[str, str] | None = None) -> dict:
    """Every run (published or extra) with its labels (headed by `names`), source, window mean
    and summary check."""
    labels = _label_cols(ctx, names)
    metric = ctx.manifest.metric
    columns = [col("run", "Run", "label"), col("name", "Name", "text"), *labels,
               col("published", "Published", "text"), col("file", "File", "text"),
               col("session", "Session", "number", 0), col("intervals", "Intervals", "number", 0),
               col("window_mean", f"Window mean {metric}", "number", 2),
               col("full_mean", f"Full-run mean {metric}", "number", 2),
               col("summary", f"Tool summary {metric}", "number", 2),
               col("check_rel_diff", "Mean vs summary (rel. diff.)", "number", 4)]
    rows = []
    for r in ctx.runs:
        row = {"run": r["id"], "name": r["name"], "published": "yes" if r["published"] else "no",
               "file": r["source"]["file"], "session": r["source"]["session"], "intervals": r["intervals"],
               "window_mean": r["window"]["mean"], "full_mean": r["full"]["mean"],
               "summary": r["check"]["summary"], "check_rel_diff": r["check"]["rel_diff"]}
        row.update({c["key"]: r["labels"].get(c["key"]) for c in labels})
        rows.append(row)
    return ctx.table(id, "All runs in the archive", columns, rows)


def jitter_table(ctx, id: str = "jitter", names: dict[str, str] | None = None) -> dict:
    """Per run: spread of the per-interval rate over the window (cv, min, p1 ... p99); label
    columns headed by `names` (label key -> reader's name)."""
    metric = ctx.manifest.metric
    w = ctx.manifest.window
    columns = [col("run", "Run", "label"), col("name", "Name", "text"), *_label_cols(ctx, names),
               col("n", "Intervals in window", "number", 0), col("mean", f"Mean {metric}", "number", 2),
               col("cv", "Coefficient of variation", "number", 3),  # a spread, not a ratio: no ×
               *(col(k, f"{k} {metric}", "number", 2) for k in ("min", "p1", "p5", "p50", "p95", "p99", "max"))]
    rows = []
    for r in ctx.runs:
        row = {"run": r["id"], "name": r["name"], **{c["key"]: r["labels"].get(c["key"]) for c in _label_cols(ctx, names)}}
        row.update({k: r["window"][k] for k in ("n", "mean", "cv", "min", "p1", "p5", "p50", "p95", "p99", "max")})
        rows.append(row)
    return ctx.table(id, f"Jitter: per-second {metric} from {w['start']} s to {w['end']} s", columns, rows)
