"""Render benchmark (issue #5): time until every chart of the cloud post has rendered, in
headless Chromium, for the site as built against a naive baseline of the same page and data
(default vega-embed, every point, no downsampling; bench/naive/naive.js), in the same run.

Usage: .venv/bin/python bench/render_bench.py [--rounds N] [--all-runs]
With --all-runs both pages draw every run of the study in the time series (37 runs, 133 000
points) instead of the four the post shows first (through the URL-hash state `runs=`).
Builds the site and the naive bundle with Hugo into bench/out/, serves bench/out/www, loads
each page N times (alternating, fresh context each time, warm HTTP cache of the server only)
and prints the medians and the ratio naive / built. Record results in docs/performance.md.
"""
import argparse
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from browser_kit import launch, serve  # noqa: E402
from front_site import hugo_binary  # noqa: E402

POST = "posts/myrocks-cloud-cost/"
OUT = ROOT / "bench" / "out" / "render"


def build():
    """The site (as `make build`) and the naive bundle, into OUT/www; returns the naive page path."""
    if OUT.exists():
        shutil.rmtree(OUT)
    www = OUT / "www"
    subprocess.run([hugo_binary(), "--panicOnWarning", "--quiet", "-s", str(ROOT), "-d", str(www)], check=True)
    naive_site = OUT / "naive-src"
    (naive_site / "assets" / "js").mkdir(parents=True)
    (naive_site / "layouts").mkdir()
    shutil.copy(ROOT / "bench" / "naive" / "naive.js", naive_site / "assets" / "js" / "naive.js")
    (naive_site / "config.toml").write_text(
        'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]\n'
        f'[security.node.permissions]\nallowRead = ["{ROOT / "node_modules"}"]\n')
    (naive_site / "layouts" / "home.html").write_text(
        '{{ (resources.Get "js/naive.js" | js.Build (dict "minify" true "targetPath" "naive.js")).RelPermalink }}')
    (naive_site / "node_modules").symlink_to(ROOT / "node_modules")
    subprocess.run([hugo_binary(), "--quiet", "-s", str(naive_site), "-d", str(OUT / "naive-out")], check=True)
    shutil.copy(OUT / "naive-out" / "naive.js", www / POST / "naive.js")
    html = (www / POST / "index.html").read_text()
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)  # naive needs eval
    html = re.sub(r'<script defer src="/js/charts\.[^"]+"[^>]*></script>', '<script defer src="naive.js"></script>', html)
    assert 'src="naive.js"' in html
    (www / POST / "naive.html").write_text(html)
    return www


def measure(browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("html[data-charts=rendered]", state="attached", timeout=120000)
    ms = page.evaluate("window.benchlogRenderedAt")
    charts = page.evaluate("""Array.from(document.querySelectorAll('figure.chart')).filter(f => f.dataset.state === 'rendered').length""")
    # main-thread busy time so far (steadier than wall time on a loaded machine)
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    context.close()
    if errors:
        raise SystemExit(f"{url}: {errors}")
    return ms, metrics["TaskDuration"] * 1000, charts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--all-runs", action="store_true")
    args = ap.parse_args()
    www = build()
    fragment = ""
    if args.all_runs:
        html = (www / POST / "index.html").read_text()
        ids = re.findall(r'"id":"([^"]+)","labels"', html)
        fragment = "#tps-over-time.runs=" + ",".join(ids)
    server, base = serve(www)
    times = {"built": [], "naive": []}
    busy = {"built": [], "naive": []}
    with sync_playwright() as p:
        browser = launch(p)
        measure(browser, f"{base}/{POST}{fragment}")  # warm-up: server file cache, Chromium start-up
        for _ in range(args.rounds):
            for name, page in (("built", ""), ("naive", "naive.html")):
                ms, task_ms, charts = measure(browser, f"{base}/{POST}{page}{fragment}")
                times[name].append(ms)
                busy[name].append(task_ms)
        browser.close()
    server.shutdown()
    built, naive = statistics.median(times["built"]), statistics.median(times["naive"])
    print(f"charts on the page: {charts}; rounds: {args.rounds}")
    for name in ("built", "naive"):
        t = times[name]
        print(f"{name:6}: median {statistics.median(t):7.1f} ms, best {min(t):7.1f} ms  (all: {', '.join(f'{x:.0f}' for x in t)})")
    print(f"ratio naive / built: median {naive / built:.2f}x, best {min(times['naive']) / min(times['built']):.2f}x")
    b, n = statistics.median(busy["built"]), statistics.median(busy["naive"])
    print(f"main-thread task time until rendered (median): built {b:.0f} ms, naive {n:.0f} ms, ratio {n / b:.2f}x")


if __name__ == "__main__":
    main()
