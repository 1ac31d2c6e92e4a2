"""Result archives the project has never seen, written at test time (tests/kit/archive_gen.py
formats, numbers of our own), in shapes none of the six studies has:

- `collations`: sysbench 0.5 at 2 s intervals, 6 servers x 5 collations x 18 thread counts =
  540 runs in nested folders `<server>/<collation>/<threads>thr.log`, with a DESC at the top
  naming what each folder is; no engine; a .tar.gz;
- `redo-tpcc`: tpcc-mysql, two redo log sizes x two buffer pools, 15,000 s runs at 10 s with
  seconds in which no New-Order completed (`95%: 0.000`), a .zip;
- `tpcc-vmstat`: sysbench-tpcc (sysbench 1.x) for 4 hours at 1 s on two MySQL versions
  (`mysql-8-0-21/`), each with a `vmstat 1` of the whole run beside it, a directory;
- `single-run`: one sysbench 1.x run and nothing to tell it apart, a .tgz;
- `insert-summary` (AUTHORED: drafted by `make new`, and written by an author, manifest and
  post, `file_tables:`): an insert benchmark's summary tables only, no run, a .tar.gz;
- `many_runs`: the first at scale, 990 runs of eleven server versions, optionally with a
  vmstat beside each run (tests/ingest/scaffold/test_drafts_build.py, bench/).

`write(name, root)` writes one into `root` and returns (archive path, origin URL). Each is
deterministic: the same bytes (and member times) on every call.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.kit.archive_gen import (
    sysbench05_log,
    sysbench1_log,
    tar_gz,
    tpcc_mysql_log,
    vmstat_text,
    write_tree,
    zip_file,
)

SERVERS = {
    "mariadb-10.0.38": 1.0,
    "mariadb-10.1.41": 0.97,
    "mariadb-10.2.27": 0.95,
    "mariadb-10.3.18": 0.93,
    "mariadb-10.4.8": 0.92,
    "mysql-5.7.27": 1.05,
}
COLLATIONS = {
    "latin1_swedish_ci": 1.0,
    "utf8_general_ci": 0.96,
    "utf8mb4_general_ci": 0.94,
    "utf8mb4_unicode_ci": 0.9,
    "utf8mb4_unicode_520_ci": 0.88,
}
THREADS = (1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)
# 2019-11-04 09:30 UTC and 2019-06-12 18:00 UTC: the newest member times of two archives
COLLATIONS_TIME = 1572859800
REDO_TIME = (2019, 6, 12, 18, 0, 0)
VMSTAT_TIME = 1598918400  # 2020-09-01 00:00 UTC


def _scaling(threads: int) -> float:
    """Throughput against thread count: up to 64 threads, then a slow decline."""
    return min(threads, 64) ** 0.8 * (1 if threads <= 64 else (64 / threads) ** 0.15)


def collations(root: Path) -> tuple[Path, str]:
    members = {
        "DESC": "sysbench 0.5 oltp read-only, 30 s per run, 2 s reports.\n"
        "Layout: <server>/<collation>/<threads>thr.log\n",
    }
    seed = 0
    for server, s in SERVERS.items():
        for coll, c in COLLATIONS.items():
            for t in THREADS:
                seed += 1
                members[f"{server}/{coll}/{t}thr.log"] = sysbench05_log(
                    40 * _scaling(t) * s * c, 30, interval=2, threads=t, seed=seed
                )
    path = tar_gz(
        root / "sb05-collations-2019.tar.gz", members, top="collations", mtime=COLLATIONS_TIME
    )
    return path, "https://example.org/results/sb05-collations-2019"


def redo_tpcc(root: Path) -> tuple[Path, str]:
    members = {}
    for i, (redo, bp) in enumerate([(2, 27), (2, 54), (16, 27), (16, 54)]):
        members[f"tpcc_mysql-5.7.31_redo{redo}GB_bp{bp}GB.log"] = tpcc_mysql_log(
            900 * (1 + redo / 40) * (1 + bp / 200),
            15_000,
            interval=10,
            warehouses=1000,
            connections=64,
            seed=10 + i,
            idle=(3, 400 + 37 * i, 1203),
        )
    path = zip_file(root / "tpcc-redo-log.zip", members, top="tpcc-redo", when=REDO_TIME)
    return path, "https://example.org/tpcc/redo-log-size"


def tpcc_vmstat(root: Path) -> tuple[Path, str]:
    hours = 4 * 3600
    members = {}
    for i, (version, rate) in enumerate({"8-0-21": 2100.0, "8-0-22": 2250.0}.items()):
        members[f"mysql-{version}/sysbench-tpcc.log"] = sysbench1_log(
            rate, hours, interval=1, threads=64, seed=30 + i, queries_per_trx=28
        )
        members[f"mysql-{version}/vmstat.log"] = vmstat_text(
            hours, seed=40 + i, header_every=300, busy=55 + 5 * i
        )
    tree = write_tree(root / "mysql8-sysbench-tpcc", members)
    for p in tree.rglob("*"):
        os.utime(p, (VMSTAT_TIME, VMSTAT_TIME))
    return tree, "https://example.org/mysql8/sysbench-tpcc"


def single_run(root: Path) -> tuple[Path, str]:
    members = {"oltp_point_select.log": sysbench1_log(52_000, 600, threads=32, seed=50)}
    return tar_gz(root / "point-select.tgz", members, top="point-select"), ""


ARCHIVES = {
    "collations": collations,
    "redo-tpcc": redo_tpcc,
    "tpcc-vmstat": tpcc_vmstat,
    "single-run": single_run,
}


def insert_summary(root: Path) -> tuple[Path, str]:
    """Summary tables as the insert benchmark's scripts print them (F9): a load and a scan
    table per row count and server, one row per binary."""
    binaries = {"inno5717": (1.0, 2.4), "myrocks.oct16": (1.6, 1.1), "myisam5717": (1.9, 2.1)}
    parts = []
    for rows, scale in (("10m", 1.0), ("200m", 0.55)):
        for cpu, speed in (("core-i3", 1.0), ("core-i5", 1.3)):
            head = f"{rows}, 1c, 1t, {cpu}, mysql"
            load = [
                f"{round(15000 * scale * speed * f)}\t{g * (20 if rows == '200m' else 1):.1f}\t{b}"
                for b, (f, g) in binaries.items()
            ]
            scan = [f"{round(12 / (scale * speed * f))}\t{b}" for b, (f, _) in binaries.items()]
            parts.append(f"{head} / load mysql\nips.av\tsize\tengine\n" + "\n".join(load))
            parts.append(f"{head} / scan\nsecs\tengine\n" + "\n".join(scan))
    members = {"ibench.results": "\n\n".join(parts) + "\n"}
    path = tar_gz(root / "ibench-own-2017.tar.gz", members, top="ibench", mtime=COLLATIONS_TIME)
    return path, "https://example.org/results/ibench-own-2017"


AUTHORED = {"insert-summary": insert_summary}

# eleven server versions, as a study of many versions names them (a build suffix is part of it)
MANY_SERVERS = {
    "mysql-5.7.44": 1.0,
    "mysql-8.0.36": 0.97,
    "mysql-8.4.0": 0.96,
    "mysql-9.1.0": 0.95,
    "mysql-9.1.0-custom-build": 0.99,
    "percona-server-5.7.44-48": 1.02,
    "percona-server-8.0.36-28": 0.98,
    "percona-server-8.4.0-1": 0.97,
    "mariadb-10.11.7": 1.01,
    "mariadb-11.4.2": 0.99,
    "mariadb-12.1.1": 0.98,
}


def many_runs(root: Path, monitors: bool = False) -> tuple[Path, str]:
    """`collations` at scale: 11 servers x 5 collations x 18 thread counts = 990 sysbench 0.5
    runs, a .tar.gz with a DESC naming the layout; with `monitors`, each run in a folder of its
    own with a `vmstat 1` of it beside (`<server>/<collation>/<threads>thr/sysbench.log`)."""
    layout = "<server>/<collation>/<threads>thr" + ("/sysbench.log" if monitors else ".log")
    members = {"DESC": f"sysbench 0.5 oltp read-only, 30 s per run.\nLayout: {layout}\n"}
    seed = 0
    for server, s in MANY_SERVERS.items():
        for coll, c in COLLATIONS.items():
            for t in THREADS:
                seed += 1
                log = sysbench05_log(40 * _scaling(t) * s * c, 30, interval=2, threads=t, seed=seed)
                if monitors:
                    members[f"{server}/{coll}/{t}thr/sysbench.log"] = log
                    members[f"{server}/{coll}/{t}thr/vmstat.log"] = vmstat_text(32, seed=seed)
                else:
                    members[f"{server}/{coll}/{t}thr.log"] = log
    name = "many-versions-monitors" if monitors else "many-versions"
    path = tar_gz(root / f"{name}.tar.gz", members, top=name, mtime=COLLATIONS_TIME)
    return path, f"https://example.org/results/{name}"


def write(name: str, root: Path) -> tuple[Path, str]:
    root.mkdir(parents=True, exist_ok=True)
    return {**ARCHIVES, **AUTHORED}[name](root)
