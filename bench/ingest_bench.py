"""Ingest benchmark: the full ingest of the myrocks-cloud-cost archive against the archive
authors' own extraction (`grep "thds:" FILE | awk ...` per log), timed side by side.

    .venv/bin/python bench/ingest_bench.py [--repeat N]

Baseline: the authors' pipeline over the same 36 logs, already extracted to a temp dir (the
extraction itself is not timed: the baseline gets the easier job). Ours, three ways:
- `python -m ingest` as a process (interpreter start, sha256, gunzip, parse, metrics, YAML,
  atomic write into an empty data dir) -- the like-for-like comparison with a shell pipeline;
- the same in-process (no interpreter start);
- parse only (decode + sysbench parser over the logs, in memory).
Each is the median of `--repeat` runs. Results go in docs/performance.md.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
ARCHIVE = SHARED / "archives" / "percona-201807-rocksdb-cloud.tar.gz"
MANIFEST = ROOT / "content/posts/myrocks-cloud-cost/manifest.yaml"
# The authors' extraction: per-second "sec,tps" of each log (as in their parse.sh / res.csv).
BASELINE = """for f in res_*.txt; do grep "thds:" "$f" | awk '{sub(/s/,"",$2); print $2","$7}' > "$f.csv"; done"""


def _cpu() -> float:
    """CPU seconds (user + sys) of this process and its finished children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def median_time(fn, repeat: int) -> tuple[float, float]:
    """Median (wall seconds, CPU seconds) of `repeat` runs of fn. CPU time is the steadier
    figure on a shared machine: other processes inflate wall time, not our CPU time."""
    walls, cpus = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), _cpu()
        fn()
        walls.append(time.perf_counter() - w0)
        cpus.append(_cpu() - c0)
    return statistics.median(walls), statistics.median(cpus)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from ingest.archive import Archive
    from ingest.read import parse_bytes
    from ingest.study import ingest

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        with tarfile.open(ARCHIVE) as tf:
            tf.extractall(tmp / "ex", filter="data")
        logs_dir = next((tmp / "ex").iterdir())
        n_logs = len(list(logs_dir.glob("res_*.txt")))

        def baseline():
            subprocess.run(["bash", "-c", BASELINE], cwd=logs_dir, check=True)

        def fresh_data():
            d = Path(tempfile.mkdtemp(dir=tmp))
            return d / "data"

        def cli():
            subprocess.run([sys.executable, "-m", "ingest", "myrocks-cloud-cost", "--archives", str(ARCHIVE.parent),
                            "--studies", str(SHARED / "studies"), "--data", str(fresh_data())],
                           cwd=ROOT, check=True, stderr=subprocess.DEVNULL)

        def in_process():
            ingest(MANIFEST, ARCHIVE.parent, SHARED / "studies", fresh_data())

        arc = Archive(ARCHIVE)
        logs = [n for n in arc.names() if n.startswith("res_") and n.endswith(".txt")]

        def parse_only():
            for n in logs:
                parse_bytes(arc.read(n), n, "sysbench1")

        base = median_time(baseline, args.repeat)
        rows = [("python -m ingest (process)", median_time(cli, args.repeat)),
                ("ingest() in-process", median_time(in_process, args.repeat)),
                ("parse only (in memory)", median_time(parse_only, args.repeat))]
    print(f"archive: {ARCHIVE.name}, {n_logs} logs, median of {args.repeat} runs, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print(f"{'what':<30} {'wall s':>7} {'ratio':>6} {'CPU s':>7} {'ratio':>6}")
    print(f"{'grep thds: | awk (baseline)':<30} {base[0]:7.3f} {1:6.2f} {base[1]:7.3f} {1:6.2f}")
    for name, (wall, cpu) in rows:
        print(f"{name:<30} {wall:7.3f} {wall / base[0]:6.2f} {cpu:7.3f} {cpu / base[1]:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
