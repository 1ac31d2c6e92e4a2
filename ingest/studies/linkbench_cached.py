"""linkbench-cached: cached LinkBench on MySQL 5.7.8, 5.6, WebScaleSQL and MyRocks (2015 tables),
plus a 2017 LinkBench run of MySQL 5.7.17 from a real archive (24 one-hour request phases).

Published part (`published-tables.txt`, F9): one table per configuration, and `by-binary`
with the derived QPS change from hour 2 to hour 12 and database growth after the load.

Archive part: `hourly` (requests/s, size and the wrapper's per-query OS metrics for each of
the 24 hours, from the `r.r.in.L<n>.P1` summaries), `hw-per-op` (HW efficiency of the load and
hour 1 computed from the raw vmstat/iostat with `ingest.osmetrics`, beside the wrapper's own
per-operation figures) and `server-settings` (a few SHOW GLOBAL VARIABLES values).
"""
from __future__ import annotations

import re

from ingest import osmetrics

from .common import col, one_file, published, ratio, table

GB = 1024 ** 3
# Settings worth showing next to the results (names as SHOW GLOBAL VARIABLES prints them).
SETTINGS = ("version", "innodb_buffer_pool_size", "innodb_log_file_size", "innodb_log_files_in_group",
            "innodb_flush_log_at_trx_commit", "innodb_flush_method", "innodb_doublewrite", "sync_binlog",
            "log_bin", "innodb_io_capacity", "innodb_page_cleaners", "innodb_purge_threads")

CONFIGS = {
    "p0.c0": "no partitioning, no compression", "p0.c1": "no partitioning, compression",
    "p1.c0": "partitioning, no compression", "p1.c1": "partitioning and compression",
}


def build(ctx) -> list[dict]:
    tables = derive_published(published(ctx, "summary-table"))
    if ctx.files:
        tables += [hourly(ctx.files), hw_per_op(ctx), server_settings(ctx.files)]
    return tables


def _summary_row(parsed) -> dict:
    """Phase rate, size after, and the wrapper's per-operation metrics of one summary file."""
    session = parsed.sessions[0]
    metric = session.metric
    t = {x.name: x for x in parsed.tables}
    io = t["iostat"].rows[0] if "iostat" in t else {}
    vm = t["vmstat"].rows[0] if "vmstat" in t else {}
    after = [r for r in t["db-size"].rows if r["when"] == "after"] if "db-size" in t else []
    return {"rate": session.summary.get(metric), "seconds": session.summary.get("time_s"),
            "gb_after": round(after[0]["bytes"] / GB, 2) if after else None,
            "cpu_per_op": vm.get("cpu/q"), "cs_per_op": vm.get("cs/q"), "r_per_op": io.get("r/q"),
            "rkb_per_op": io.get("rkb/q"), "wkb_per_op": io.get("wkb/q"), "samples": vm.get("samp")}


def hourly(files: dict) -> dict:
    """One row per one-hour request phase, from the wrapper summaries `r.r.in.L<n>.P1`."""
    rows = []
    for member, parsed in files.items():
        m = re.fullmatch(r"r\.r\.in\.L(\d+)\.P1", member)
        if m:
            rows.append({"hour": int(m[1]), **{k: v for k, v in _summary_row(parsed).items()
                                                if k not in ("seconds", "samples")}})
    rows.sort(key=lambda r: r["hour"])
    return table("hourly", "LinkBench request phases, MySQL 5.7.17: one row per hour", [
        col("hour", "Hour", "number", 0), col("rate", "Requests/s", "number", 0),
        col("gb_after", "DB GB after", "number", 1), col("cpu_per_op", "CPU/q (vmstat us+sy per query)", "number", 6),
        col("cs_per_op", "Context switches/q", "number", 3), col("r_per_op", "Reads/q", "number", 3),
        col("rkb_per_op", "KB read/q", "number", 4), col("wkb_per_op", "KB written/q", "number", 3),
    ], rows)


def hw_per_op(ctx) -> dict:
    """HW efficiency of the load and hour 1 from the raw vmstat/iostat, next to the wrapper's."""
    rows = []
    for phase, run_id, member_re in (("load", "load", r"l\.{}\.in"), ("Hour 1", "request-hour-1", r"r\.{}\.in\.L1\.P1")):
        run = next(r for r in ctx.runs if r["id"] == run_id)
        wrapper = _summary_row(one_file(ctx.files, member_re.format("r")))
        vmstat = one_file(ctx.files, member_re.format("vm")).sessions[0]
        iostat = one_file(ctx.files, member_re.format("io")).sessions
        # OS samples span the phase: their interval is the phase length over the sample count.
        os_interval = round(wrapper["seconds"] / wrapper["samples"])
        hw = osmetrics.hw_efficiency(ctx.series[run_id], run["metric"], 0, wrapper["seconds"],
                                     os_interval_s=os_interval, vmstat=vmstat, iostat=iostat)
        rows.append({"phase": phase, "seconds": wrapper["seconds"], "ops_per_s": round(hw["ops_per_s"], 1),
                     "cores": hw["cores"],
                     "cpu_us_per_op": _round(hw["cpu_s_per_op"], 1e6, 2),
                     "cs_per_op": _round(hw["cs_per_op"], 1, 3), "wrapper_cs_per_op": wrapper["cs_per_op"],
                     "kb_written_per_op": _round(hw["kb_written_per_op"], 1, 3),
                     "wrapper_wkb_per_op": wrapper["wkb_per_op"],
                     "kb_read_per_op": _round(hw["kb_read_per_op"], 1, 4), "wrapper_rkb_per_op": wrapper["rkb_per_op"]})
    return table("hw-per-op", "HW efficiency per operation (load: per link; requests: per query)", [
        col("phase", "Phase", "label"), col("seconds", "Seconds", "number", 1),
        col("ops_per_s", "Ops/s (client log)", "number", 0),
        col("cores", "CPUs", "number", 0), col("cpu_us_per_op", "CPU µs/op", "number", 2),
        col("cs_per_op", "Context switches/op", "number", 3), col("wrapper_cs_per_op", "… wrapper's figure", "number", 3),
        col("kb_written_per_op", "KB written/op", "number", 3), col("wrapper_wkb_per_op", "… wrapper's figure", "number", 3),
        col("kb_read_per_op", "KB read/op", "number", 4), col("wrapper_rkb_per_op", "… wrapper's figure", "number", 4),
    ], rows)


def _round(value, scale, digits):
    return None if value is None else round(value * scale, digits)


def server_settings(files: dict) -> dict:
    settings = one_file(files, r"l\.gv\.in").settings
    rows = [{"variable": k, "value": settings.get(k)} for k in SETTINGS]
    return table("server-settings", "Server settings of the 2017 run (SHOW GLOBAL VARIABLES)", [
        col("variable", "Variable", "label"), col("value", "Value", "text")], rows)


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
