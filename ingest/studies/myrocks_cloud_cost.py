"""Derived tables of the myrocks-cloud-cost study (MyRocks vs InnoDB on AWS io1/gp2).

(avg-tps, mean tps over the window per published cell, and ratio, MyRocks / InnoDB per tier x
cache, are declared in the manifest's `tables:`; this module adds what a declaration cannot say)
cost            yearly cost per resource, read from published-tables.md
tps-per-dollar  avg tps per $1000/year of instance + storage, per engine x tier x cache
storage         dataset size per engine, from published-tables.md
jitter          spread of per-second tps per run; runs: every run incl. extras
latency         per published cell: the window statistics of sysbench's per-second p95 latency
my-cnf          the server options of the archive's my.cnf
"""
from __future__ import annotations

from .. import metrics
from ..problems import Problem
from ..defaults import jitter_table
from ..tables import col, runs_table

TIERS = ["5000", "10000", "15000", "20000", "30000", "10000gp2"]
CACHES = [27, 54]
ENGINES = ["innodb", "rocksdb"]
INSTANCE = "c5.9xlarge"
# Readers' names of the run labels (column headers, chart axes and legends).
LABEL_NAMES = {"engine": "Engine", "iops": "IOPS tier", "cache_gb": "Cache GB", "threads": "Threads",
               "variant": "Variant"}
LATENCY = "lat_ms"  # sysbench's per-second 95th-percentile latency column
STAT_KEYS = ("n", "mean", "min", "p1", "p5", "p50", "p95", "p99", "max", "cv")
# Each storage tier's row in the published cost table.
TIER_COST_ROW = {
    "5000": "1TB io1 5000 IOPS", "10000": "1TB io1 10000 IOPS", "15000": "1TB io1 15000 IOPS",
    "20000": "1TB io1 20000 IOPS", "30000": "1TB io1 30000 IOPS", "10000gp2": "3.4TB GP2 (10000 IOPS)",
}
COST_KEYS = {"resource": "resource", "resource $/year": "resource_usd", "IO $/year": "io_usd",
             "total $/year": "total_usd"}


def build(ctx) -> list[dict]:
    cells = _cells(ctx)
    cost = _cost_rows(ctx)
    return [_cost(ctx, cost), _per_dollar(ctx, cells, cost),
            _storage(ctx), jitter_table(ctx, names=LABEL_NAMES), runs_table(ctx, names=LABEL_NAMES),
            _latency(ctx), _mycnf(ctx)]


def _latency(ctx) -> dict:
    """Per published run: the window statistics (as runs.yaml has them for tps) of the
    per-second p95 latency sysbench printed (each second's own 95th percentile, in ms); the
    latency time series shows them (its `stats` param)."""
    w = ctx.manifest.window
    rows = []
    for e in ENGINES:
        for t in TIERS:
            for c in CACHES:
                run = next(r for r in ctx.runs if r["published"] and r["labels"].get("engine") == e
                           and r["labels"].get("iops") == t and r["labels"].get("cache_gb") == c)
                series = ctx.series[run["id"]]
                if LATENCY not in series:
                    raise Problem(run["source"]["file"], None, f"no {LATENCY} column in run {run['id']}")
                st = metrics.stats(metrics.window_values(series["t"], series[LATENCY], w["start"], w["end"]))
                rows.append({"run": run["id"], "engine": e, "iops": t, "cache_gb": c,
                             **{k: st[k] for k in STAT_KEYS}})
    return ctx.table("latency", f"Per-second p95 latency (ms), {w['start']} s to {w['end']} s", [
        col("run", "Run", "label"), col("engine", "Engine", "label"), col("iops", "IOPS tier", "label"),
        col("cache_gb", "Cache GB", "label"), col("n", "Seconds", "number", 0),
        col("mean", "Mean ms", "number", 1), col("min", "min", "number", 1),
        *(col(k, k, "number", 1) for k in ("p1", "p5", "p50", "p95", "p99")),
        col("max", "max", "number", 1), col("cv", "Coefficient of variation", "number", 3)], rows)


def _cells(ctx) -> dict:
    """(engine, tier, cache) -> window mean tps of the published run (all 24 must exist)."""
    cells = {}
    for e in ENGINES:
        for t in TIERS:
            for c in CACHES:
                runs = [r for r in ctx.runs if r["published"] and r["labels"].get("engine") == e
                        and r["labels"].get("iops") == t and r["labels"].get("cache_gb") == c]
                if len(runs) != 1:
                    raise Problem(ctx.manifest.path, None, f"expected one published run for {e} {t} {c} GB, "
                                     f"found {len(runs)}")
                cells[e, t, c] = runs[0]["window"]["mean"]
    return cells


# -- published tables ------------------------------------------------------------------------
def published_table(ctx, heading: str) -> list[dict]:
    """Rows of the Markdown table under `## heading` in published-tables.md (F13 parser)."""
    tables = {t.name: t for t in ctx.published("published-tables.md", "markdown-tables").tables}
    if heading not in tables:
        raise Problem("published-tables.md", None, f"no table under `## {heading}` (found: {sorted(tables)})")
    return tables[heading].rows


def _cost_rows(ctx) -> dict[str, dict]:
    out = {}
    for r in published_table(ctx, "Cost per year"):
        out[r["resource"]] = {COST_KEYS[k]: v for k, v in r.items()}
    return out


def _cost(ctx, cost) -> dict:
    return ctx.table("cost", "Cost per year (US $, as published)",
                     [col("resource", "Resource", "label"), col("resource_usd", "Resource $/year", "number", 0),
                      col("io_usd", "IO $/year", "number", 0), col("total_usd", "Total $/year", "number", 0)],
                     list(cost.values()))


def _per_dollar(ctx, cells, cost) -> dict:
    instance = cost[INSTANCE]["total_usd"]
    rows = []
    for e in ENGINES:
        for t in TIERS:
            storage = cost[TIER_COST_ROW[t]]["total_usd"]
            for c in CACHES:
                tps = cells[e, t, c]
                rows.append({"engine": e, "iops": t, "cache_gb": c, "avg_tps": round(tps, 2),
                             "storage_usd": storage, "total_usd": instance + storage,
                             "tps_per_1000usd": round(tps / (instance + storage) * 1000, 2)})
    return ctx.table("tps-per-dollar", "Average TPS per $1000 a year (instance + storage)",
                     [col("engine", "Engine", "label"), col("iops", "IOPS tier", "label"),
                      col("cache_gb", "Cache GB", "label"), col("avg_tps", "Avg TPS", "number", 2),
                      col("storage_usd", "Storage $/year", "number", 0),
                      col("total_usd", "Instance + storage $/year", "number", 0),
                      col("tps_per_1000usd", "TPS per $1000/year", "number", 2)], rows)


def _storage(ctx) -> dict:
    rows = [{"engine": r["engine"], "size_gb": r["size GB"]}
            for r in published_table(ctx, "Storage used by the dataset")]
    return ctx.table("storage", "Storage used by the dataset (as published)",
                     [col("engine", "Engine", "label"), col("size_gb", "Size GB", "number", 0)], rows)


def _mycnf(ctx) -> dict:
    rows = [{"option": k, "value": v} for k, v in ctx.files["my.cnf"].settings.items()]
    return ctx.table("my-cnf", "my.cnf as found in the archive",
                     [col("option", "Option", "label"), col("value", "Value", "text")], rows)
