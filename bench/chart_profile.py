"""Where the charts step's CPU goes: its Node drawer run over every chart of a built site with
the pipeline's own command and input (publish/charts.py: drawer_command, drawer_jobs), its
cache off and under V8's sampling profiler (`node --cpu-prof`), then the samples summed by
phase of a drawing and by function.

    make build && .venv/bin/python -m bench.chart_profile            # site/
    .venv/bin/python -m bench.chart_profile SITE --only myrocks-cloud-cost --top 25
    .venv/bin/python -m bench.chart_profile --node-flag=--max-semi-space-size=64
    .venv/bin/python -m bench.chart_profile --smoke    # the fixture studies' site (bench/smoke.py)

A sample counts for loading the modules when that is in its stack, else for the first phase found
from the sampled frame up: Vega-Lite's compile, Vega's parse of the compiled spec, Vega's view and SVG (dataflow,
scenegraph, toSVG), SVGO, the chart kinds' own code (assets/js: the initial view), the garbage
collector; the rest is "other" (the drawer's own code, JSON, stdin/stdout). The drawer's output
is thrown away; the site is not changed. CPU ms are the profiler's (one thread: the GC's
helper threads are not in it), so they add up to a little less than the process's CPU time,
which is printed too."""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from bench import smoke  # noqa: E402
from publish import charts  # noqa: E402
from publish.theme import light_theme  # noqa: E402

# phase: how a stack frame of it is recognised (a part of its script URL, or its name)
PHASES = [
    ("Vega-Lite compile", lambda url, name: "/vega-lite/" in url),
    ("Vega parse", lambda url, name: "/vega-parser/" in url or "/vega-runtime/" in url),
    ("Vega view + toSVG", lambda url, name: "/vega-view/" in url),
    ("SVGO", lambda url, name: "/svgo/" in url),
    ("kinds (assets/js)", lambda url, name: "/assets/js/" in url),
    ("garbage collector", lambda url, name: name == "(garbage collector)"),
]


def profile(site: Path, only: str, node_flags: tuple[str, ...]) -> tuple[dict, float]:
    """The drawer's CPU profile over the charts of `site` (pages whose path has `only`), and
    the CPU seconds of the process."""
    pages = [p for p in charts.chart_pages(site) if only in str(p.path)]
    jobs = {"theme": light_theme(), "charts": charts.drawer_jobs(pages)}
    with tempfile.TemporaryDirectory(prefix="chart-profile-") as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            charts.drawer_command(site, ("--cpu-prof", f"--cpu-prof-dir={tmp}", *node_flags)),
            input=json.dumps(jobs),
            capture_output=True,
            text=True,
            cwd=charts.ROOT,
            env={**os.environ, "CHART_SVG_CACHE": "off"},
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode:
            raise SystemExit(done.stderr.strip())
        (prof,) = Path(tmp).glob("*.cpuprofile")
        cpu = sum(getattr(after, f) - getattr(before, f) for f in ("ru_utime", "ru_stime"))
        return json.loads(prof.read_text()), cpu


def summarise(prof: dict) -> tuple[Counter, Counter]:
    """CPU ms per phase (first phase from the sampled frame up its stack) and per function."""
    nodes = {n["id"]: n for n in prof["nodes"]}
    parent = {c: n["id"] for n in prof["nodes"] for c in n.get("children", [])}
    per_node = Counter()
    for sample, delta in zip(prof["samples"], prof["timeDeltas"], strict=True):
        per_node[sample] += delta / 1000
    phases, functions = Counter(), Counter()
    for node_id, ms in per_node.items():
        frame = nodes[node_id]["callFrame"]
        where = frame["url"].rsplit("/node_modules/", 1)[-1].rsplit("/", 2)[-1]
        functions[f"{frame['functionName'] or '(anonymous)'} {where}:{frame['lineNumber']}"] += ms
        phases[_phase(node_id, nodes, parent)] += ms
    return phases, functions


def _phase(node_id: int, nodes: dict, parent: dict) -> str:
    stack = []  # (url, name) from the sampled frame up
    while node_id is not None:
        frame = nodes[node_id]["callFrame"]
        stack.append((frame["url"], frame["functionName"]))
        node_id = parent.get(node_id)
    if any(url.startswith("node:internal/modules") for url, _ in stack):
        return "module load"  # a module's own top-level code included
    for url, name in stack:
        for phase, match in PHASES:
            if match(url, name):
                return phase
    return "other"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", type=Path, default=charts.ROOT / "site")
    parser.add_argument("--only", default="", help="pages whose path contains this")
    parser.add_argument("--top", type=int, default=15, help="functions listed by self time")
    parser.add_argument(
        "--node-flag", action="append", default=[], help="a flag for node (repeatable)"
    )
    smoke.add_flag(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chart-profile-site-") as tmp:
        if args.smoke:  # Hugo's pages of the tiny site: their charts' specs, still undrawn
            args.site = Path(tmp) / "www" / "site"
            smoke.publish(smoke.tiny_job(args.site), ("hugo", "series"))
        prof, cpu = profile(args.site, args.only, tuple(args.node_flag))
    phases, functions = summarise(prof)
    total = sum(phases.values())
    print(f"drawer over {args.site} ({args.only or 'every page'}): process CPU {cpu:.2f} s")
    print(f"{'phase':<22}{'CPU ms':>8}{'share':>7}")
    for phase, ms in phases.most_common():
        print(f"{phase:<22}{ms:>8.0f}{ms / total:>7.0%}")
    print(f"{'profiled':<22}{total:>8.0f}\n\nself time, top {args.top}")
    for name, ms in functions.most_common(args.top):
        print(f"{ms:>8.0f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
