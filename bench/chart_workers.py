"""The charts step drawn by one Node process and by one per CPU, side by side: wall and CPU
time of the step, and whether both wrote the same bytes (publish/charts.py shares the charts
of a large site among `workers()` drawer processes).

    .venv/bin/python -m bench.chart_workers [--copies 8] [--rounds 2] [--smoke]

A copy of this tree with `--copies` extra cloud-size studies (bench/build_bench.py's
make_site) is built up to the series files once (`python -m publish --steps hugo,series`);
then, per round, the charts step runs on a fresh copy of that site with one drawer and with
`--workers` drawers (default: one per CPU), interleaved, the drawing cache off. CPU = user +
sys of this process and the drawers; the figures are medians. `--smoke`: the fixture
studies' site (bench/smoke.py), one round, its few charts forced onto 2 drawers.
Results: docs/performance.md ("Build time").
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import smoke
from bench.build_bench import make_site
from publish import charts
from publish.theme import light_theme

ROOT = Path(__file__).resolve().parents[1]


def _cpu() -> float:
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def draw(site: Path, dest: Path, workers: int) -> tuple[float, float, dict[str, bytes]]:
    """(wall s, CPU s, the drawn site's files) of the charts step over a copy of `site`."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(site, dest, symlinks=True)
    os.environ["CHART_SVG_CACHE"] = "off"
    w0, c0 = time.perf_counter(), _cpu()
    charts.draw(dest, light_theme(), n_workers=workers)
    wall, cpu = time.perf_counter() - w0, _cpu() - c0
    files = {str(p.relative_to(dest)): p.read_bytes() for p in dest.rglob("*") if p.is_file()}
    return wall, cpu, files


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=8, help="extra cloud-size studies")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    smoke.add_flag(ap)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="chart-workers-") as tmp:
        if args.smoke:
            args.rounds, args.workers = 1, 2
            site = Path(tmp) / "www" / "site"
            smoke.publish(smoke.tiny_job(site), ("hugo", "series"))
        else:
            tree = make_site(ROOT, Path(tmp) / "tree", args.copies)
            site = tree / "site"
            cmd = [sys.executable, "-m", "publish", "site", "--steps", "hugo,series"]
            subprocess.run(cmd, cwd=tree, check=True, stdout=subprocess.DEVNULL)
        n = len(charts.drawer_jobs(charts.chart_pages(site)))
        runs: dict[int, list[tuple[float, float]]] = {1: [], args.workers: []}
        drawn: dict[int, dict[str, bytes]] = {}
        for _ in range(args.rounds):
            for workers in runs:
                wall, cpu, drawn[workers] = draw(site, Path(tmp) / f"drawn-{workers}", workers)
                runs[workers].append((wall, cpu))
        same = drawn[1] == drawn[args.workers]
    print(
        f"{n} charts (+{0 if args.smoke else args.copies} cloud-size studies), median of "
        f"{args.rounds} interleaved rounds, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f}"
    )
    print(f"{'drawers':<9}{'wall s':>8}{'ratio':>7}{'CPU s':>8}{'ratio':>7}")
    base_wall, base_cpu = (statistics.median(x[i] for x in runs[1]) for i in (0, 1))
    for workers, values in runs.items():
        wall, cpu = (statistics.median(x[i] for x in values) for i in (0, 1))
        print(f"{workers:<9}{wall:>8.2f}{wall / base_wall:>7.2f}{cpu:>8.2f}{cpu / base_cpu:>7.2f}")
    print(f"same bytes: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
