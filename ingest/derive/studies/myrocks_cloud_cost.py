"""Derived tables of the myrocks-cloud-cost study (MyRocks vs InnoDB on AWS io1/gp2).

(avg-tps, mean tps over the window per published cell, ratio, MyRocks / InnoDB per tier x
cache, and latency, the window statistics of sysbench's per-second p95 latency per published
run, are declared in the manifest's `tables:`; this module adds what a declaration cannot say)
cost            yearly cost per resource, read from published-tables.md (the 24 published
                average TPS, published-avg-tps.md, are compared by the manifest's reproduction)
tps-per-dollar  avg tps per $1000/year of instance + storage, per engine x tier x cache
storage         dataset size per engine, from published-tables.md
my-cnf          the server options of the archive's my.cnf
"""

from __future__ import annotations

from ingest.derive.tables import col
from ingest.problems import Problem

INSTANCE = "c5.9xlarge"
# Each storage tier's row in the published cost table.
TIER_COST_ROW = {
    "5000": "1TB io1 5000 IOPS",
    "10000": "1TB io1 10000 IOPS",
    "15000": "1TB io1 15000 IOPS",
    "20000": "1TB io1 20000 IOPS",
    "30000": "1TB io1 30000 IOPS",
    "10000gp2": "3.4TB GP2 (10000 IOPS)",
}
COST_KEYS = {
    "resource": "resource",
    "resource $/year": "resource_usd",
    "IO $/year": "io_usd",
    "total $/year": "total_usd",
}


def build(ctx) -> list[dict]:
    cells = _cells(ctx)
    cost = _cost_rows(ctx)
    return [_cost(ctx, cost), _per_dollar(ctx, cells, cost), _storage(ctx), _mycnf(ctx)]


def _cells(ctx) -> dict:
    """(engine, tier, cache) -> window mean tps of the published run, unrounded, for the rows of
    the declared avg-tps table (its order: engine, tier, cache)."""
    avg = ctx.declared.get("avg-tps")
    if avg is None:
        raise Problem(
            ctx.manifest.path,
            ctx.manifest.line_of.get("tables"),
            "tables: tps-per-dollar needs the declared table avg-tps",
        )
    cells = {}
    for row in avg["rows"]:
        e, t, c = row["engine"], row["iops"], row["cache_gb"]
        runs = [
            r
            for r in ctx.runs
            if r["published"]
            and r["labels"].get("engine") == e
            and r["labels"].get("iops") == t
            and r["labels"].get("cache_gb") == c
        ]
        if len(runs) != 1:
            raise Problem(
                ctx.manifest.path,
                None,
                f"expected one published run for {e} {t} {c} GB, found {len(runs)}",
            )
        cells[e, t, c] = runs[0]["window"]["mean"]
    return cells


# -- published tables ------------------------------------------------------------------------
def published_table(ctx, heading: str) -> list[dict]:
    """Rows of the Markdown table under `## heading` in published-tables.md (F13 parser)."""
    tables = {t.name: t for t in ctx.published("published-tables.md", "markdown-tables").tables}
    if heading not in tables:
        raise Problem(
            "published-tables.md", None, f"no table under `## {heading}` (found: {sorted(tables)})"
        )
    return tables[heading].rows


def _cost_rows(ctx) -> dict[str, dict]:
    out = {}
    for r in published_table(ctx, "Cost per year"):
        out[r["resource"]] = {COST_KEYS[k]: v for k, v in r.items()}
    return out


def _cost(ctx, cost) -> dict:
    return ctx.table(
        "cost",
        "Cost per year (US $, as published)",
        [
            col("resource", "Resource", "label"),
            col("resource_usd", "Resource $/year", "number", 0),
            col("io_usd", "IO $/year", "number", 0),
            col("total_usd", "Total $/year", "number", 0),
        ],
        list(cost.values()),
    )


def _per_dollar(ctx, cells, cost) -> dict:
    instance = cost[INSTANCE]["total_usd"]
    rows = []
    for (e, t, c), tps in cells.items():
        storage = cost[TIER_COST_ROW[t]]["total_usd"]
        rows.append(
            {
                "engine": e,
                "iops": t,
                "cache_gb": c,
                "avg_tps": round(tps, 2),
                "storage_usd": storage,
                "total_usd": instance + storage,
                "tps_per_1000usd": round(tps / (instance + storage) * 1000, 2),
            }
        )
    return ctx.table(
        "tps-per-dollar",
        "Average TPS per $1000 a year (instance + storage)",
        [
            col("engine", "Engine", "label"),
            col("iops", "IOPS tier", "label"),
            col("cache_gb", "Cache GB", "label"),
            col("avg_tps", "Avg TPS", "number", 2),
            col("storage_usd", "Storage $/year", "number", 0),
            col("total_usd", "Instance + storage $/year", "number", 0),
            col("tps_per_1000usd", "TPS per $1000/year", "number", 2),
        ],
        rows,
    )


def _storage(ctx) -> dict:
    rows = [
        {"engine": r["engine"], "size_gb": r["size GB"]}
        for r in published_table(ctx, "Storage used by the dataset")
    ]
    return ctx.table(
        "storage",
        "Storage used by the dataset (as published)",
        [col("engine", "Engine", "label"), col("size_gb", "Size GB", "number", 0)],
        rows,
    )


def _mycnf(ctx) -> dict:
    rows = [{"option": k, "value": v} for k, v in ctx.files["my.cnf"].settings.items()]
    return ctx.table(
        "my-cnf",
        "my.cnf as found in the archive",
        [col("option", "Option", "label"), col("value", "Value", "text")],
        rows,
    )
