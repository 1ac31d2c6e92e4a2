"""innodb-redo-log-size: InnoDB redo log size and the insert benchmark.

The four published tables (`published-tables.txt`, F9) are carried as they are, plus the
version, buffer pool and redo size parsed from each row's engine name
(`inno<version>.<compression>.<buffer pool>.redo<GB>`). `by-redo` puts the four cells
(workload x storage) in one long table for the charts against redo size.

Two readings of the redo size: the rows' labels (redo2 ... redo16 in three tables, redo4 ...
redo32 in the fourth) and the sizes the original's prose names (4, 8, 16 and 32 GB: the
manifest's `quoted: stated_redo_gb`). Each table's distinct labels, in ascending order, are
the stated sizes in order; both are columns of every table (`redo_gb`: the label's, `stated_gb`:
the text's), and the charts use the stated ones.
"""

from __future__ import annotations

import re

from ingest.derive.tables import col, table
from ingest.problems import Problem

ENGINE = re.compile(
    r"^inno(?P<version>\d+)\.(?P<compression>[^.]+)\.(?P<pool>[^.]+)\.redo(?P<redo>\d+)$"
)
# Column legend of the published tables (the author's definitions, docs in the post).
LEGEND = {
    "ips.av": ("Inserts/s, average", 0),
    "ips.99": ("Inserts/s, p99 of ~10 s intervals", 0),
    "r/i": ("Reads / insert", 2),
    "rKB/i": ("KB read / insert", 2),
    "wKB/i": ("KB written / insert", 2),
    "Mcpu/i": ("CPU / insert (relative)", 0),
    "size": ("DB size, GB", 0),
    "rss": ("mysqld RSS, GB", 1),
    "r/s": ("Reads/s", 0),
    "rMB/s": ("Read MB/s", 1),
    "wMB/s": ("Write MB/s", 1),
    "cpu": ("CPU %", 1),
}


def version_of(digits: str) -> str:
    """'5717' -> '5.7.17' (major, minor, then the rest is the patch level)."""
    return f"{digits[0]}.{digits[1]}.{digits[2:]}"


def key_of(column: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", column.lower().replace("/", "_per_")).strip("_")


def engine_fields(engine: str, file: str, line: int | None) -> dict:
    m = ENGINE.match(engine)
    if not m:
        raise Problem(
            file, line, f"engine {engine!r} is not inno<version>.<compression>.<pool>.redo<GB>"
        )
    return {
        "version": version_of(m["version"]),
        "compression": m["compression"],
        "buffer_pool": m["pool"],
        "redo_gb": int(m["redo"]),
    }


def build(ctx) -> list[dict]:
    stated = [row["gb"] for row in ctx.quoted("stated_redo_gb")]
    return derive(ctx.published(fmt="summary-table"), stated)


def stated_sizes(labels: list[int], stated: list[int], file: str, line: int | None) -> dict:
    """{label GB: stated GB}: a table's distinct labelled sizes, ascending, are the sizes the
    original's text names, in order."""
    distinct = sorted(set(labels))
    if len(distinct) != len(stated):
        raise Problem(
            file,
            line,
            f"{len(distinct)} redo sizes in the rows' labels ({distinct}) but "
            f"{len(stated)} stated in the text ({stated}): cannot pair them",
        )
    return dict(zip(distinct, stated))


def derive(parsed, stated: list[int]) -> list[dict]:
    """A table per published table (workload and storage), then `by-redo`: every row of them
    in one long table, one line per version and redo size."""
    tables, long_rows = [], []
    for t in parsed.tables:
        wide, long = _cell_table(parsed, t, stated)
        tables.append(wide)
        long_rows += long
    tables.append(
        table(
            "by-redo",
            "Insert rate, KB written and CPU per insert against redo log size",
            [
                col("cell", "Workload, storage", "label"),
                col("workload", "Workload", "label"),
                col("storage", "Storage", "label"),
                col("version", "Version", "label"),
                col("stated_gb", "Redo log GB, as stated", "number", 0),
                col("label", "Row label", "label"),
                col("redo_gb", "Redo GB (row label)", "number", 0),
                col("ips_av", "Inserts/s (avg)", "number", 0),
                col("ips_99", "Inserts/s (p99)", "number", 0),
                col("wkb_per_i", "KB written / insert", "number", 2),
                col("mcpu_per_i", "CPU / insert", "number", 0),
            ],
            long_rows,
        )
    )
    return tables


def _cell_table(parsed, t, stated: list[int]) -> tuple[dict, list[dict]]:
    """One published table (a workload on a storage) as published, with each row's version and
    redo size, and its rows for `by-redo`."""
    workload, storage = [p.strip() for p in t.name.split(" / ")]
    workload = workload.removesuffix(" load metrics")
    tid = f"{workload}-{storage}".lower().replace(" ", "-")
    values = [c for c in t.columns if c != "engine"]
    fields_of = [
        engine_fields(r["engine"], parsed.file, t.line + 1 + i) for i, r in enumerate(t.rows)
    ]
    sizes = stated_sizes([f["redo_gb"] for f in fields_of], stated, parsed.file, t.line)
    rows, long_rows = [], []
    for r, fields in zip(t.rows, fields_of):
        rows.append(
            {
                "engine": r["engine"],
                "version": fields["version"],
                "redo_gb": fields["redo_gb"],
                "stated_gb": sizes[fields["redo_gb"]],
                **{key_of(c): r[c] for c in values},
            }
        )
        long_rows.append(
            {
                "workload": workload,
                "storage": storage,
                "cell": f"{workload}, {storage}",
                "version": fields["version"],
                "redo_gb": fields["redo_gb"],
                "stated_gb": sizes[fields["redo_gb"]],
                "label": f"redo{fields['redo_gb']}",
                "ips_av": r["ips.av"],
                "ips_99": r["ips.99"],
                "wkb_per_i": r["wKB/i"],
                "mcpu_per_i": r["Mcpu/i"],
            }
        )
    columns = [
        col("engine", "Engine", "label"),
        col("version", "Version", "label"),
        col("redo_gb", "Redo GB (row label)", "number", 0),
        col("stated_gb", "Redo GB, as stated", "number", 0),
    ]
    columns += [
        col(
            key_of(c),
            f"{c}: {LEGEND[c][0]}" if c in LEGEND else c,
            "number",
            LEGEND.get(c, (0, None))[1],
        )
        for c in values
    ]
    return table(tid, f"{workload} load, {storage} (as published)", columns, rows), long_rows
