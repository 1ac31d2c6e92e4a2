"""Over every time series of every post, at 16 positions across the
whole run and 16 across a zoomed range (inside and outside the steady-state window), the figure
carries data-hover-t = the time under the pointer, the rule stands at the pointer and the
readout gives each shown run's value at the nearest interval; leaving the plot removes them.

Expected times come from the run data the page publishes (the x domain is the runs' extent, or
the zoom range) and from where the detail plot lies on the page (the canvas plot's layout),
never from the page's hover code or from literals."""

from __future__ import annotations

import json
import math
import re

import pytest

from tests.kit.browser_kit import open_page, serve, until

POSITIONS = [0.01 + 0.98 * i / 15 for i in range(16)]

# The detail plot's box on the page and its x domain, as the canvas plot lays it out
# (assets/js/tsplot.js): the expected times are computed from these, not by its hover code.
PLOT = "fig => fig.benchlogChart.plot.geometry()"


@pytest.fixture(scope="module")
def site(built_site):
    server, base = serve(built_site.www)
    yield base + built_site.base_path, built_site
    server.shutdown()


def time_series(built):
    """(post, figure id, spec) for every time series figure of the built posts."""
    found = []
    for page in sorted(built.site.glob("posts/*/index.html")):
        html = page.read_text(encoding="utf-8")
        for fid in re.findall(r'<figure class="chart" id="([^"]+)" data-kind="timeseries"', html):
            spec = re.search(
                rf'<script type="application/json" id="{re.escape(fid)}-spec">(.*?)</script>',
                html,
                re.S,
            )
            found.append((page.parent.name, fid, json.loads(spec.group(1))))
    return found


def nearest(t, x):
    """The interval nearest `x`, as the page's nearestIndex (assets/js/series.js) picks it: half
    way between two (x = 4545 between 4540 and 4550 s), the later one."""
    return min(range(len(t)), key=lambda i: (abs(t[i] - x), -i))


def open_figure(browser, base, post, fid, hash_=""):
    errors = []
    page = open_page(
        browser, f"{base}posts/{post}/{hash_}", errors, viewport={"width": 1280, "height": 900}
    )
    figure = page.locator(f"#{fid}")
    figure.scroll_into_view_if_needed()  # the chart (and its bundle) loads when near the viewport
    page.wait_for_selector(f"figure#{fid}[data-state=rendered]", state="attached")
    figure.locator(".ts-plot canvas, .ts-plot svg").first.scroll_into_view_if_needed()
    return page, figure, errors


def hover_checks(page, figure, runs, spec, domain):
    """Moves the pointer to each of POSITIONS across the plot; returns the times seen."""
    geo = figure.evaluate(PLOT)
    assert geo["domain"] == pytest.approx(domain, abs=1e-6)
    left, top = geo["left"], geo["top"]
    per_px = (domain[1] - domain[0]) / geo["width"]
    seen = []
    for f in POSITIONS:
        x, y = left + f * geo["width"], top + geo["height"] / 2
        page.mouse.move(x, y)
        expected = domain[0] + f * (domain[1] - domain[0])
        until(
            page,
            f"el => Math.abs(Number(el.dataset.hoverT) - {expected}) <= {per_px}",
            figure.element_handle(),
        )
        hover_t = float(figure.get_attribute("data-hover-t"))
        rule = figure.locator(".ts-rule").bounding_box()
        assert (
            rule
            and abs(rule["x"] - x) <= 1.5
            and rule["y"] == pytest.approx(top, abs=1.5)
            and rule["height"] == pytest.approx(geo["height"], abs=1)
        )
        readout = figure.locator(".ts-readout")
        # the readout rounds as JavaScript's Math.round does (halves up: 7.5 -> 8), where
        # Python's round() takes halves to even (7.5 -> 8, 6.5 -> 6)
        assert f"t = {math.floor(hover_t + 0.5):,} s" in readout.inner_text()
        for rid, (t, v) in runs.items():
            i = nearest(t, hover_t)
            cell = readout.locator(f"b[data-run='{rid}']")
            assert float(cell.get_attribute("data-t")) == t[i], (rid, hover_t)
            text = cell.inner_text()
            assert (
                (text == "n/a")
                if v[i] is None
                else abs(float(text.replace(",", "")) - v[i]) <= 0.05 + 1e-9
            )
        seen.append(hover_t)
    page.mouse.move(1, 1)
    until(page, "el => !('hoverT' in el.dataset)", figure.element_handle())
    assert not figure.locator(".ts-rule").is_visible()
    return seen


@pytest.mark.parametrize("zoomed", [False, True], ids=["full-run", "zoomed"])
def test_hover_follows_the_pointer_over_every_time_series(browser, site, zoomed):
    base, built = site
    charts = time_series(built)
    assert {post for post, _, _ in charts} >= {"myrocks-cloud-cost", "linkbench-hourly-2017"}
    for post, fid, spec in charts:
        runs = {}
        for run in spec["runs"]:
            if run["id"] in spec["show"]:
                url = f"{spec['series']}{run['id']}.json"  # the spec names the folder once
                data = json.loads((built.www / url.lstrip("/")).read_text())
                runs[run["id"]] = (data["t"], data[spec["metric"]])
        # unzoomed, the x domain spans what the plot draws: the shown runs from one interval
        # before their first end time, the warm-up shading up to the window start, the markers
        marks = [m["t"] for m in spec["markers"]]
        full = [
            min(
                max(0, min(t[0] for t, _ in runs.values()) - spec["interval"]),
                spec["window"][0],
                *marks,
            ),
            max([t[-1] for t, _ in runs.values()] + marks),
        ]
        domain, hash_ = full, ""
        if zoomed:
            span = full[1] - full[0]
            domain = [round(full[0] + 0.3 * span), round(full[0] + 0.6 * span)]
            hash_ = f"#{fid}.z={domain[0]}-{domain[1]}"
        page, figure, errors = open_figure(browser, base, post, fid, hash_)
        seen = hover_checks(page, figure, runs, spec, domain)
        assert len(seen) >= 15 and seen == sorted(seen) and len(set(seen)) == len(seen)
        lo, hi = spec["window"]
        assert any(lo < t <= hi for t in seen), (fid, spec["window"])
        margin = 0.02 * (full[1] - full[0])  # the positions run from 1% to 99% of the plot
        if not zoomed and (lo - full[0] > margin or full[1] - hi > margin):
            assert any(not lo < t <= hi for t in seen), (fid, spec["window"])
        assert not errors, errors
        page.context.close()
