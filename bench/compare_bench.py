"""Compare-page benchmark: main-thread task time per interaction with 30 runs
overlaid (~108 000 points): the page as built against the same page drawing every point
(`?points=all`), and against the page of another tree (the "before" of a change).

Usage: .venv/bin/python -m bench.compare_bench [--rounds N] [--runs 30]
           [--pages after,after-all] [--before-tree DIR] [--smoke]
Pages: `after` (this tree as built), `after-all` (this tree, `?points=all`), `before` and
`before-all` (the same for the tree at --before-tree, e.g. a `git worktree add` of main with
node_modules linked in). Each tree is built with Hugo into bench/out/compare/<tree>/ and served.
For each round every page is opened in a fresh context (in the order given) with the same runs
picked through the URL; once the chart is drawn the same interactions are replayed: 10 wheel
zooms, 10 drags (pan) and 40 hover moves over the middle of the plot. For each, Chrome's
TaskDuration (CDP Performance metrics) is read before and after (after two animation frames and
120 ms); the medians per interaction are printed with the ratio of each page to the first one.
Record results in docs/performance.md ("Compare page").
"""

import argparse
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import yaml
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
from bench import smoke  # noqa: E402
from tests.kit.browser_kit import launch, serve  # noqa: E402
from tests.kit.front_site import hugo_binary  # noqa: E402

OUT = ROOT / "bench" / "out" / "compare"
PAGES = ("after", "after-all", "before", "before-all")


def build(tree: Path, name: str) -> Path:
    out = OUT / name
    if out.exists():
        shutil.rmtree(out)
    subprocess.run(
        [hugo_binary(), "--panicOnWarning", "--quiet", "-s", str(tree), "-d", str(out)], check=True
    )
    # the series files, as make build links them in (a production build has no mount for them)
    subprocess.run(
        [sys.executable, "-m", "publish.series", str(out), str(tree / "data")], check=True, cwd=ROOT
    )
    return out


def pick(n: int) -> list[str]:
    """The first `n` runs with a per-interval series, over every study."""
    keys = []
    for runs_file in sorted((ROOT / "data").glob("*/runs.yaml")):
        for run in yaml.safe_load(runs_file.read_text())["runs"] or []:
            if run.get("intervals"):
                keys.append(f"{runs_file.parent.name}/{run['id']}")
    return keys[:n]


def task_ms(cdp) -> float:
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return metrics["TaskDuration"] * 1000


def settle(page):
    page.evaluate(
        "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 120))))"
    )


def plot_box(page) -> dict:
    """The plot area: the canvas page's plot element, or (the Vega page) the top 300 px of the
    Vega canvas, the legend of 30 runs being under it."""
    own = page.locator("#compare-view .compare-plot")
    if own.count():
        return own.bounding_box()
    box = page.locator("#compare-view canvas").bounding_box()
    return {**box, "height": 300}


def measure(browser, url: str, steps: tuple[int, int, int] = (10, 10, 40)) -> dict:
    """Median main-thread ms per zoom, pan and hover (`steps`: how many of each)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(url)
    page.wait_for_selector("#compare[data-state=rendered]", timeout=300_000)
    runs = page.evaluate("document.querySelectorAll('#compare-stats tbody tr').length")
    box = plot_box(page)
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    out = {"zoom": [], "pan": [], "hover": []}
    settle(page)
    zooms, pans, hovers = steps
    for _ in range(zooms):
        before = task_ms(cdp)
        page.mouse.move(cx, cy)
        page.mouse.wheel(0, -200)
        settle(page)
        out["zoom"].append(task_ms(cdp) - before)
    for i in range(pans):
        before = task_ms(cdp)
        page.mouse.move(cx, cy)
        page.mouse.down()
        page.mouse.move(cx + (40 if i % 2 else -40), cy, steps=4)
        page.mouse.up()
        settle(page)
        out["pan"].append(task_ms(cdp) - before)
    for i in range(hovers):
        before = task_ms(cdp)
        page.mouse.move(box["x"] + 60 + i * (box["width"] - 120) / hovers, cy)
        settle(page)
        out["hover"].append(task_ms(cdp) - before)
    context.close()
    return {k: statistics.median(v) for k, v in out.items()} | {"runs": runs}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument(
        "--pages", default="after,after-all", help=f"comma-separated, of {', '.join(PAGES)}"
    )
    ap.add_argument("--before-tree", type=Path, help="the tree of the `before` pages")
    smoke.add_flag(ap)
    args = ap.parse_args()
    steps = (2, 2, 4) if args.smoke else (10, 10, 40)
    if args.smoke:  # one round, 2 runs, this tree's page, 2 zooms, 2 drags, 4 hovers
        args.rounds, args.runs, args.pages = 1, 2, "after"
    pages = args.pages.split(",")
    if not set(pages) <= set(PAGES):
        ap.error(f"--pages: one of {', '.join(PAGES)}")
    if any(p.startswith("before") for p in pages) and not args.before_tree:
        ap.error("the before pages need --before-tree")
    trees = {"after": ROOT, "before": args.before_tree}
    keys = pick(args.runs)
    hash_ = "#compare.runs=" + ",".join(keys)
    servers, urls = [], {}
    for tree in sorted({p.split("-")[0] for p in pages}):
        server, base = serve(build(trees[tree], tree))
        servers.append(server)
        urls[tree] = f"{base}/compare/"
    results = {p: [] for p in pages}
    with sync_playwright() as p:
        browser = launch(p)
        for _ in range(args.rounds):
            for page in pages:
                tree, _, all_points = page.partition("-")
                results[page].append(
                    measure(
                        browser, urls[tree] + ("?points=all" if all_points else "") + hash_, steps
                    )
                )
        browser.close()
    for server in servers:
        server.shutdown()
    print(
        f"{len(keys)} runs overlaid, {args.rounds} rounds; median main-thread task ms per interaction"
    )
    print(
        f"{'interaction':<12}"
        + "".join(f"{p:>12}" for p in pages)
        + "".join(f"{p + '/' + pages[0]:>22}" for p in pages[1:])
    )
    for k in ("zoom", "pan", "hover"):
        med = [statistics.median(r[k] for r in results[p]) for p in pages]
        print(
            f"{k:<12}"
            + "".join(f"{m:>12.1f}" for m in med)
            + "".join(f"{(m / med[0] if med[0] else float('nan')):>21.1f}x" for m in med[1:])
        )


if __name__ == "__main__":
    main()
