"""`python -m ingest new` on a generated study of many runs with monitors: how long the
scaffold takes to draft it, and where the time goes.

    .venv/bin/python -m bench.new_bench [--seconds S] [--repeat N] [--before DIR] [--profile]
    .venv/bin/python -m bench.new_bench --smoke      # a tiny archive, once: the suite runs it

The archive is tests/kit/tiers_gen.py's (sysbench 1.0.20 at 1 s, `vmstat 1` and `iostat -x 1`
named as each run, 240 runs, a monitor missing, some files empty; our own numbers), its runs
`--seconds` long (default 300: 5.2 MB compressed). Each round runs `new` into an empty
content folder, as a process of its own; CPU time is user + sys of that process (the figure
to judge on the shared machine: its load inflates wall time, not CPU time), each figure the
median over `--repeat` rounds. `--before DIR` runs another checkout's `new` interleaved with
this one's. `--profile` prints cProfile's top functions of one in-process run. Results:
docs/performance.md, "make new".
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.kit.tiers_gen import THREADS, tiers

ROOT = Path(__file__).resolve().parents[1]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_new(checkout: Path, archive: Path, content: Path) -> tuple[float, float]:
    """(wall s, CPU s) of one `python -m ingest new` of `archive` run in `checkout`."""
    shutil.rmtree(content, ignore_errors=True)
    cpu0, wall0 = _children_cpu(), time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "ingest", "new", "tiers", str(archive), "--content", str(content)],
        cwd=checkout,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - wall0, _children_cpu() - cpu0


def profile(archive: Path, content: Path, top: int = 12) -> str:
    from ingest.scaffold import new

    shutil.rmtree(content, ignore_errors=True)
    prof = cProfile.Profile()
    prof.runcall(new, "tiers", archive, None, content)
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=int, default=300, help="length of each run")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--before", type=Path, help="another checkout, run interleaved")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="a tiny archive, once")
    args = ap.parse_args(argv)
    seconds, threads, repeat = args.seconds, THREADS, args.repeat
    if args.smoke:
        seconds, threads, repeat = 5, (1, 2), 1
    with tempfile.TemporaryDirectory() as tmp:
        archive, _ = tiers(Path(tmp), seconds=seconds, threads=threads)
        content = Path(tmp) / "content"
        runs = len(threads) * 24 - 1
        print(f"archive: {runs} runs of {seconds} s, {archive.stat().st_size:,} bytes (.tar.gz)")
        checkouts = {"this": ROOT, **({"before": args.before} if args.before else {})}
        got: dict[str, list] = {k: [] for k in checkouts}
        for _ in range(repeat):
            for name, where in checkouts.items():
                got[name].append(run_new(where, archive, content))
        for name, rounds in got.items():
            wall = statistics.median(w for w, _ in rounds)
            cpu = statistics.median(c for _, c in rounds)
            print(f"new ({name}): {cpu:.2f} s CPU, {wall:.2f} s wall (median of {repeat})")
        if args.profile:
            print(profile(archive, content))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
