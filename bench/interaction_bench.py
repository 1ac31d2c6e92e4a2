"""Interaction benchmark: main-thread time per pointer step on the cloud post's time series,
the page as built against the naive page of bench/render_bench.py (default vega-embed, every
point, the Vega-Lite gallery's overview + detail brush and hover rule), in the same run.

Usage: .venv/bin/python -m bench.interaction_bench [--rounds N] [--steps N] [--smoke]
           [--site WWW --post PATH] [--before WWW] [--out DIR]

Each round opens both pages (alternating, fresh browser context, viewport 1280x900), with the
four runs the post shows first and with every run of the study (37 runs, through the URL
hash), scrolls the time series into view and waits until every chart of the page is drawn (so
no other chart is drawn while measuring). Then, on the same drawing of each page:
- hover: the pointer moved across the detail plot in N steps, no button;
- window: a drag of N steps across the detail plot (the built page's steady-state window; the
  naive page has none);
- zoom: a drag of N steps in the overview strip under the plot (both pages: the detail view
  follows the brushed range at each step).
For each, Chromium's main-thread task time (CDP `Performance.getMetrics`, `TaskDuration`)
from before the first step until two animation frames and 120 ms after the last, divided by
N. Prints the medians per step and the ratio naive / built. --before WWW: a site built from
other code (e.g. the commit before a change), measured as a third page in the same rounds, so
a change is seen side by side under the same load. --smoke: one round of 3 steps, 4
runs only (tests/browser/test_benches.py). Record results in docs/performance.md.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from bench.render_bench import OUT, POST, all_runs_fragment, build, chromium, with_naive
from tests.kit.browser_kit import serve

FIGURE = "tps-over-time"
# The drawing of the chart: the built page's plot, or (naive) vega-embed's SVG or canvas.
DRAWING = f"#{FIGURE} .ts-plot, #{FIGURE} .chart-view svg.marks, #{FIGURE} .chart-view canvas"
# Below the overview strip (46-50 px tall on both pages) are its axis labels and title.
STRIP_FROM_BOTTOM = 58


def task_ms(cdp) -> float:
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return metrics["TaskDuration"] * 1000


def settle(page):
    page.evaluate(
        "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 120))))"
    )


def measure(browser, url: str, steps: int, built: bool) -> dict:
    """Main-thread ms per pointer step of each interaction on one load of `url`."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="domcontentloaded")
    page.locator(f"#{FIGURE}").scroll_into_view_if_needed()
    page.wait_for_selector(f"#{FIGURE}[data-state=rendered]", state="attached", timeout=120_000)
    page.wait_for_selector("html[data-charts=rendered]", state="attached", timeout=120_000)
    drawing = page.locator(DRAWING).first
    drawing.scroll_into_view_if_needed()
    settle(page)
    box = drawing.bounding_box()
    x0, x1 = box["x"] + box["width"] * 0.25, box["x"] + box["width"] * 0.7
    detail_y = box["y"] + 120
    strip_y = box["y"] + box["height"] - STRIP_FROM_BOTTOM
    if built:  # the plot holds the detail view and the strip: its own height
        strip_y = page.evaluate(STRIP_Y, FIGURE) or strip_y
    out = {}

    def timed(name, y, drag):
        page.mouse.move(x0, y)
        settle(page)
        before = task_ms(cdp)
        if drag:
            page.mouse.down()
        page.mouse.move(x1, y, steps=steps)
        if drag:
            page.mouse.up()
        settle(page)
        out[name] = (task_ms(cdp) - before) / steps

    timed("hover", detail_y, drag=False)
    if built:
        timed("window", detail_y, drag=True)
    timed("zoom", strip_y, drag=True)
    if built:
        zoomed = page.evaluate(f"document.getElementById('{FIGURE}').benchlogChart.zoom")
        if not zoomed:
            raise SystemExit(f"{url}: the drag in the strip did not zoom")
    out["runs"] = page.evaluate(f"document.querySelectorAll('#{FIGURE} .chart-legend li').length")
    context.close()
    if errors:
        raise SystemExit(f"{url}: {errors}")
    return out


# the middle of the overview strip, from the chart itself when it says where it is
STRIP_Y = """(id) => { const c = document.getElementById(id).benchlogChart;
  const r = c && c.stripBox && c.stripBox(); return r ? r.top + r.height / 2 : null; }"""


def main(argv=None, browser=None):
    """Runs the bench; `browser`: a Chromium to use (the tests'), else one is started."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--smoke", action="store_true", help="one round of 3 steps, 4 runs")
    ap.add_argument("--built-only", action="store_true", help="the built page alone, no naive")
    ap.add_argument(
        "--site", type=Path, help="a web root built already (else the project is built)"
    )
    ap.add_argument("--post", default=POST, help="the post's path under --site")
    ap.add_argument("--before", type=Path, help="a web root built from other code, measured too")
    ap.add_argument("--out", type=Path, default=OUT, help="where the naive page is put together")
    args = ap.parse_args(argv)
    if args.smoke:
        args.rounds, args.steps = 1, 3
    if args.site:
        args.out.mkdir(parents=True, exist_ok=True)
        www = with_naive(args.site, Path(args.post), args.out)
    else:
        www = build(args.out)
    sets = {"4 runs": ""}
    if not args.smoke:
        sets["all runs"] = all_runs_fragment(www / args.post / "index.html", FIGURE)
    servers = [serve(www)]
    pages = [("built", servers[0][1], "")]
    if args.before:
        servers.append(serve(args.before))
        pages.append(("before", servers[1][1], ""))
    if not args.built_only:
        pages.append(("naive", servers[0][1], "naive.html"))
    results = {(s, p): [] for s in sets for p in ("built", "before", "naive")}
    with chromium(browser) as browser:
        for _ in range(args.rounds):
            for s, fragment in sets.items():
                for name, base, page in pages:
                    url = f"{base}/{args.post}{page}{fragment}"
                    results[(s, name)].append(measure(browser, url, args.steps, name != "naive"))
    for server, _ in servers:
        server.shutdown()
    print(f"{args.rounds} rounds of {args.steps} pointer steps; median main-thread ms per step")
    head = f"{'runs':<16}{'interaction':<12}{'built':>10}{'naive':>10}{'naive/built':>13}"
    print(head + (f"{'before':>10}{'before/built':>14}" if args.before else ""))
    for s in sets:
        runs = results[(s, "built")][0]["runs"]
        for k in ("hover", "window", "zoom"):
            built = statistics.median(r[k] for r in results[(s, "built")])
            row = f"{s + f' ({runs})':<16}{k:<12}{built:>10.1f}"
            others = ("naive", "before") if args.before else ("naive",)
            for other in others:
                values = [r[k] for r in results[(s, other)] if k in r]
                n = statistics.median(values) if values else None
                ratio = f"{n / built:12.2f}x" if n is not None and built else f"{'-':>13}"
                row += (f"{n:>10.1f}" if n is not None else f"{'-':>10}") + ratio
            print(row)
    return results


if __name__ == "__main__":
    main()
