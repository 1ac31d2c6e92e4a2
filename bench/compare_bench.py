"""Compare-page benchmark (issue 13 §5): main-thread task time per interaction with 30 runs
overlaid (~100 000 points), the page as built (per-pixel min/max downsampling, full resolution
only for a short visible range) against the same page drawing every point (`?points=all`).

Usage: .venv/bin/python bench/compare_bench.py [--rounds N] [--runs 30]
Builds the site with Hugo into bench/out/compare/, serves it, and for each round opens both
pages (alternating, fresh context each) with the same 30 runs picked through the URL, waits for
the chart, then replays the same interactions: 10 wheel zooms, 10 drags (pan) and 40 hover
moves over the plot. For each it reads Chrome's TaskDuration (CDP Performance metrics) before
and after and prints the medians per interaction and the ratio baseline / built. Record results
in docs/performance.md ("Compare page").
"""
import argparse
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import yaml
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from browser_kit import launch, serve  # noqa: E402
from front_site import hugo_binary  # noqa: E402

OUT = ROOT / "bench" / "out" / "compare"


def build() -> Path:
    if OUT.exists():
        shutil.rmtree(OUT)
    subprocess.run([hugo_binary(), "--panicOnWarning", "--quiet", "-s", str(ROOT), "-d", str(OUT)], check=True)
    return OUT


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
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 120))))")


def measure(browser, url: str) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(url)
    page.wait_for_selector("#compare[data-state=rendered]", timeout=120_000)
    points = page.evaluate("document.querySelectorAll('#compare-stats tbody tr').length")
    box = page.locator("#compare-view canvas").bounding_box()
    # the plot is the top 300 px of the chart (the legend of 30 runs is under it)
    cx, cy = box["x"] + box["width"] / 2, box["y"] + 150
    out = {"zoom": [], "pan": [], "hover": []}
    settle(page)
    for _ in range(10):
        before = task_ms(cdp)
        page.mouse.move(cx, cy)
        page.mouse.wheel(0, -200)
        settle(page)
        out["zoom"].append(task_ms(cdp) - before)
    for i in range(10):
        before = task_ms(cdp)
        page.mouse.move(cx, cy)
        page.mouse.down()
        page.mouse.move(cx + (40 if i % 2 else -40), cy, steps=4)
        page.mouse.up()
        settle(page)
        out["pan"].append(task_ms(cdp) - before)
    for i in range(40):
        before = task_ms(cdp)
        page.mouse.move(box["x"] + 60 + i * (box["width"] - 120) / 40, cy)
        settle(page)
        out["hover"].append(task_ms(cdp) - before)
    context.close()
    return {k: statistics.median(v) for k, v in out.items()} | {"runs": points}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args()
    www = build()
    keys = pick(args.runs)
    hash_ = "#compare.runs=" + ",".join(keys)
    server, base = serve(www)
    results = {"built": [], "all points": []}
    with sync_playwright() as p:
        browser = launch(p)
        for _ in range(args.rounds):
            results["built"].append(measure(browser, f"{base}/compare/{hash_}"))
            results["all points"].append(measure(browser, f"{base}/compare/?points=all{hash_}"))
        browser.close()
    server.shutdown()
    print(f"{len(keys)} runs overlaid, {args.rounds} rounds; median main-thread task ms per interaction")
    print(f"{'interaction':<12}{'built':>10}{'all points':>12}{'ratio':>8}")
    for k in ("zoom", "pan", "hover"):
        b = statistics.median(r[k] for r in results["built"])
        a = statistics.median(r[k] for r in results["all points"])
        print(f"{k:<12}{b:>10.1f}{a:>12.1f}{(a / b if b else float('nan')):>7.1f}x")


if __name__ == "__main__":
    main()
