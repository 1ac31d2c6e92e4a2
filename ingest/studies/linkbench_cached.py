"""linkbench-cached: cached LinkBench on MySQL 5.7.8, 5.6, WebScaleSQL and MyRocks (2015 tables),
plus a 2017 LinkBench run of MySQL 5.7.17 from a real archive (24 one-hour request phases).

Published part (`published-tables.txt`, F9): one table per configuration, and `by-binary`
with the derived QPS change from hour 2 to hour 12 and database growth after the load.
"""
from __future__ import annotations

from .common import col, published, ratio, table

CONFIGS = {
    "p0.c0": "no partitioning, no compression", "p0.c1": "no partitioning, compression",
    "p1.c0": "partitioning, no compression", "p1.c1": "partitioning and compression",
}


def build(ctx) -> list[dict]:
    return derive_published(published(ctx, "summary-table"))


def derive_published(parsed) -> list[dict]:
    tables, long_rows, size_rows = [], [], []
    for t in parsed.tables:
        rows = []
        for r in t.rows:
            row = {"binary": r["config"], "load_ips": r["load ips"], "load_gb": r["load gb"],
                   "qps_2h": r["2h qps"], "gb_2h": r["2h gb"], "qps_12h": r["12h qps"], "gb_12h": r["12h gb"],
                   "qps_12h_vs_2h": ratio(r["12h qps"], r["2h qps"]),
                   "growth_gb": None if None in (r["12h gb"], r["load gb"]) else r["12h gb"] - r["load gb"]}
            rows.append(row)
            long_rows.append({"config": t.name, **row})
            for hour, key in ((0, "load gb"), (2, "2h gb"), (12, "12h gb")):
                size_rows.append({"config": t.name, "binary": r["config"], "hour": hour, "gb": r[key]})
        tables.append(table(t.name.replace(".", "-"), f"{t.name}: {CONFIGS.get(t.name, t.name)} (as published)",
                            _columns(), rows))
    tables.append(table("by-binary", "Load and query rates per binary and configuration", [
        col("config", "Config", "label"), *_columns()], long_rows))
    tables.append(table("db-size", "Database size after the load, hour 2 and hour 12", [
        col("config", "Config", "label"), col("binary", "Binary", "label"),
        col("hour", "Hour", "number", 0), col("gb", "GB", "number", 0)], size_rows))
    return tables


def _columns() -> list[dict]:
    return [
        col("binary", "Binary", "label"),
        col("load_ips", "Load inserts/s", "number", 0), col("load_gb", "GB after load", "number", 0),
        col("qps_2h", "QPS hour 2", "number", 0), col("gb_2h", "GB hour 2", "number", 0),
        col("qps_12h", "QPS hour 12", "number", 0), col("gb_12h", "GB hour 12", "number", 0),
        col("qps_12h_vs_2h", "QPS 12h / 2h", "ratio", 2), col("growth_gb", "GB growth since load", "number", 0),
    ]
