"""A DBT3 result archive of our own, in the real formats of the DBT3 kit (mariadb-tools
dbt3_benchmark), written at test time: a shape unlike the MyISAM archive of ../shared.

InnoDB, two servers with several configurations each (one folder per server and
configuration), every run's `sar -u` / `sar -r` samples beside it (German locale, as the kit's
machines printed them), each run's EXPLAIN in its own `N_explain.sql_K_results.txt`, a `DESC`
naming each folder, the kit's test config, and queries that did not finish (`-1`) in several
folders, one of them only in some of its runs. Times and plans are our own numbers."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

# folder -> (description in DESC, base speed factor)
FOLDERS = {
    "mariadb-10-0-bp16": ("MariaDB 10.0.3, InnoDB, 16G buffer pool", 1.0),
    "mariadb-10-0-bp4": ("MariaDB 10.0.3, InnoDB, 4G buffer pool", 1.6),
    "mysql-5-6-bp16": ("MySQL 5.6.11, InnoDB, 16G buffer pool", 1.2),
    "mysql-5-6-bp4": ("MySQL 5.6.11, InnoDB, 4G buffer pool", 2.1),
}
QUERIES = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "9-opt", "10", "11", "12"]
# (folder, query) -> the runs that did not finish: every run, or the listed ones
DNF = {
    ("mysql-5-6-bp4", "9"): {1, 2, 3},
    ("mysql-5-6-bp4", "11"): {1, 2, 3},
    ("mariadb-10-0-bp4", "9"): {1, 2, 3},
    ("mysql-5-6-bp16", "5"): {3},
}
REPEATS = 3
BASE_SECONDS = {q: 20 + 37 * i for i, q in enumerate(QUERIES)}  # 20 s .. 464 s
BASE_SECONDS["3"] = 4  # a fast query: the times span more than 10x


def seconds(folder: str, query: str, run: int) -> int:
    """The time of one run: the query's base times the folder's factor, a second or two apart."""
    if run in DNF.get((folder, query), set()):
        return -1
    factor = FOLDERS[folder][1] * (3.5 if (folder.startswith("mysql") and query == "7") else 1)
    return round(BASE_SECONDS[query] * factor) + (run * 7 + len(query)) % 3


def plan(folder: str, query: str) -> list[tuple]:
    """The EXPLAIN rows (table, type, key, rows, Extra) of a query on a server: MySQL joins
    query 7 in another order and scans where MariaDB reads an index."""
    mysql = folder.startswith("mysql")
    if query == "7":
        order = ["lineitem", "orders"] if mysql else ["orders", "lineitem"]
        return [
            (
                order[0],
                "ALL" if mysql else "range",
                None if mysql else "i_o_orderdate",
                6000000,
                "Using where",
            ),
            (
                order[1],
                "ref" if mysql else "eq_ref",
                "PRIMARY",
                4,
                "Using where" if mysql else None,
            ),
        ]
    rows = 1500000 if folder.endswith("bp16") else 1499990
    return [("lineitem", "range", "i_l_shipdate", rows, "Using index condition")]


def box(rows: list[tuple]) -> str:
    header = (
        "id",
        "select_type",
        "table",
        "type",
        "possible_keys",
        "key",
        "key_len",
        "ref",
        "rows",
        "filtered",
        "Extra",
    )
    cells = [
        (
            "1",
            "SIMPLE",
            t,
            ty,
            key or "PRIMARY",
            key or "NULL",
            "4" if key else "NULL",
            "NULL",
            str(n),
            "100.00",
            extra or "",
        )
        for t, ty, key, n, extra in rows
    ]
    widths = [max(len(r[i]) for r in [header, *cells]) for i in range(len(header))]
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(r):
        return (
            "| "
            + " | ".join(
                v.rjust(w) if v.isdigit() or v.replace(".", "").isdigit() else v.ljust(w)
                for v, w in zip(r, widths)
            )
            + " |"
        )

    return "\n".join([border, line(header), border, *map(line, cells), border])


def all_explains(folder: str) -> str:
    out = []
    for query in QUERIES:
        for run in range(1, REPEATS + 1):
            params = "--optimizer_switch='mrr=on'" if query == "9-opt" else ""
            out.append(
                f"\n\n\n===== {query}_explain.sql Run No: {run} =====\nSTARTUP_PARAMS: {params}\n\n\n"
                f"BEGIN;\n\nEXPLAIN EXTENDED\n\nselect count(*) from lineitem where l_quantity < {run};\n"
                f"COMMIT;\n\n--- Explain result ---\n{box(plan(folder, query))}\n--- Time elapsed ---\n"
                f"{seconds(folder, query, run)}\n"
            )
    return "".join(out)


def sar(kind: str, folder: str, query: str, run: int) -> str:
    """`sar -u` or `sar -r` samples every 5 s (German locale: `18,12,24`, decimal commas)."""
    head = "Linux 3.2.0-4-amd64 (dbt3-bench) \t14.05.2013 \t_x86_64_\t(16 CPU)\n\n"
    n = sar_samples(folder, query, run)
    lines = []
    if kind == "u":
        lines.append(
            "18,12,24        CPU     %user     %nice   %system   %iowait    %steal     %idle"
        )
        for i in range(n):
            busy = 5 + (i * 3 + len(folder)) % 20
            lines.append(
                f"18,12,{24 + 5 * i:02d}        all     {busy:2d},{i % 10}0      0,00      1,{i % 9}2     {i % 7},25      0,00     {94 - busy},{9 - i % 9}0"
            )
    else:
        lines.append(
            "18,12,24    kbmemfree kbmemused  %memused kbbuffers  kbcached  kbcommit   %commit"
        )
        for i in range(n):
            used = 1400000 + 450000 * i
            lines.append(
                f"18,12,{24 + 5 * i:02d}     {15900000 - used:8d}  {used:8d}     {used * 100 // 15900000:2d},{i % 10}8      5056     29916  15215844     84,33"
            )
    return head + "\n".join(lines) + "\n"


def sar_samples(folder: str, query: str, run: int) -> int:
    """How many samples `sar` writes for one run."""
    return max(2, min(8, abs(seconds(folder, query, run)) // 30))


def sar_iowait(folder: str, query: str, run: int) -> float:
    """The mean %iowait `sar -u` prints for one run (`{i % 7},25` per sample), to 4 places."""
    n = sar_samples(folder, query, run)
    return round(sum(i % 7 + 0.25 for i in range(n)) / n, 4)


def sar_user(folder: str, query: str, run: int) -> float:
    """The mean %user `sar -u` prints for one run (`busy,{i % 10}0` per sample), to 4 places."""
    n = sar_samples(folder, query, run)
    return round(sum(5 + (i * 3 + len(folder)) % 20 + (i % 10) / 10 for i in range(n)) / n, 4)


def files() -> dict[str, str]:
    """Every member of the archive: name -> text."""
    out = {
        "DESC": "InnoDB run, scale factor 10, two buffer pool sizes per server\n\n"
        + "".join(f"{f}: {d}\n" for f, (d, _) in FOLDERS.items())
        + "\nthe 4G runs of query 9 did not finish\n",
        "test_innodb_s10.conf": "#perform the actual test\nRUN\t\t= 1\nNUM_TESTS\t\t= 3\nTIMEOUT\t\t\t= 3600\n",
    }
    for folder in FOLDERS:
        out[f"{folder}/all_explains.txt"] = all_explains(folder)
        for query in QUERIES:
            for run in range(1, REPEATS + 1):
                for kind in ("u", "r"):
                    out[f"{folder}/{query}.sql_no_{run}_sar_{kind}.txt"] = sar(
                        kind, folder, query, run
                    )
            out[f"{folder}/{query}_explain.sql_1_results.txt"] = box(plan(folder, query)) + "\n"
    return out


def write_archive(path: Path, top: str = "innodb-s10-2013-05-14") -> Path:
    """The archive as a .tar.gz under one top-level folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w:gz") as tar:
        for name, text in sorted(files().items()):
            data = text.encode()
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size, info.mtime = len(data), 1368500000
            tar.addfile(info, io.BytesIO(data))
    return path


# A manifest of the archive above (`{sha}` its sha256, `{extra}` more sections): the query
# tests' study, and the base of the hostile manifests' tests.
MANIFEST = """\
study: innodb-queries
title: DBT3 on InnoDB
inputs:
  - {{name: dbt3.tar.gz, kind: archive, sha256: {sha}, origin: "file:dbt3.tar.gz"}}
suite: TPC-H
labels: [server, config, version, bp_gb]
label_types: {{bp_gb: int}}
queries:
  - regex: '(?P<server>mariadb|mysql)-(?P<config>[0-9a-z-]+)/all_explains\\.txt'
    format: dbt3-explains
label_files:
  - {{file: DESC, display: config, regex: '(?P<version>\\d+\\.\\d+\\.\\d+), InnoDB, (?P<bp_gb>\\d+)G'}}
{extra}
"""
