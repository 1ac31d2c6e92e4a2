"""Render benchmark: time until the charts of the cloud post are painted and
live, in headless Chromium, for the site as built (build-time SVG, chart bundle fetched when a
chart is near) against a naive baseline of the same page and data (no SVG, default vega-embed,
every point, no downsampling; bench/naive/naive.js), in the same run.

Usage: .venv/bin/python -m bench.render_bench [--rounds N] [--all-runs | --at FIGURE_ID]
           [--smoke] [--site WWW --post PATH] [--before WWW] [--out DIR]
--before WWW: a site built from other code (e.g. the commit before a change), loaded as a
third page in the same rounds, so a change is measured side by side under the same load.
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
--smoke: one round, no warm-up, to check the bench still runs (tests/browser/test_benches.py,
on the tests' site: --site). The naive page is served beside the built one through a web root
of symbolic links (out/www), so a site built elsewhere is not changed.
"""

import argparse
import contextlib
import json
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


def naive_bundle(out: Path) -> Path:
    """bench/naive/naive.js bundled by Hugo (vega-embed and its dependencies) into `out`."""
    out = out.resolve()  # Hugo reads -d relative to its source
    src = out / "naive-src"
    if src.exists():
        shutil.rmtree(src)
    (src / "layouts").mkdir(parents=True)
    # the site's scripts beside it: the naive page draws bars and lines from the spec that
    # assets/js/xyspec.js builds out of the page's inputs, as the built page does
    shutil.copytree(ROOT / "assets" / "js", src / "assets" / "js")
    shutil.copy(ROOT / "bench" / "naive" / "naive.js", src / "assets" / "js" / "naive.js")
    (src / "config.toml").write_text(
        'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]\n'
        f'[security.node.permissions]\nallowRead = ["{ROOT / "node_modules"}"]\n'
    )
    (src / "layouts" / "home.html").write_text(
        '{{ (resources.Get "js/naive.js" | js.Build (dict "minify" true "targetPath" "naive.js")).RelPermalink }}'
    )
    (src / "node_modules").symlink_to(ROOT / "node_modules")
    subprocess.run(
        [hugo_binary(), "--quiet", "-s", str(src), "-d", str(out / "naive-out")], check=True
    )
    return out / "naive-out" / "naive.js"


def naive_html(html: str) -> str:
    """The post as Hugo wrote it with naive.js in place of the chart loader and no CSP (the
    default vega-embed needs eval). The build's SVG is left out by serving Hugo's own page."""
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    html, n = re.subn(
        r' data-charts="[^"]+" data-charts-integrity="[^"]+"></script>',
        '></script><script defer src="naive.js"></script>',
        html,
    )
    assert n == 1, "the page script tag with the chart bundle was not found"
    return html


def overlay(www: Path, post: Path, dest: Path, files: dict[str, Path | str]) -> Path:
    """A web root at `dest` that serves `www` as it is (symbolic links, nothing copied or
    changed) plus `files` (name: a file to link, or text) in the post directory `post` (a path
    under `www`): the naive page beside the built one, on a site built elsewhere."""
    if dest.exists():
        shutil.rmtree(dest)
    here, there = dest, www.resolve()
    for part in post.parts:
        here.mkdir(parents=True, exist_ok=True)
        for entry in there.iterdir():
            if entry.name != part:
                (here / entry.name).symlink_to(entry)
        here, there = here / part, there / part
    here.mkdir(parents=True)
    for entry in there.iterdir():
        (here / entry.name).symlink_to(entry)
    for name, content in files.items():
        if isinstance(content, Path):
            (here / name).symlink_to(content.resolve())
        else:
            (here / name).write_text(content)
    return dest


def build(out: Path = OUT) -> Path:
    """The site (`make build`'s pipeline: Hugo and the series files, then the charts' SVG) into
    out/site; returns its web root (out/www) with the naive page beside the post."""
    if out.exists():
        shutil.rmtree(out)
    site = out / "site"
    publish(Build(site=site, log=print), ("hugo", "series"))
    hugo_page = (site / POST / "index.html").read_text()  # before the charts' SVG
    publish(Build(site=site, log=print), ("charts",))
    return with_naive(site, Path(POST), out, hugo_page)


def with_naive(www: Path, post: Path, out: Path, hugo_page: str | None = None) -> Path:
    """`www` served with the naive page (naive.html, naive.js) beside the post at `post`; the
    naive page is `hugo_page`, else the built post with its charts' SVG taken out."""
    if hugo_page is None:
        hugo_page = strip_svg((www / post / "index.html").read_text())
    files = {"naive.js": naive_bundle(out), "naive.html": naive_html(hugo_page)}
    return overlay(www, post, out / "www", files)


def strip_svg(html: str) -> str:
    """The built post without the charts' SVG (what Hugo wrote before the charts step)."""
    return re.sub(r"<svg class=\"chart-svg[^>]*>.*?</svg>", "", html, flags=re.S)


@contextlib.contextmanager
def chromium(browser=None):
    """`browser` if given (the tests' own: Playwright's sync API runs once per process), else a
    Chromium started for the bench and closed after."""
    if browser is not None:
        yield browser
        return
    with sync_playwright() as p:
        started = launch(p)
        try:
            yield started
        finally:
            started.close()


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


def main(argv=None, browser=None):
    """Runs the bench; `browser`: a Chromium to use (the tests'), else one is started."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--all-runs", action="store_true")
    ap.add_argument(
        "--at",
        metavar="FIGURE_ID",
        help="open the post at this chart (#FIGURE_ID), so the first screen has a chart",
    )
    ap.add_argument(
        "--smoke",
        action="store_true",
        help="one round, no warm-up: checks that the bench runs (for the tests), measures nothing",
    )
    ap.add_argument(
        "--site", type=Path, help="a web root built already (else the project is built)"
    )
    ap.add_argument("--post", default=POST, help="the post's path under --site")
    ap.add_argument("--before", type=Path, help="a web root built from other code, measured too")
    ap.add_argument("--out", type=Path, default=OUT, help="where the naive page is put together")
    args = ap.parse_args(argv)
    if args.at and args.all_runs:
        ap.error("--at and --all-runs both use the URL fragment; pick one")
    if args.smoke:
        args.rounds = 1
    if args.site:
        args.out.mkdir(parents=True, exist_ok=True)
        www = with_naive(args.site, Path(args.post), args.out)
    else:
        www = build(args.out)
    fragment = f"#{args.at}" if args.at else ""
    if args.all_runs:
        fragment = all_runs_fragment(www / args.post / "index.html")
    servers = [serve(www)]
    pages = [("built", servers[0][1], ""), ("naive", servers[0][1], "naive.html")]
    if args.before:
        servers.append(serve(args.before))
        pages.append(("before", servers[1][1], ""))
    results = {name: [] for name, _, _ in pages}
    with chromium(browser) as browser:
        if not args.smoke:  # warm-up: server file cache, Chromium start-up
            for _, base, _ in pages[::2]:
                measure(browser, f"{base}/{args.post}{fragment}")
        for _ in range(args.rounds):
            for name, base, page in pages:
                result, charts = measure(browser, f"{base}/{args.post}{page}{fragment}")
                results[name].append(result)
    for server, _ in servers:
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
        for name in values:
            print("  " + line(name, values[name]))
        print(
            f"  ratio naive / built: median {naive / built:.2f}x, best {min(values['naive']) / min(values['built']):.2f}x"
        )
        if "before" in values:
            before = statistics.median(values["before"])
            print(
                f"  ratio naive / before: median {naive / before:.2f}x, best {min(values['naive']) / min(values['before']):.2f}x"
            )
    return results


def all_runs_fragment(page: Path, figure: str = "tps-over-time") -> str:
    """The URL fragment that shows every run of the post's time series `figure`."""
    spec = re.search(
        rf'<script type="application/json" id="{figure}-spec">(.*?)</script>',
        page.read_text(),
        re.S,
    )
    ids = [r["id"] for r in json.loads(spec.group(1))["runs"]]
    return f"#{figure}.runs=" + ",".join(ids)


if __name__ == "__main__":
    main()
