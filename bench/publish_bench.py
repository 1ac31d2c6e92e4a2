"""What the publishing steps add to a build: `make build` is the pipeline `python -m publish`
(publish/pipeline.py): Hugo, then the series files linked in, then the charts' SVG, then the
chart previews, then Pagefind. This runs the pipeline one step at a time (median of --repeat
runs, wall and CPU of this process and its children, as the pipeline times them) and prints each
step next to Hugo's own build, the baseline, with the ratio; plus the bytes each step adds to
the site (the site's size after the step less before it: the charts' step adds the inline SVG
to the pages and a <chart id>.svg per chart). `bench/build_bench.py` times the same steps with
many studies.

    .venv/bin/python -m bench.publish_bench [--repeat 5] [--smoke]

`--smoke`: one run over the fixture studies' site (bench/smoke.py).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
from bench import smoke  # noqa: E402
from publish.pipeline import STEPS, Build, publish  # noqa: E402


def size(path: Path, pattern: str = "**/*") -> int:
    return sum(p.stat().st_size for p in path.glob(pattern) if p.is_file())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    smoke.add_flag(parser)
    args = parser.parse_args()
    if args.smoke:
        args.repeat = 1
    runs: dict[str, list[tuple[float, float]]] = {}
    names = {"hugo": "hugo (baseline)"}
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        sizes: dict[str, int] = {}
        for _ in range(args.repeat):
            shutil.rmtree(site, ignore_errors=True)
            build = smoke.tiny_job(site) if args.smoke else Build(site=site)
            build.log, before = lambda line: None, 0
            for step in STEPS:
                timing = publish(build, (step,))[step]
                name = names.get(step, step)
                runs.setdefault(name, []).append((timing["wall_s"], timing["cpu_s"]))
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
