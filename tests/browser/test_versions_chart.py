"""The version view at scale (tests/kit/versions_study.py: 990 runs of 11 server versions, three
buffer-pool tiers, three workloads, ten thread counts, generated here, ingested and built by
`make build`'s pipeline): the post fits the page budgets with the `versions` chart, reads
without JavaScript (the build's drawing and the table of extremes, the ingest's), and in
Chromium the base picker and the metric switch redraw the extremes by the ingest's noise rule,
write the URL hash, and a link with that hash opens the same view. Expected values come from
data/, never from the page."""

from __future__ import annotations

import re

import pytest
import yaml

from ingest.derive.noise import within_noise
from publish import budget
from tests.kit.browser_kit import open_page, post_page, serve, until
from tests.kit.sitebuild import generated_site
from tests.kit.versions_study import BASE, STUDY, make, versions

pytestmark = pytest.mark.slow
FIG = "by-version"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the data dir, the built site's web root) of the generated study."""
    tmp = tmp_path_factory.mktemp("versions")
    www = generated_site(make, tmp)
    return tmp / "data" / STUDY, www


def cells(data):
    return yaml.safe_load((data / "tables" / "versions.yaml").read_text())["rows"]


def expected_extremes(rows, metric, base):
    """The largest regression and gain against `base` by the ingest's rule: the ratio of the
    means, beyond noise when the two spreads do not overlap (ingest/derive/noise.py)."""
    by = {(r["workload"], r["tier"], r["version"], r["x"]): r for r in rows}
    moved = []
    for r in rows:
        b = by.get((r["workload"], r["tier"], base, r["x"]))
        if r["version"] == base or b is None:
            continue
        noise = within_noise(
            (r[f"{metric}_lo"], r[f"{metric}_hi"]), (b[f"{metric}_lo"], b[f"{metric}_hi"])
        )
        if noise is False:
            moved.append((r[metric] / b[metric], r["version"], r["x"]))
    return min(moved), max(moved)


def test_a_thousand_runs_fit_the_page_budget_and_read_without_javascript(built):
    data, www = built
    html = (www / "benchlog" / "posts" / STUDY / "index.html").read_text()
    assert len(cells(data)) == 11 * 3 * 3 * 10  # a cell per version, tier, workload, threads
    assert len(html.encode()) < budget.WHOLE_BUDGET
    assert budget.elements(html) < budget.WHOLE_ELEMENT_BUDGET
    lean = budget.SVG.sub("", html)
    assert len(lean.encode()) < budget.POST_BUDGET and budget.elements(lean) < budget.ELEMENT_BUDGET
    spec = re.search(rf'<script type="application/json" id="{FIG}-spec">(.*?)</script>', html, re.S)
    assert spec and len(spec.group(1)) < 3000  # the cells are a file of their own, not the page's
    figure = html[html.index(f'id="{FIG}"') :]
    figure = figure[: figure.index("</figure>")]
    assert figure.count("<svg") == 2  # the build's drawing, desktop and phone
    # the ingest's extremes, in the figure without JavaScript, each run linked to the compare page
    ext = yaml.safe_load((data / "tables" / "versions-extremes.yaml").read_text())["rows"]
    first = next(r for r in ext if r["metric"] == "tps" and r["direction"] == "regression")
    shown = re.findall(
        r'<tr data-dir="(regression|gain)">.*?compare\.runs=[^/]+/([^"]+)"', figure, re.S
    )
    listed = [(r["direction"], r["run"]) for r in ext if r["metric"] == "tps" and r["rank"] <= 5]
    assert shown == listed  # the same cells in the same order (ties in the table's order)
    row = re.search(r'<tr data-dir="regression">(.*?)</tr>', figure, re.S).group(1)
    assert f"{first['ratio']:.2f}×" in row and first["version"] in row
    assert f"compare/#compare.runs={STUDY}/{first['run']}" in row
    low, high = expected_extremes(cells(data), "tps", BASE)
    assert first["ratio"] == pytest.approx(low[0], rel=1e-4)
    # prose quotes the extremes through `value`: the largest gain as the data has it
    assert f"{high[0]:.2f}" in html and high[1] in html


def test_every_cell_links_its_run_without_javascript(built):
    """The page of every cell (the chart's data table, a page of its own) links each cell's
    run to its time series and monitors on the compare page, as the table of extremes does."""
    data, www = built
    page = (www / "benchlog" / "posts" / STUDY / f"{FIG}-data.table.html").read_text()
    links = re.findall(r'<td><a href="([^"]+)">([^<]+)</a></td>', page)
    runs = [r["run"] for r in cells(data)]
    assert [text for _, text in links] == runs and len(runs) == 990
    assert all(href == f"/benchlog/compare/#compare.runs={STUDY}/{run}" for href, run in links)
    head = re.search(r"<thead>(.*?)</thead>", page, re.S).group(1)
    assert 'data-key="run"' in head and 'data-key="runs"' in head


def test_base_picker_metric_switch_and_permalink(built, browser):
    data, www = built
    server, root = serve(www)
    url = f"{root}/benchlog/posts/{STUDY}/"
    problems: list[str] = []
    try:
        page = open_page(browser, f"{url}#{FIG}", problems, viewport={"width": 1280, "height": 900})
        page.locator(f"#{FIG}").scroll_into_view_if_needed()
        page.wait_for_selector(f"#{FIG}[data-state=rendered]", timeout=60_000)
        base = versions()[-1]  # mariadb's last, not the post's base
        page.select_option(f"#{FIG} select[aria-label=Base]", base)
        page.select_option(f"#{FIG} select[aria-label=Metric]", "qps")
        until(page, f"document.querySelector('#{FIG}').dataset.base === '{base}'")
        until(
            page,
            f"location.hash.includes('{FIG}.base={base}') && location.hash.includes('{FIG}.m=qps')",
        )
        low, high = expected_extremes(cells(data), "qps", base)

        def first(p, direction):
            return p.locator(f"#{FIG}-extremes-table tr[data-dir={direction}]").first.inner_text()

        for p in (page,):
            assert f"{low[0]:.2f}×" in first(p, "regression") and low[1] in first(p, "regression")
            assert f"{high[0]:.2f}×" in first(p, "gain") and high[1] in first(p, "gain")
        link = page.evaluate("location.href")
        again = open_page(browser, link, problems, viewport={"width": 1280, "height": 900})
        again.locator(f"#{FIG}").scroll_into_view_if_needed()
        again.wait_for_selector(f"#{FIG}[data-state=rendered]", timeout=60_000)
        assert again.locator(f"#{FIG} select[aria-label=Base]").input_value() == base
        assert again.locator(f"#{FIG} select[aria-label=Metric]").input_value() == "qps"
        assert first(again, "regression") == first(page, "regression")
        assert first(again, "gain") == first(page, "gain")
        assert not problems, problems
    finally:
        server.shutdown()


HEIGHTS = """(id) => { const f = document.getElementById(id);
  return [f.querySelector('.chart-toolbar'), f.querySelector('.chart-view'), f].map((e) => e.getBoundingClientRect().height); }"""


@pytest.mark.parametrize("width", [375, 1280])
def test_the_live_chart_takes_over_without_moving_anything(built, browser, width):
    """The toolbar holds the controls' rows from the start and the live panels (with their
    points) take the build's drawing's room: toolbar, view and figure keep their heights."""
    _, www = built
    viewport = {"width": width, "height": 900}
    with post_page(browser, www, STUDY, viewport=viewport) as (page, problems):
        before = page.evaluate(HEIGHTS, FIG)
        page.locator(f"#{FIG}").scroll_into_view_if_needed()
        page.wait_for_selector(f"#{FIG}[data-state=rendered]", timeout=60_000)
        after = page.evaluate(HEIGHTS, FIG)
        assert before[1] > 300  # the build's drawing is there before the bundle
        assert after == pytest.approx(before, abs=0.5), (before, after)
        assert not problems, problems


# The live chart's legend and whole drawing (its view as SVG, laid over its canvas) and the
# build's drawing shown at this width: boxes in page coordinates.
BOXES = """async (id) => {
  const fig = document.getElementById(id);
  const host = fig.querySelector('.chart-view');
  const box = (e) => { const r = e.getBoundingClientRect(); return { x0: r.left, x1: r.right, w: r.width }; };
  const out = { view: box(host) };
  const built = Array.from(host.querySelectorAll('svg.chart-svg')).find((s) => s.getBoundingClientRect().width > 0);
  if (built) out.built = { ...box(built), natural: Number(built.getAttribute('width')) };
  const chart = fig.benchlogChart;
  const canvas = host.querySelector('canvas');
  if (chart && chart.view && canvas) {
    const c = canvas.getBoundingClientRect();
    const holder = document.createElement('div');
    holder.style.cssText = `position:absolute;left:${c.left + scrollX}px;top:${c.top + scrollY}px;opacity:0`;
    holder.innerHTML = await chart.view.toSVG();
    document.body.append(holder);
    const legend = holder.querySelector('.role-legend');
    out.live = box(holder.querySelector('svg'));
    out.legend = legend ? box(legend) : null;
    holder.remove();
  }
  return out;
}"""


@pytest.mark.parametrize("js", [True, False])
def test_the_legend_and_panels_fit_a_phone(built, browser, js):
    """At 375 px the legend of eleven versions is laid out in the figure's width (rows of
    whole names), and so are the panels and their titles: the live chart's legend box and
    drawing are within the chart's box, and the build's drawing is shown at its own size,
    not shrunk to fit (drawn for the phone's width)."""
    _, www = built
    viewport = {"width": 375, "height": 800}
    with post_page(browser, www, STUDY, viewport=viewport, java_script_enabled=js) as (
        page,
        problems,
    ):
        page.locator(f"#{FIG}").scroll_into_view_if_needed()
        if js:
            page.wait_for_selector(f"#{FIG}[data-state=rendered]", timeout=60_000)
        got = page.evaluate(BOXES, FIG)
        view = got["view"]
        if js:
            legend, live = got["legend"], got["live"]
            assert legend, got  # the live chart has its legend
            assert legend["w"] <= view["w"], got
            assert view["x0"] - 0.5 <= legend["x0"] and legend["x1"] <= view["x1"] + 0.5, got
            assert live["x1"] <= view["x1"] + 0.5, got
        else:
            built_svg = got["built"]
            assert built_svg and built_svg["natural"] <= view["w"], got
        assert page.evaluate("() => document.scrollingElement.scrollWidth - innerWidth") <= 0
        assert not problems, problems


def test_the_room_kept_for_a_chart_not_drawn_yet_is_the_drawings_height(built, browser):
    """Where the build drew no SVG (`hugo server`), the figure keeps the room its kind expects
    (expectedHeight: the panels' rows, their titles' lines and the legend's rows at that
    width); it is the build's drawing's height at the desktop and phone widths, so that the
    chart moves nothing when it comes."""
    _, www = built
    html = (www / "benchlog" / "posts" / STUDY / "index.html").read_text()
    drawn = dict(
        re.findall(r'<svg class="chart-svg (wide|narrow)" width="[\d.]+" height="([\d.]+)"', html)
    )
    with post_page(browser, www, STUDY) as (page, problems):
        page.locator(f"#{FIG}").scroll_into_view_if_needed()
        page.wait_for_selector(f"#{FIG}[data-state=rendered]", timeout=60_000)
        expected = page.evaluate(
            """(id) => { const spec = JSON.parse(document.getElementById(`${id}-spec`).textContent);
              const kind = window.benchlogVega.kinds.versions;
              return { wide: kind.expectedHeight({ clientWidth: 792 }, spec),
                       narrow: kind.expectedHeight({ clientWidth: 346 }, spec) }; }""",
            FIG,
        )
        for variant in ("wide", "narrow"):
            assert expected[variant] == pytest.approx(float(drawn[variant]), rel=0.015), (
                variant,
                expected,
                drawn,
            )
        assert not problems, problems
