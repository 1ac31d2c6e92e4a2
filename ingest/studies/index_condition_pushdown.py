"""index-condition-pushdown: Index Condition Pushdown in MySQL 5.6 and MariaDB 5.5.

Raw data is not public: the tables come from `published-tables.md` (F13). Derived here:
the IO-bound speed-up from the published minutes, the counters' ratios to MySQL 5.5 (N/A stays
missing, a 0/0 ratio is missing too), and the counters that changed, long form for a chart.
"""
from __future__ import annotations

from .common import carry_notes, col, find, published, ratio, slug, table
from ingest.parsers.values import in_base_unit

BASE_SERVER = "MySQL 5.5"
CHANGED = 0.05  # a counter "changed" when some server differs from the base by more than 5%


def build(ctx) -> list[dict]:
    return derive(published(ctx, "markdown-tables"))


def derive(parsed) -> list[dict]:
    counters, changed = status_counters(parsed)
    return [query_time(parsed), speedup(parsed), counters, changed]


def query_time(parsed) -> dict:
    t = find(parsed, "TPC-H Q19 query time, IO-bound")
    base = next(r for r in t.rows if r["server"] == BASE_SERVER)["minutes"]
    rows = [{"server": r["server"], "icp": r["ICP"], "minutes": r["minutes"], "speedup": ratio(base, r["minutes"], 1),
             "note": r["note"]} for r in t.rows]
    return table("query-time-io-bound", t.name, [
        col("server", "Server", "label"), col("icp", "ICP", "label"),
        col("minutes", "Minutes", "number", 0), col("speedup", f"Speed-up vs {BASE_SERVER}", "ratio", 1),
        col("note", "Note", "text"),
    ], rows, carry_notes(t, {i: i for i in range(len(rows))}, {"minutes": "minutes"}))


def speedup(parsed) -> dict:
    """Speed-up from ICP per server, in-memory (published) and IO-bound (from the minutes)."""
    io = find(parsed, "TPC-H Q19 query time, IO-bound")
    mem = find(parsed, "TPC-H Q19 speed-up from ICP, in-memory")
    base = next(r for r in io.rows if r["server"] == BASE_SERVER)["minutes"]
    rows, notes = [], {}
    for r in io.rows:
        rows.append({"server": r["server"], "workload": "IO-bound (SF 40)", "speedup": ratio(base, r["minutes"], 1)})
    speed_col = next(c for c in mem.columns if c.startswith("speed-up"))
    for i, r in enumerate(mem.rows):
        if f"{i}/{speed_col}" in mem.notes:
            notes[f"{len(rows)}/speedup"] = mem.notes[f"{i}/{speed_col}"]
        rows.append({"server": r["server"], "workload": "in-memory (SF 2)", "speedup": r[speed_col]})
    return table("speedup", "Q19 speed-up over MySQL 5.5 (no ICP), per workload", [
        col("server", "Server", "label"), col("workload", "Workload", "label"),
        col("speedup", f"Speed-up vs {BASE_SERVER}", "ratio", 1),
    ], rows, notes)


def status_counters(parsed) -> tuple[dict, dict]:
    """The counters with each server's ratio to the base, and the changed ones in long form."""
    t = find(parsed, "Status counters")
    servers = [c for c in t.columns if c != "counter"]
    others = [s for s in servers if s != BASE_SERVER]
    key = {s: slug(s).replace("-", "_") for s in servers}
    rows, long_rows = [], []
    for i, r in enumerate(t.rows):
        units = {t.units.get(f"{i}/{s}") for s in servers if r[s] is not None}
        unit = units.pop() if len(units) == 1 else None
        scaled = {s: (r[s] if unit else in_base_unit(r[s], t.units.get(f"{i}/{s}"))) for s in servers}
        row = {"counter": r["counter"], "unit": unit or "count"}
        row.update({key[s]: r[s] if unit else scaled[s] for s in servers})
        for s in others:
            row[f"{key[s]}_ratio"] = ratio(scaled[s], scaled[BASE_SERVER], 3)
        rows.append(row)
        if any(row[f"{key[s]}_ratio"] is not None and abs(row[f"{key[s]}_ratio"] - 1) > CHANGED for s in others):
            long_rows += [{"counter": r["counter"], "server": s, "ratio": row[f"{key[s]}_ratio"]} for s in others]
    columns = [col("counter", "Counter", "label"), col("unit", "Unit (as published)", "text")]
    columns += [col(key[s], s, "number", None) for s in servers]
    columns += [col(f"{key[s]}_ratio", f"{s} / {BASE_SERVER}", "ratio", 3) for s in others]
    counters = table("status-counters", f"{t.name} (N/A: the counter does not exist in that server)", columns, rows)
    changed = table("counters-changed", f"Counters that changed by more than {CHANGED:.0%} against {BASE_SERVER}", [
        col("counter", "Counter", "label"), col("server", "Server", "label"),
        col("ratio", f"Ratio to {BASE_SERVER}", "ratio", 3),
    ], long_rows)
    return counters, changed
