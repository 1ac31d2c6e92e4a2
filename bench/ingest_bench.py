"""Ingest benchmark: the full ingest of the myrocks-cloud-cost archive against the archive
authors' own extraction (`grep "thds:" FILE | awk ...` per log), timed side by side.

    .venv/bin/python -m bench.ingest_bench [--repeat N] [--before DIR] [--stages] [--smoke]

Like for like (the ingest goal is judged on this pair): both start from the published
`.tar.gz` and both pay for their own process start and decompression.
- baseline: `tar xzf` into an empty dir, then the authors' loop over the 36 logs (bash, grep,
  awk: 1 + 72 processes);
- ours: `python -m ingest myrocks-cloud-cost` into an empty data dir (interpreter start,
  imports, sha256, gunzip, parse, metrics, study tables, YAML, atomic write).
For reference, also timed: the baseline loop alone over already-extracted logs, `ingest()`
in-process (no interpreter start) and the sysbench parser alone over the in-memory logs.

The commands run interleaved (one of each per round, `--repeat` rounds) so a change in the
machine's load hits all of them alike; each figure is the median. CPU time is user + sys of
the processes a command starts (of this process for the in-process rows); it is the figure
the goal is judged on: on the shared 2-CPU machine other jobs inflate wall time, not CPU
time. Wall times are printed too.
`--before DIR` adds `python -m ingest` run in another checkout (before/after a change, under
the same load); the bytecode of both checkouts' `ingest/` is compiled first. `--stages` adds where the CPU time of one cold ingest goes
(bench/ingest_stages.py). `--smoke`: one round (the real archive is the input: the figures
are the bench's whole point, and one round takes seconds). Results: docs/performance.md.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from bench import smoke

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
ARCHIVE = SHARED / "archives" / "percona-201807-rocksdb-cloud.tar.gz"
MANIFEST = ROOT / "content/posts/myrocks-cloud-cost/manifest.yaml"
# The authors' extraction: per-second "sec,tps" of each log (as in their parse.sh / res.csv).
LOOP = """for f in res_*.txt; do grep "thds:" "$f" | awk '{sub(/s/,"",$2); print $2","$7}' > "$f.csv"; done"""


def _cpu(who: int) -> float:
    """CPU seconds (user + sys) of this process (RUSAGE_SELF) or of its finished children."""
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def interleaved(
    fns: dict, repeat: int, in_process: frozenset[str] = frozenset()
) -> dict[str, tuple[float, float]]:
    """{name: (median wall s, median CPU s)} over `repeat` rounds, each round running every fn
    once. The CPU time of a fn that runs processes is theirs alone (not this process's cost
    of starting them); of a fn named in `in_process`, this process's and that of the workers
    it forks (the parse pool)."""
    walls: dict[str, list] = {k: [] for k in fns}
    cpus: dict[str, list] = {k: [] for k in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            w0, me0, kids0 = (
                time.perf_counter(),
                _cpu(resource.RUSAGE_SELF),
                _cpu(resource.RUSAGE_CHILDREN),
            )
            fn()
            walls[name].append(time.perf_counter() - w0)
            kids = _cpu(resource.RUSAGE_CHILDREN) - kids0
            me = _cpu(resource.RUSAGE_SELF) - me0
            cpus[name].append(kids + me if name in in_process else kids)
    return {k: (statistics.median(walls[k]), statistics.median(cpus[k])) for k in fns}


def stages(repeat: int) -> list[tuple[str, float]]:
    """Median CPU seconds of each step of a cold `python -m ingest`-like run (bench/ingest_stages.py)."""
    runs = [
        json.loads(
            subprocess.run(
                # -m from ROOT: this checkout's ingest (as a script, the editable install's)
                [sys.executable, "-m", "bench.ingest_stages"],
                cwd=ROOT,
                check=True,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            ).stdout
        )
        for _ in range(repeat)
    ]
    return [(name, statistics.median(r[name] for r in runs)) for name in runs[0]]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument(
        "--before",
        type=Path,
        metavar="DIR",
        help="also time `python -m ingest` in another checkout (e.g. of an older commit)",
    )
    ap.add_argument("--stages", action="store_true", help="also print the CPU split of the ingest")
    smoke.add_flag(ap)
    args = ap.parse_args()
    if args.smoke:
        args.repeat = 1
    for root in (ROOT, *([args.before.resolve()] if args.before else [])):
        # the bytecode an installed checkout has; without it (a fresh worktree, and
        # PYTHONDONTWRITEBYTECODE set) every run would compile the ingest, ~0.05 s
        compileall.compile_dir(root / "ingest", quiet=1)
    from ingest.parse.member import parse_bytes
    from ingest.pipeline import ingest
    from ingest.read.archive import Archive

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        with tarfile.open(ARCHIVE) as tf:
            tf.extractall(tmp / "ex", filter="data")
        logs_dir = next((tmp / "ex").iterdir())
        n_logs = len(list(logs_dir.glob("res_*.txt")))
        arc = Archive(ARCHIVE)
        logs = [n for n in arc.names() if n.startswith("res_") and n.endswith(".txt")]

        def fresh() -> Path:
            return Path(tempfile.mkdtemp(dir=tmp))

        def baseline():
            subprocess.run(
                ["bash", "-c", f'tar xzf "$0" && cd */ && {LOOP}', str(ARCHIVE)],
                cwd=fresh(),
                check=True,
            )

        def loop_only():
            subprocess.run(["bash", "-c", LOOP], cwd=logs_dir, check=True)

        def cli(root: Path = ROOT):
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "ingest",
                    "myrocks-cloud-cost",
                    "--archives",
                    str(ARCHIVE.parent),
                    "--studies",
                    str(SHARED / "studies"),
                    "--data",
                    str(fresh() / "data"),
                ],
                cwd=root,
                check=True,
                stdout=subprocess.DEVNULL,  # the ingest report
                stderr=subprocess.DEVNULL,
            )

        def in_process():
            ingest(MANIFEST, ARCHIVE.parent, SHARED / "studies", fresh() / "data")  # no output

        def parse_only():
            for n in logs:
                parse_bytes(arc.read(n), n, "sysbench1")

        fns = {
            "tar xzf + grep|awk (baseline)": baseline,
            "python -m ingest (process)": cli,
            "grep|awk, logs extracted": loop_only,
            "ingest() in-process": in_process,
            "parse only (in memory)": parse_only,
        }
        subprocesses = ["tar xzf + grep|awk (baseline)", "python -m ingest (process)"]
        subprocesses += ["grep|awk, logs extracted", "python -m ingest, --before"]
        if args.before:
            fns["python -m ingest, --before"] = lambda: cli(args.before.resolve())
        res = interleaved(fns, args.repeat, frozenset(fns) - {*subprocesses})
    base_wall, base_cpu = res["tar xzf + grep|awk (baseline)"]
    print(
        f"archive: {ARCHIVE.name}, {n_logs} logs, median of {args.repeat} interleaved rounds, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'what':<32} {'CPU s':>7} {'ratio':>6} {'wall s':>7} {'ratio':>6}")
    for name, (wall, cpu) in res.items():
        print(f"{name:<32} {cpu:7.3f} {cpu / base_cpu:6.2f} {wall:7.3f} {wall / base_wall:6.2f}")
    if args.stages:
        print(
            f"\nwhere the CPU time of one ingest process goes (median of {args.repeat} cold runs)"
        )
        for name, cpu in stages(args.repeat):
            print(f"{name:<44} {cpu:7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
