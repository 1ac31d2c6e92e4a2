"""linkbench-cached: cached LinkBench on MySQL 5.7.8, 5.6, WebScaleSQL and MyRocks (2015 tables).

Published part (`published-tables.txt`, F9): one table per configuration, `by-binary` with
the derived QPS change from hour 2 to hour 12 and database growth after the load, `db-size`
(the sizes after the load, hour 2 and hour 12, long form) and `partitioning` (the load rate
without and with partitioning). The later 2017 run whose raw logs are public is its own study,
linkbench-hourly-2017.
"""

from __future__ import annotations

from ingest.derive.tables import col, ratio, table

CONFIGS = {
    "p0.c0": "no partitioning, no compression",
    "p0.c1": "no partitioning, compression",
    "p1.c0": "partitioning, no compression",
    "p1.c1": "partitioning and compression",
}


def build(ctx) -> list[dict]:
    parsed = ctx.published(fmt="summary-table")
    return derive_published(parsed) + [partitioning(parsed)]


def partitioning(parsed) -> dict:
    """Load rate without and with partitioning, per binary and compression setting, and the
    gain (with / without): which binaries partitioning speeds up, from the published tables."""
    by_config = {t.name: {r["config"]: r["load ips"] for r in t.rows} for t in parsed.tables}
    rows = []
    for c in ("c0", "c1"):
        without, with_ = by_config.get(f"p0.{c}", {}), by_config.get(f"p1.{c}", {})
        for binary in without:
            rows.append(
                {
                    "compression": "yes" if c == "c1" else "no",
                    "binary": binary,
                    "load_ips_p0": without[binary],
                    "load_ips_p1": with_.get(binary),
                    "gain": ratio(with_.get(binary), without[binary], 2),
                }
            )
    return table(
        "partitioning",
        "Load inserts/s without (p0) and with (p1) partitioning, from the published tables",
        [
            col("compression", "Compression", "label"),
            col("binary", "Binary", "label"),
            col("load_ips_p0", "Load inserts/s, p0", "number", 0),
            col("load_ips_p1", "Load inserts/s, p1", "number", 0),
            col("gain", "p1 / p0", "ratio", 2),
        ],
        rows,
    )


def derive_published(parsed) -> list[dict]:
    """A table per published configuration, then `by-binary` (all of them in one) and
    `db-size` (the database size at each of the three moments, in long form)."""
    tables, long_rows, size_rows = [], [], []
    for t in parsed.tables:
        rows = [_published_row(r) for r in t.rows]
        long_rows += [{"config": t.name, **row} for row in rows]
        size_rows += [
            {"config": t.name, "binary": r["config"], "when": when, "hour": hour, "gb": r[key]}
            for r in t.rows
            for hour, key, when in (
                (0, "load gb", "after the load"),
                (2, "2h gb", "after hour 2"),
                (12, "12h gb", "after hour 12"),
            )
        ]
        tables.append(
            table(
                t.name.replace(".", "-"),
                f"{t.name}: {CONFIGS.get(t.name, t.name)} (as published)",
                _columns(),
                rows,
            )
        )
    tables.append(
        table(
            "by-binary",
            "Load and query rates per binary and configuration",
            [col("config", "Config", "label"), *_columns()],
            long_rows,
        )
    )
    tables.append(
        table(
            "db-size",
            "Database size after the load, hour 2 and hour 12",
            [
                col("config", "Config", "label"),
                col("binary", "Binary", "label"),
                col("when", "Measured", "label"),
                col("hour", "Hour", "number", 0),
                col("gb", "GB", "number", 0),
            ],
            size_rows,
        )
    )
    return tables


def _published_row(r: dict) -> dict:
    """One binary's published figures, with the 12h/2h QPS ratio and the growth in GB."""
    return {
        "binary": r["config"],
        "load_ips": r["load ips"],
        "load_gb": r["load gb"],
        "qps_2h": r["2h qps"],
        "gb_2h": r["2h gb"],
        "qps_12h": r["12h qps"],
        "gb_12h": r["12h gb"],
        "qps_12h_vs_2h": ratio(r["12h qps"], r["2h qps"], 2),
        "growth_gb": None if None in (r["12h gb"], r["load gb"]) else r["12h gb"] - r["load gb"],
    }


def _columns() -> list[dict]:
    return [
        col("binary", "Binary", "label"),
        col("load_ips", "Load inserts/s", "number", 0),
        col("load_gb", "GB after load", "number", 0),
        col("qps_2h", "QPS hour 2", "number", 0),
        col("gb_2h", "GB hour 2", "number", 0),
        col("qps_12h", "QPS hour 12", "number", 0),
        col("gb_12h", "GB hour 12", "number", 0),
        col("qps_12h_vs_2h", "QPS 12h / 2h", "ratio", 2),
        col("growth_gb", "GB growth since load", "number", 0),
    ]
