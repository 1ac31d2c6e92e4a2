"""index-condition-pushdown: Index Condition Pushdown in MySQL 5.6 and MariaDB 5.5.

Raw data is not public: the tables come from `published-tables.md` (F13). Derived here:
the IO-bound speed-up from the published minutes (with the range the minutes' rounding allows),
the counters' ratios to MySQL 5.5 (N/A stays missing, a 0/0 ratio is missing too), the counters
that changed, long form for a chart (a value flagged as a possible typo is left out), the
pages read split into on-demand reads and read-ahead, with the two readings of MariaDB's
`Innodb_data_reads` (`read-ahead`), and the original's own derived claims beside our arithmetic
on its counters (`original-claims`).
"""

from __future__ import annotations

from ingest.derive.tables import carry_notes, col, find, ratio, slug, table
from ingest.parse.values import in_base_unit
from ingest.problems import Problem, clean

BASE_SERVER = "MySQL 5.5"
# InnoDB's read-ahead reads an extent: 64 pages of 16 KB (1 MB). One reading of MariaDB's
# Innodb_data_reads counts each such batch as one read.
EXTENT_PAGES = 64
CHANGED = 0.05  # a counter "changed" when some server differs from the base by more than 5%
# Cells of the published counters that disagree with the others: (counter, server) -> why.
SUSPECT = {
    (
        "Innodb_data_reads",
        "MariaDB 5.5",
    ): "possible typo, or read-ahead batches counted as one read each (see the read-ahead table)"
}
# The original's derived claims as its text states them (no input table holds them) are the
# manifest's `quoted:` (docs/manifest.md): `claims` (claim, as stated, the counter our arithmetic
# divides: MySQL 5.5 / MySQL 5.6) and `free` (the share of the buffer pool left free, with the
# setup's buffer pool size in GB).


def build(ctx) -> list[dict]:
    parsed, quoted = (
        ctx.published(fmt="markdown-tables"),
        {k: ctx.quoted(k) for k in ("claims", "free")},
    )
    known = {r["counter"] for r in find(parsed, "Status counters").rows}
    m = ctx.manifest
    for q in quoted["claims"]:
        if q.get("counter") not in known or not {"claim", "stated"} <= q.keys():
            raise Problem(
                m.path,
                m.line_of.get("quoted"),
                f"quoted: claims: each needs claim, stated and a "
                f"counter of the published status counters, not {clean(str(q), 200)}",
            )
    if len(quoted["free"]) != 1 or not isinstance(
        quoted["free"][0].get("buffer_pool_gb"), (int, float)
    ):
        raise Problem(
            m.path,
            m.line_of.get("quoted"),
            "quoted: free: one row with claim, stated and buffer_pool_gb",
        )
    return derive(parsed, quoted)


def derive(parsed, quoted: dict | None = None) -> list[dict]:
    """The study's tables; `original-claims` only with the manifest's `quoted` claims."""
    counters, changed = status_counters(parsed)
    claims = [original_claims(parsed, quoted["claims"], quoted["free"][0])] if quoted else []
    return [query_time(parsed), speedup(parsed), counters, changed, read_ahead(parsed)] + claims


def read_ahead(parsed) -> dict:
    """Per server: pages read = on-demand reads + read-ahead pages (the sum, to check it), the
    reads the server counts (Innodb_data_reads), and what they would be if each read-ahead batch
    of an extent were one read."""
    t = find(parsed, "Status counters")
    by = {r["counter"]: r for r in t.rows}
    servers = [c for c in t.columns if c != "counter"]
    rows = []
    for s in servers:
        on_demand = by["Innodb_buffer_pool_reads"][s]
        ahead = by["Innodb_buffer_pool_read_ahead"][s]
        rows.append(
            {
                "server": s,
                "on_demand": on_demand,
                "read_ahead": ahead,
                "sum": on_demand + ahead,
                "pages_read": by["Innodb_pages_read"][s],
                "data_reads": by["Innodb_data_reads"][s],
                "batched": round(on_demand + ahead / EXTENT_PAGES),
            }
        )
    return table(
        "read-ahead",
        "Pages read: on-demand reads and read-ahead (published counters, IO-bound run)",
        [
            col("server", "Server", "label"),
            col("on_demand", "Innodb_buffer_pool_reads (on demand)", "number", 0),
            col("read_ahead", "Innodb_buffer_pool_read_ahead", "number", 0),
            col("sum", "Sum", "number", 0),
            col("pages_read", "Innodb_pages_read", "number", 0),
            col("data_reads", "Innodb_data_reads", "number", 0),
            col(
                "batched",
                f"Reads if a read-ahead extent ({EXTENT_PAGES} pages) were one",
                "number",
                0,
            ),
        ],
        rows,
    )


def rounding_range(base: float, value: float) -> tuple[float | None, float | None]:
    """The smallest and largest base / value when both were rounded to whole units."""
    low = ratio(base - 0.5, value + 0.5, 1)
    high = ratio(base + 0.5, value - 0.5, 1) if value > 0.5 else None
    return low, high


def original_claims(parsed, claims: list[dict], free_claim: dict) -> dict:
    """The original's derived claims as it states them, beside the same arithmetic on its counters."""
    t = find(parsed, "Status counters")
    scaled = {}
    for i, r in enumerate(t.rows):
        scaled[r["counter"]] = {
            s: in_base_unit(r[s], t.units.get(f"{i}/{s}")) for s in t.columns if s != "counter"
        }
    rows = []
    for q in claims:
        c, counter = scaled[q["counter"]], q["counter"]
        rows.append(
            {
                "claim": q["claim"],
                "stated": q["stated"],
                "how": f"{counter}, {BASE_SERVER} / MySQL 5.6",
                "ours": ratio(c[BASE_SERVER], c["MySQL 5.6"], 1),
                "ours_pct": None,
            }
        )
    read = scaled["Innodb_data_read"]["MySQL 5.6"]
    pool = free_claim["buffer_pool_gb"] * 1024**3
    free = None if read is None else round(100 * (1 - read / pool), 1)
    rows.append(
        {
            "claim": free_claim["claim"],
            "stated": free_claim["stated"],
            "how": "1 - Innodb_data_read of MySQL 5.6 / buffer pool",
            "ours": None,
            "ours_pct": free,
        }
    )
    return table(
        "original-claims",
        "The original's derived claims, and the same arithmetic on its published counters",
        [
            col("claim", "Claim", "text"),
            col("stated", "As the original states it", "text"),
            col("how", "Our arithmetic from", "text"),
            col("ours", "Our arithmetic (×)", "ratio", 1),
            col("ours_pct", "Our arithmetic (%)", "number", 1),
        ],
        rows,
    )


def query_time(parsed) -> dict:
    t = find(parsed, "TPC-H Q19 query time, IO-bound")
    base = next(r for r in t.rows if r["server"] == BASE_SERVER)["minutes"]
    rows = []
    for r in t.rows:
        low, high = rounding_range(base, r["minutes"])
        rows.append(
            {
                "server": r["server"],
                "icp": r["ICP"],
                "minutes": r["minutes"],
                "speedup": ratio(base, r["minutes"], 0),
                "speedup_low": low,
                "speedup_high": high,
                "note": r["note"],
            }
        )
    return table(
        "query-time-io-bound",
        t.name,
        [
            col("server", "Server", "label"),
            col("icp", "ICP", "label"),
            col("minutes", "Minutes (as published, whole minutes)", "number", 0),
            col("speedup", f"Speed-up vs {BASE_SERVER}", "ratio", 0),
            col("speedup_low", "lowest the rounding allows", "ratio", 0),
            col("speedup_high", "highest", "ratio", 0),
            col("note", "Note", "text"),
        ],
        rows,
        carry_notes(t, {i: i for i in range(len(rows))}, {"minutes": "minutes"}),
    )


def speedup(parsed) -> dict:
    """Speed-up from ICP per server, in-memory (published) and IO-bound (from the minutes)."""
    io = find(parsed, "TPC-H Q19 query time, IO-bound")
    mem = find(parsed, "TPC-H Q19 speed-up from ICP, in-memory")
    base = next(r for r in io.rows if r["server"] == BASE_SERVER)["minutes"]
    rows, notes = [], {}
    for r in io.rows:
        rows.append(
            {
                "server": r["server"],
                "workload": "IO-bound (SF 40)",
                "speedup": ratio(base, r["minutes"], 0),
            }
        )
    speed_col = next(c for c in mem.columns if c.startswith("speed-up"))
    for i, r in enumerate(mem.rows):
        if f"{i}/{speed_col}" in mem.notes:
            notes[f"{len(rows)}/speedup"] = mem.notes[f"{i}/{speed_col}"]
        rows.append(
            {"server": r["server"], "workload": "in-memory (SF 2)", "speedup": r[speed_col]}
        )
    return table(
        "speedup",
        "Q19 speed-up over MySQL 5.5 (no ICP), per workload",
        [
            col("server", "Server", "label"),
            col("workload", "Workload", "label"),
            col(
                "speedup", f"Speed-up vs {BASE_SERVER}", "ratio", 0
            ),  # whole minutes and "2x": no decimals
        ],
        rows,
        notes,
    )


def status_counters(parsed) -> tuple[dict, dict]:
    """The counters with each server's ratio to the base, and the changed ones in long form."""
    t = find(parsed, "Status counters")
    servers = [c for c in t.columns if c != "counter"]
    others = [s for s in servers if s != BASE_SERVER]
    key = {s: slug(s).replace("-", "_") for s in servers}
    rows, long_rows, notes = [], [], {}
    for i, r in enumerate(t.rows):
        units = {t.units.get(f"{i}/{s}") for s in servers if r[s] is not None}
        unit = units.pop() if len(units) == 1 else None
        scaled = {
            s: (r[s] if unit else in_base_unit(r[s], t.units.get(f"{i}/{s}"))) for s in servers
        }
        row = {"counter": r["counter"], "unit": unit or "count"}
        if (
            row["unit"] != "count"
        ):  # the post hides the unit column: the one other unit goes with the name
            notes[f"{i}/counter"] = f"in {row['unit']}, as published"
        row.update({key[s]: r[s] if unit else scaled[s] for s in servers})
        for s in others:
            row[f"{key[s]}_ratio"] = ratio(scaled[s], scaled[BASE_SERVER], 3)
            if (r["counter"], s) in SUSPECT:
                notes[f"{i}/{key[s]}"] = notes[f"{i}/{key[s]}_ratio"] = "see the read-ahead table"
        rows.append(row)
        if any(
            row[f"{key[s]}_ratio"] is not None
            and abs(row[f"{key[s]}_ratio"] - 1) > CHANGED
            and (r["counter"], s) not in SUSPECT
            for s in others
        ):
            long_rows += [
                {
                    "counter": r["counter"],
                    "server": s,
                    "ratio": row[f"{key[s]}_ratio"],
                    "flag": SUSPECT.get((r["counter"], s)),
                }
                for s in others
            ]
    columns = [
        col("counter", "Counter (a count unless noted)", "label"),
        col("unit", "Unit (as published)", "text"),
    ]
    columns += [col(key[s], s, "number", None) for s in servers]
    columns += [col(f"{key[s]}_ratio", f"{s} / {BASE_SERVER}", "ratio", 3) for s in others]
    counters = table(
        "status-counters",
        f"{t.name} (N/A: the counter does not exist in that server)",
        columns,
        rows,
        notes,
    )
    return counters, _changed_table(long_rows)


def _changed_table(long_rows: list[dict]) -> dict:
    """`counters-changed`: each counter that changed by more than CHANGED, one row a server."""
    return table(
        "counters-changed",
        f"Counters that changed by more than {CHANGED:.0%} against {BASE_SERVER}",
        [
            col("counter", "Counter", "label"),
            col("server", "Server", "label"),
            col("ratio", f"Ratio to {BASE_SERVER}", "ratio", 3),
            col("flag", "Flag", "text"),
        ],
        long_rows,
    )
