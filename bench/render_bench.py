"""Render benchmark (issue #5, #10): time until the charts of the cloud post are painted and
live, in headless Chromium, for the site as built (build-time SVG, chart bundle fetched when a
chart is near) against a naive baseline of the same page and data (no SVG, default vega-embed,
every point, no downsampling; bench/naive/naive.js), in the same run.

Usage: .venv/bin/python -m bench.render_bench [--rounds N] [--all-runs | --at FIGURE_ID]
With --at the post is opened at one chart (the URL fragment #FIGURE_ID, as a link to a chart
would), so the first screen holds that chart: the time until the chart in view is drawn.
With --all-runs both pages draw every run of the study in the time series (37 runs, 133 000
points) instead of the four the post shows first (through the URL-hash state `runs=`).
Builds the site and the naive bundle with Hugo into bench/out/, serves bench/out/www, loads
each page N times (alternating, fresh context each time, warm HTTP cache of the server only)
and prints the medians and the ratios naive / built of: the time until the charts on the first
screen are painted (the first animation frame in which each has a drawing: the build's SVG,
or the naive page's canvas/SVG), until they are live (drawn by the bundle), the time until every chart is drawn while scrolling through the post (the
built page draws a chart when it nears the viewport; the naive one draws all at once), and
the main-thread task time until then. Record results in docs/performance.md.
"""

import argparse
import re
import shutil
import statistics
import subprocess
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
from publish.pipeline import Build, publish  # noqa: E402
from tests.kit.browser_kit import launch, serve  # noqa: E402
from tests.kit.front_site import hugo_binary  # noqa: E402

POST = "posts/myrocks-cloud-cost/"
OUT = ROOT / "bench" / "out" / "render"


def build():
    """The site (`make build`'s pipeline: Hugo and the series files, then the charts' SVG) and
    the naive bundle, into OUT/www; the naive page is the post as Hugo wrote it (no SVG) with
    naive.js instead of the loader."""
    if OUT.exists():
        shutil.rmtree(OUT)
    www = OUT / "www"
    publish(Build(site=www, log=print), ("hugo", "series"))
    naive_site = OUT / "naive-src"
    (naive_site / "assets" / "js").mkdir(parents=True)
    (naive_site / "layouts").mkdir()
    shutil.copy(ROOT / "bench" / "naive" / "naive.js", naive_site / "assets" / "js" / "naive.js")
    (naive_site / "config.toml").write_text(
        'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]\n'
        f'[security.node.permissions]\nallowRead = ["{ROOT / "node_modules"}"]\n'
    )
    (naive_site / "layouts" / "home.html").write_text(
        '{{ (resources.Get "js/naive.js" | js.Build (dict "minify" true "targetPath" "naive.js")).RelPermalink }}'
    )
    (naive_site / "node_modules").symlink_to(ROOT / "node_modules")
    subprocess.run(
        [hugo_binary(), "--quiet", "-s", str(naive_site), "-d", str(OUT / "naive-out")], check=True
    )
    shutil.copy(OUT / "naive-out" / "naive.js", www / POST / "naive.js")
    html = (www / POST / "index.html").read_text()
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)  # naive needs eval
    html, n = re.subn(
        r' data-charts="[^"]+" data-charts-integrity="[^"]+"></script>',
        '></script><script defer src="naive.js"></script>',
        html,
    )
    assert n == 1
    (www / POST / "naive.html").write_text(html)
    publish(Build(site=www, log=print), ("charts",))
    return www


FIRST_SCREEN = """Array.from(document.querySelectorAll('figure.chart')).filter(f => {
    const r = f.getBoundingClientRect(); return r.bottom > 0 && r.top < window.innerHeight; }).map(f => f.id)"""
# the first animation frame in which each chart has a drawing (set before the page's scripts)
SHOWN = """window.__shownAt = {};
(function tick() {
  for (const f of document.querySelectorAll('figure.chart')) {
    if (f.id in window.__shownAt) continue;
    const drawn = Array.from(f.querySelectorAll('.chart-view svg, .chart-view canvas, .chart-view table'))
      .some((e) => e.getBoundingClientRect().height > 40);
    if (drawn) window.__shownAt[f.id] = performance.now();
  }
  requestAnimationFrame(tick);
})();"""
RENDERED_AT = "Object.fromEntries(Array.from(document.querySelectorAll('figure.chart')).map(f => [f.id, Number(f.dataset.renderedAt)]))"


def measure(browser, url):
    """One load of `url`: ms until the charts of the first screen are drawn, ms until every chart
    is drawn while a reader scrolls through the post (each chart scrolled into view in turn as
    soon as the one before it is drawn; the same steps on both pages), main-thread task time
    until then, and the number of charts drawn."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(SHOWN)
    page.goto(url, wait_until="domcontentloaded")
    first = page.evaluate(FIRST_SCREEN)
    for fid in first:
        page.wait_for_selector(
            f"figure#{fid}[data-state=rendered]", state="attached", timeout=120000
        )
    for figure in page.query_selector_all("figure.chart"):
        figure.scroll_into_view_if_needed()
        page.wait_for_selector(
            f"figure#{figure.get_attribute('id')}[data-state=rendered]",
            state="attached",
            timeout=120000,
        )
    page.wait_for_selector("html[data-charts=rendered]", state="attached", timeout=120000)
    at = page.evaluate(RENDERED_AT)
    shown = page.evaluate("window.__shownAt")
    first_ms = max(at[f] for f in first) if first else 0.0
    painted_ms = max(shown[f] for f in first) if first else 0.0
    every_ms = page.evaluate("window.benchlogRenderedAt")
    # main-thread busy time so far (steadier than wall time on a loaded machine)
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    context.close()
    if errors:
        raise SystemExit(f"{url}: {errors}")
    return {
        "painted": painted_ms,
        "first": first_ms,
        "every": every_ms,
        "task": metrics["TaskDuration"] * 1000,
        "script": metrics["ScriptDuration"] * 1000,
    }, len(at)


def line(name, values):
    return (
        f"{name:6}: median {statistics.median(values):7.1f} ms, best {min(values):7.1f} ms  "
        f"(all: {', '.join(f'{x:.0f}' for x in values)})"
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--all-runs", action="store_true")
    ap.add_argument(
        "--at",
        metavar="FIGURE_ID",
        help="open the post at this chart (#FIGURE_ID), so the first screen has a chart",
    )
    args = ap.parse_args()
    if args.at and args.all_runs:
        ap.error("--at and --all-runs both use the URL fragment; pick one")
    www = build()
    fragment = f"#{args.at}" if args.at else ""
    if args.all_runs:
        html = (www / POST / "index.html").read_text()
        ids = re.findall(r'"id":"([^"]+)","labels"', html)
        fragment = "#tps-over-time.runs=" + ",".join(ids)
    server, base = serve(www)
    results = {"built": [], "naive": []}
    with sync_playwright() as p:
        browser = launch(p)
        measure(
            browser, f"{base}/{POST}{fragment}"
        )  # warm-up: server file cache, Chromium start-up
        for _ in range(args.rounds):
            for name, page in (("built", ""), ("naive", "naive.html")):
                result, charts = measure(browser, f"{base}/{POST}{page}{fragment}")
                results[name].append(result)
        browser.close()
    server.shutdown()
    print(f"charts on the page: {charts}; rounds: {args.rounds}; viewport 1280x900")
    for key, title in (
        ("painted", "charts of the first screen painted"),
        ("first", "charts of the first screen live (drawn by the chart bundle)"),
        ("every", "every chart drawn, scrolling through the post"),
        ("task", "main-thread task time until every chart is drawn"),
        ("script", "of which script execution"),
    ):
        values = {name: [r[key] for r in results[name]] for name in results}
        if not min(values["built"]) or not min(values["naive"]):
            print(f"{title}: none (no chart on the first screen)")
            continue
        built, naive = statistics.median(values["built"]), statistics.median(values["naive"])
        print(f"{title}:")
        for name in ("built", "naive"):
            print("  " + line(name, values[name]))
        print(
            f"  ratio naive / built: median {naive / built:.2f}x, best {min(values['naive']) / min(values['built']):.2f}x"
        )


if __name__ == "__main__":
    main()
