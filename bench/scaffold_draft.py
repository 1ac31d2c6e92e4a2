"""The scaffold's draft of a large archive, then its ingest: seconds and peak memory of each.

    .venv/bin/python -m bench.scaffold_draft [--runs N] [--repo DIR] [--smoke] [--profile]

An archive of N sysbench logs (default 19,000: `sb_<engine>_t<threads>_<k>.log`, 20 intervals
each, written by tests/kit/sysbench_gen.py) is drafted with `python -m ingest new`, and the
draft ingested with `python -m ingest <study>`, each step in a fresh subprocess from `--repo`
(archive_bombs.run_case: its seconds and VmHWM). `--profile` prints the ingest's top functions
instead. `--smoke` drafts and ingests 300 runs and checks both exit 0 (the suite runs it).
Figures in docs/performance.md, "Hostile inputs, round four".
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
from pathlib import Path

from bench.archive_bombs import run_case
from tests.kit.sysbench_gen import sysbench_log, tar_gz

ENGINES = ("innodb", "rocksdb", "tokudb", "aria")
THREADS = (1, 2, 4, 8, 16, 32, 64, 128)


def archive(path: Path, runs: int) -> Path:
    logs = {}
    for i in range(runs):
        engine, threads = ENGINES[i % len(ENGINES)], THREADS[(i // len(ENGINES)) % len(THREADS)]
        k = i // (len(ENGINES) * len(THREADS))
        logs[f"sb_{engine}_t{threads}_{k}.log"] = sysbench_log(
            400 + i % 97, seconds=20, threads=threads
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    return tar_gz(path, logs, top="big")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=19_000)
    ap.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1])
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--profile", action="store_true", help="profile the ingest in-process")
    ap.add_argument("--timeout", type=float, default=900)
    args = ap.parse_args()
    runs = 300 if args.smoke else args.runs
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        arc = archive(t / "archives" / "big.tar.gz", runs)
        posts = t / "posts"
        new = ["module", "ingest", "new", "big-study", str(arc), "--content", str(posts)]
        where = ["--content", str(posts), "--archives", str(arc.parent), "--data", str(t / "d")]
        steps = {"new": new, "ingest": ["module", "ingest", "big-study", *where]}
        failed = False
        for step, argv in steps.items():
            if step == "ingest" and args.profile:
                from ingest.__main__ import main as ingest_main

                prof = cProfile.Profile()
                prof.runcall(ingest_main, argv[2:])
                pstats.Stats(prof).sort_stats("tottime").print_stats(20)
                continue
            r = run_case(args.repo, argv, args.timeout, 0)
            print(f"{step} ({runs:,} runs): {r['s']} s, peak {r['rss_mb']} MB, exit {r['exit']}")
            failed |= r["exit"] != 0
    return 1 if args.smoke and failed else 0


if __name__ == "__main__":
    sys.exit(main())
