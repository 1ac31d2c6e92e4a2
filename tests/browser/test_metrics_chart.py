"""The `metrics` chart kind links a run's other metrics to its
throughput on one time axis. The figure lists the metrics it can show (`data-metrics`, from
runs.yaml), the hover follows the pointer over every panel (`data-hover-t`), and a window
brushed in one panel sets the window of all (the statistics table). Expected values come
from data/, never from the page."""

from __future__ import annotations

import csv
import json
import re

import pytest
import yaml

from tests.kit.browser_kit import WAIT, frames, open_page, serve, until
from tests.kit.golden import ROOT

LINKBENCH = "posts/linkbench-hourly-2017/"
FIG = "load-metrics"


def run_record(study, rid):
    runs = yaml.safe_load((ROOT / "data" / study / "runs.yaml").read_text())["runs"]
    return next(r for r in runs if r["id"] == rid)


@pytest.fixture(scope="module")
def base(built_site):
    server, url = serve(built_site.www)
    yield url + built_site.base_path
    server.shutdown()


@pytest.fixture
def figure(browser, base):
    problems = []
    page = open_page(
        browser, f"{base}{LINKBENCH}#{FIG}", problems, viewport={"width": 1280, "height": 900}
    )
    fig = page.locator(f"#{FIG}")
    fig.scroll_into_view_if_needed()
    page.wait_for_selector(f"#{FIG}[data-state=rendered]", timeout=WAIT)
    yield page, fig, problems
    assert not problems, problems


def figure_metrics(study, rids):
    """Every metric the figure's runs can show, throughput first, in runs.yaml's order."""
    names = []
    for rid in rids:
        run = run_record(study, rid)
        for n in [
            run["metric"],
            *run["columns"][1:],
            *(run.get("linked") or {}).get("columns", []),
        ]:
            if n not in names:
                names.append(n)
    return names


def test_the_figure_lists_every_metric_of_its_runs(figure, built_site):
    """`data-metrics` is written at build time (so it is there without JavaScript) and lists
    what every run of the figure can show; the pick list offers the run in view's."""
    page, fig, _ = figure
    expected = figure_metrics("linkbench-hourly-2017", ["load", "request-hour-1"])
    html = (built_site.site / LINKBENCH / "index.html").read_text(encoding="utf-8")
    assert f'id="{FIG}" data-kind="metrics" data-metrics="{",".join(expected)}"' in html
    assert fig.get_attribute("data-metrics").split(",") == expected
    run = run_record("linkbench-hourly-2017", "load")
    offered = page.locator(f"#{FIG} .metrics-pick input")
    assert [offered.nth(i).get_attribute("value") for i in range(offered.count())] == [
        *run["columns"][2:],
        *run["linked"]["columns"],
    ]
    panels = page.locator(f"#{FIG} .metrics-pick input:checked")
    assert [panels.nth(i).get_attribute("value") for i in range(panels.count())] == run["linked"][
        "panels"
    ]


def test_panel_names_come_from_the_series_files_meta(figure):
    """Titles and pick labels are the ingest's labels (the series files' `meta`,
    ingest/join/columns.py), not a list of the chart's own."""
    page, fig, _ = figure
    meta = {}
    for suffix in ("", ".linked"):
        meta.update(
            json.loads(
                (
                    ROOT / "data" / "linkbench-hourly-2017" / "series" / f"load{suffix}.json"
                ).read_text()
            )["meta"]
        )
    labels = page.locator(f"#{FIG} .metrics-pick label")
    for i in range(labels.count()):
        name = labels.nth(i).locator("input").get_attribute("value")
        assert labels.nth(i).text_content().strip() == (
            meta[name]["label"] if name in meta else name
        )
    assert (
        page.locator(f"#{FIG} .ts-stats tr[data-metric='vm.us'] th").inner_text()
        == meta["vm.us"]["label"]
    )


def test_request_runs_offer_the_logs_latency_and_errors(browser, base):
    """A request hour's own columns (the log's per-op latency and errors, ingest/parse/
    linkbench.py) are offered in the pick list with the ingest's labels; hour 1 shows
    GET_LINKS_LIST's p95 and the errors first (its manifest's panels), hour 24, which has no OS
    metrics, the shortcode's panels (the same two)."""
    for rid in ("request-hour-1", "request-hour-24"):
        page, problems = open_run(browser, base, rid)
        until(page, f"document.querySelectorAll('#{FIG} .metrics-pick input').length > 0")
        meta = json.loads(
            (ROOT / "data" / "linkbench-hourly-2017" / "series" / f"{rid}.json").read_text()
        )["meta"]
        labels = page.locator(f"#{FIG} .metrics-pick label")
        offered = {
            labels.nth(i).locator("input").get_attribute("value"): labels.nth(i)
            .text_content()
            .strip()
            for i in range(labels.count())
        }
        assert (
            offered["lat.GET_LINKS_LIST.p95"]
            == meta["lat.GET_LINKS_LIST.p95"]["label"]
            == "GET_LINKS_LIST p95 (ms)"
        )
        assert offered["err_s"] == "errors/s" and "lat.ADD_LINK.mean" in offered
        checked = page.locator(f"#{FIG} .metrics-pick input:checked")
        assert [checked.nth(i).get_attribute("value") for i in range(2)] == [
            "lat.GET_LINKS_LIST.p95",
            "err_s",
        ]
        until(
            page,
            f"!!document.querySelector(\"#{FIG} .ts-stats tr[data-metric='lat.GET_LINKS_LIST.p95']\")",
        )
        assert not problems, problems
        page.context.close()


def test_unchecking_every_panel_leaves_the_throughput_alone(browser, base):
    """An empty pick is a pick: the throughput panel alone, kept in the URL (`.p=-`) and
    restored from it, not the defaults back."""
    page, problems = open_run(browser, base, "load")
    checked = page.locator(f"#{FIG} .metrics-pick input:checked")
    page.locator(f"#{FIG} .metrics-panels summary").click()
    while checked.count():
        n = checked.count()
        checked.first.click()  # the pick list is drawn anew after each pick
        until(
            page,
            f"document.querySelectorAll('#{FIG} .metrics-pick input:checked').length === {n - 1}",
        )
    until(page, f"document.querySelectorAll('#{FIG} .ts-stats tbody tr').length === 1")
    until(page, f"document.getElementById('{FIG}').metricsChart.panelBounds().length === 1")
    until(
        page, f"decodeURIComponent(location.hash).includes('{FIG}.p=-')"
    )  # the hash is written 150 ms later
    page.reload()
    page.locator(f"#{FIG}").scroll_into_view_if_needed()
    page.wait_for_selector(f"#{FIG}[data-state=rendered]", timeout=WAIT)
    until(page, f"document.querySelectorAll('#{FIG} .ts-stats tbody tr').length === 1")
    assert page.locator(f"#{FIG} .metrics-pick input:checked").count() == 0
    assert not problems, problems
    page.context.close()


def test_hover_follows_the_pointer_over_every_panel(figure):
    page, fig, _ = figure
    bounds = page.evaluate(BOUNDS, FIG)
    seen = []
    # 16 positions: across the width, alternating between the top panel and the lower ones
    for i in range(16):
        panel = bounds[0 if i % 2 == 0 else 1 + i % (len(bounds) - 1)]
        x = panel["left"] + 2 + i * (panel["width"] - 4) / 15
        page.mouse.move(x, panel["top"] + panel["height"] / 2)
        until(page, f"document.getElementById('{FIG}').dataset.hoverT !== undefined")
        seen.append(float(fig.get_attribute("data-hover-t")))
    assert seen == sorted(seen) and len(set(seen)) >= 12, seen
    doc = json.loads((ROOT / "data" / "linkbench-hourly-2017" / "series" / "load.json").read_text())
    assert 0 <= seen[0] < seen[-1] <= doc["t"][-1] + 5
    page.mouse.move(bounds[0]["left"] + 100, bounds[0]["top"] - 40)  # off the chart
    until(page, f"document.getElementById('{FIG}').dataset.hoverT === undefined")


def test_a_window_brushed_in_a_lower_panel_sets_every_panels_statistics(figure):
    page, fig, _ = figure
    run = run_record("linkbench-hourly-2017", "load")
    top = page.locator(f"#{FIG} .ts-stats tr[data-metric='{run['metric']}'] td").first
    before = int(top.inner_text())
    third = page.evaluate(BOUNDS, FIG)[2]
    y = third["top"] + third["height"] / 2
    page.mouse.move(third["left"] + third["width"] * 0.45, y)
    page.mouse.down()
    page.mouse.move(third["left"] + third["width"] * 0.7, y, steps=6)
    page.mouse.up()
    until(
        page,
        f"""(() => {{
        const td = document.querySelector("#{FIG} .ts-stats tr[data-metric='{run["metric"]}'] td");
        return td && Number(td.textContent) !== {before}; }})()""",
    )
    after = int(top.inner_text())
    assert 0 < after < before
    rows = page.locator(f"#{FIG} .ts-stats tbody tr")
    assert rows.count() == 1 + len(run["linked"]["panels"])
    assert "w=" in page.evaluate(
        "decodeURIComponent(location.hash)"
    ) or f"{FIG}.w=" in page.evaluate("location.hash")


def test_uneven_intervals_give_the_time_weighted_mean_and_gaps_break_the_line(figure):
    """LinkBench's load intervals differ in length: the panel's mean over the whole run is the
    ingest's time-weighted mean (runs.yaml), and the long interval (a gap in the progress
    lines) breaks the drawn line (an empty point inside it); the CSV of what is shown has every
    interval at full resolution, not the points drawn."""
    page, fig, _ = figure
    run = run_record("linkbench-hourly-2017", "load")
    assert run["mean"] == "time-weighted"
    cell = page.locator(f"#{FIG} .ts-stats tr[data-metric='{run['metric']}'] td[data-stat=mean]")
    assert float(cell.get_attribute("data-value")) == pytest.approx(run["full"]["mean"], rel=1e-6)
    with page.expect_download() as dl:
        page.locator(f"#{FIG} button", has_text="CSV (as shown)").click()
    with open(dl.value.path(), encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    top = [r for r in rows if r["panel"] == run["metric"]]
    doc = json.loads((ROOT / "data" / "linkbench-hourly-2017" / "series" / "load.json").read_text())
    t = doc["t"]
    assert [float(r["t"]) for r in top] == t and all(r["value"] != "" for r in top)
    longest = max(range(1, len(t)), key=lambda i: t[i] - t[i - 1])
    drawn = page.evaluate(f"document.querySelector('#{FIG}').metricsChart.plotted().rows")
    breaks = [r["t"] for r in drawn if r["panel"] == run["metric"] and r["value"] is None]
    assert any(t[longest - 1] < b < t[longest] for b in breaks), (
        breaks,
        t[longest - 1],
        t[longest],
    )
    assert len(breaks) <= 3  # only the real gaps break the line


CLS = """window.__cls = 0; window.__shifts = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) { window.__cls += e.value;
  window.__shifts.push(e.sources.map(s => s.node && (s.node.id || s.node.className || s.node.nodeName)).join(' ')); } })
  .observe({ type: 'layout-shift', buffered: true });"""


@pytest.mark.parametrize("width", [1280, 375])
def test_the_live_chart_takes_over_in_the_room_held_for_it(browser, base, width):
    """Before the bundle takes over, the view holds the room of the live chart (controls, panels,
    readout, statistics: main.css from the figure's --panels), so taking over shifts nothing
    below; the room is no more than a row taller than what the live chart needs."""
    problems = []
    page = open_page(browser, "about:blank", problems, viewport={"width": width, "height": 800})
    page.add_init_script(CLS)
    page.goto(f"{base}{LINKBENCH}")
    height = f"document.querySelector('#{FIG}').getBoundingClientRect().height"
    page.wait_for_load_state("load")
    before = page.evaluate(height)
    run = run_record("linkbench-hourly-2017", "load")
    assert (
        page.locator(f"#{FIG}").get_attribute("style")
        == f"--panels: {len(run['linked']['panels'])}"
    )
    page.locator(f"#{FIG}").scroll_into_view_if_needed()
    page.wait_for_selector(f"#{FIG}[data-state=rendered]", timeout=WAIT)
    frames(page)
    live = page.evaluate(f"""Array.from(document.querySelector('#{FIG} .chart-view').children)
        .reduce((h, c) => h + c.getBoundingClientRect().height, 0)""")
    assert page.evaluate(height) == before
    assert page.evaluate("window.__cls") == 0, page.evaluate("window.__shifts")
    room = page.evaluate(
        f"document.querySelector('#{FIG} .chart-view').getBoundingClientRect().height"
    )
    assert live <= room < live + 40, (live, room)
    assert not problems, problems
    page.context.close()


# Every panel on one time axis (the live view, read through `figure.metricsChart`: its canvas
# plot, tsplot.js): each panel's box on the page (with its markers' x), the x domain every panel
# is drawn on, the zoom strip's and the window brush's box
VIEW = """(id) => { const c = document.getElementById(id).metricsChart, w = document.querySelector(`#${id} .ts-window`);
  const box = w.hidden ? null : w.getBoundingClientRect();
  return { bounds: c.panelBounds(), domain: c.plot.x().domain(), strip: c.plot.stripX().domain(),
    window: box && { left: box.left, right: box.right, top: box.top, bottom: box.bottom } }; }"""
BOUNDS = "(id) => document.getElementById(id).metricsChart.panelBounds()"


def open_run(browser, base, run, **context):
    """The post opened at the chart showing `run` (None: the chart's first), live; `context`:
    the browser context's arguments (a 1280 x 900 viewport unless given)."""
    problems = []
    page = open_page(
        browser,
        f"{base}{LINKBENCH}#{FIG}" + (f".run={run}" if run else ""),
        problems,
        **{"viewport": {"width": 1280, "height": 900}, **context},
    )
    page.locator(f"#{FIG}").scroll_into_view_if_needed()
    page.wait_for_selector(f"#{FIG}[data-state=rendered]", timeout=WAIT)
    until(page, f"!!document.getElementById('{FIG}').metricsChart")
    return page, problems


@pytest.mark.parametrize("rid", ["load", "request-hour-1"])
def test_every_panel_has_one_time_axis_spanning_the_run_and_its_samples(browser, base, rid):
    """Throughput, OS panels and the zoom strip share one explicit x domain: from 0 (or the
    first OS sample, before it: hour 1's monitors started with the warm-up) to the last time
    either series has (samples past the run's end are shown, not clipped)."""
    page, problems = open_run(browser, base, rid)
    own = json.loads(
        (ROOT / "data" / "linkbench-hourly-2017" / "series" / f"{rid}.json").read_text()
    )
    linked = json.loads(
        (ROOT / "data" / "linkbench-hourly-2017" / "series" / f"{rid}.linked.json").read_text()
    )
    view = page.evaluate(VIEW, FIG)
    expected = [min(0, own["t"][0], linked["t"][0]), max(own["t"][-1], linked["t"][-1])]
    panels = run_record("linkbench-hourly-2017", rid)["linked"]["panels"]
    assert [b["name"] for b in view["bounds"]][1:] == panels
    assert len({(b["left"], b["width"]) for b in view["bounds"]}) == 1  # one x axis
    for domain in (view["domain"], view["strip"]):
        assert domain == pytest.approx(expected)
    assert not problems, problems
    page.context.close()


def test_a_window_brushed_in_a_lower_panel_is_drawn_in_every_panel(browser, base):
    page, problems = open_run(browser, base, "request-hour-1")
    view = page.evaluate(VIEW, FIG)
    third = view["bounds"][2]
    y = third["top"] + third["height"] / 2
    page.mouse.move(third["left"] + 200, y)
    page.mouse.down()
    page.mouse.move(third["left"] + 400, y, steps=6)
    page.mouse.up()
    until(page, "location.hash.includes('.w=')")
    window = page.evaluate(VIEW, FIG)["window"]
    first, last = view["bounds"][0], view["bounds"][-1]
    assert window["left"] - third["left"] == pytest.approx(200, abs=1)
    assert window["right"] - third["left"] == pytest.approx(400, abs=1)
    # one brush over every panel: from the top panel's top to the last one's bottom
    assert window["top"] == pytest.approx(first["top"], abs=1)
    assert window["bottom"] == pytest.approx(last["top"] + last["height"], abs=1)
    assert not problems, problems
    page.context.close()


def test_hover_reads_the_last_panel_and_the_rule_spans_every_panel(browser, base):
    """The hover bounds and the rule come from the panels' real bounds (titles between them
    included): the last panel answers, and the rule runs from the first panel's top to the
    last panel's bottom."""
    page, problems = open_run(browser, base, "load")
    view = page.evaluate(VIEW, FIG)
    first, last = view["bounds"][0], view["bounds"][-1]
    assert len(view["bounds"]) == 1 + len(
        run_record("linkbench-hourly-2017", "load")["linked"]["panels"]
    )
    page.mouse.move(last["left"] + last["width"] / 2, last["top"] + last["height"] - 3)
    until(page, f"document.getElementById('{FIG}').dataset.hoverT !== undefined")
    t = float(page.locator(f"#{FIG}").get_attribute("data-hover-t"))
    lo, hi = view["domain"]
    assert t == pytest.approx((lo + hi) / 2, rel=0.02)
    rule = page.locator(f"#{FIG} .ts-rule").bounding_box()
    assert rule["y"] == pytest.approx(first["top"], abs=1)
    assert rule["y"] + rule["height"] == pytest.approx(last["top"] + last["height"], abs=1)
    page.mouse.move(
        last["left"] + last["width"] / 2, last["top"] + last["height"] + 12
    )  # below: the x axis' labels
    until(page, f"document.getElementById('{FIG}').dataset.hoverT === undefined")
    assert not problems, problems
    page.context.close()


CLOUD = "posts/myrocks-cloud-cost/"


def test_the_cloud_post_links_latency_errors_and_reconnects_and_its_markers_cross_every_panel(
    browser, base
):
    """The cloud runs have no OS monitors: their own per-second columns are the panels (the
    shortcode's panels: p95 latency, errors, reconnects), and the study's markers are drawn
    in every panel at one x."""
    problems = []
    page = open_page(
        browser, f"{base}{CLOUD}#run-metrics", problems, viewport={"width": 1280, "height": 900}
    )
    page.locator("#run-metrics").scroll_into_view_if_needed()
    page.wait_for_selector("#run-metrics[data-state=rendered]", timeout=WAIT)
    until(page, "!!document.getElementById('run-metrics').metricsChart")
    run = run_record("myrocks-cloud-cost", "rocksdb-10000gp2-54")
    checked = page.locator("#run-metrics .metrics-pick input:checked")
    assert [checked.nth(i).get_attribute("value") for i in range(checked.count())] == [
        "lat_ms",
        "err_s",
        "reconn_s",
    ]
    assert {"lat_ms", "err_s", "reconn_s"} <= set(
        page.locator("#run-metrics").get_attribute("data-metrics").split(",")
    )
    markers = yaml.safe_load((ROOT / "content" / CLOUD / "manifest.yaml").read_text())["markers"]
    view = page.evaluate(VIEW, "run-metrics")
    drawn = [[round(x) for x in b["marks"]] for b in view["bounds"]]
    assert len(drawn) == 4 and all(len(x) == len(markers) for x in drawn), drawn
    assert all(x == drawn[0] for x in drawn), drawn
    domain, width = view["domain"], view["bounds"][0]["width"]
    expected = [round((m["t"] - domain[0]) / (domain[1] - domain[0]) * width) for m in markers]
    assert all(abs(a - b) <= 1 for a, b in zip(drawn[0], expected)), (
        drawn[0],
        expected,
        run["end_s"],
    )
    assert not problems, problems
    page.context.close()


def test_zooming_in_the_strip_narrows_every_panel_and_round_trips_the_url(browser, base):
    """A drag in the overview strip zooms every panel to its range (`.z=` in the URL, restored
    on reload); the window statistics keep the window, not the zoom; a click clears the zoom."""
    page, problems = open_run(browser, base, "load")
    full = page.evaluate(VIEW, FIG)["domain"]
    strip = page.locator(f"#{FIG} canvas.ts-strip").bounding_box()
    left = page.evaluate(BOUNDS, FIG)[0]["left"]
    width = page.evaluate(BOUNDS, FIG)[0]["width"]
    y = strip["y"] + 8 + 20  # inside the strip's plot (tsplot.js GAP, STRIP)
    cell = f"#{FIG} .ts-stats tr td[data-stat=mean]"
    mean = page.locator(cell).first.get_attribute("data-value")
    page.mouse.move(left + width * 0.25, y)
    page.mouse.down()
    page.mouse.move(left + width * 0.5, y, steps=5)
    page.mouse.up()
    until(page, "location.hash.includes('.z=')")
    zoomed = page.evaluate(VIEW, FIG)["domain"]
    span = full[1] - full[0]
    assert zoomed[0] == pytest.approx(full[0] + span * 0.25, abs=span * 0.01)
    assert zoomed[1] == pytest.approx(full[0] + span * 0.5, abs=span * 0.01)
    assert page.locator(cell).first.get_attribute("data-value") == mean
    state = f"{FIG}.z={round(zoomed[0])}-{round(zoomed[1])}"
    until(page, f"decodeURIComponent(location.hash).includes('{state}')")  # written 150 ms later
    page.reload()
    page.locator(f"#{FIG}").scroll_into_view_if_needed()
    page.wait_for_selector(f"#{FIG}[data-state=rendered]", timeout=WAIT)
    until(page, f"!!document.getElementById('{FIG}').metricsChart")
    restored = page.evaluate(VIEW, FIG)["domain"]
    assert restored == pytest.approx([round(zoomed[0]), round(zoomed[1])], abs=1e-9)
    strip = page.locator(f"#{FIG} canvas.ts-strip").bounding_box()
    page.mouse.click(left + width * 0.8, strip["y"] + 8 + 20)  # a click clears the zoom
    until(page, "!location.hash.includes('.z=')")
    assert page.evaluate(VIEW, FIG)["domain"] == pytest.approx(full)
    assert not problems, problems
    page.context.close()


def test_the_chart_goes_live_without_the_vega_bundle(browser, base):
    """The metrics chart draws on canvas: with the Vega bundle held back (its request never
    answered), the chart still goes live, hovers and brushes; Vega is fetched for export only."""
    problems = []
    page = open_page(browser, "about:blank", problems, viewport={"width": 1280, "height": 900})
    held = []
    page.route("**/vega-kinds.*.js", lambda route: held.append(route))
    page.goto(f"{base}{LINKBENCH}#{FIG}")
    page.locator(f"#{FIG}").scroll_into_view_if_needed()
    page.wait_for_selector(f"#{FIG}[data-state=rendered]", timeout=WAIT)
    until(page, f"!!document.getElementById('{FIG}').metricsChart")
    assert page.evaluate("window.benchlogVega") is None
    top = page.evaluate(BOUNDS, FIG)[0]
    page.mouse.move(top["left"] + top["width"] / 3, top["top"] + top["height"] / 2)
    until(page, f"document.getElementById('{FIG}').dataset.hoverT !== undefined")
    assert page.locator(f"#{FIG} .ts-readout b").count() >= 2
    for route in held:
        route.abort()
    page.context.close()


def test_the_export_draws_the_panels_shown_with_vega(figure):
    """PNG and SVG export draw the chart as shown with Vega, fetched on demand: the SVG names
    every panel shown."""
    page, fig, _ = figure
    with page.expect_download() as dl:
        page.locator(f"#{FIG} .chart-tools button", has_text="SVG").click()
    name = dl.value.suggested_filename
    with open(dl.value.path(), encoding="utf-8") as f:
        svg = f.read()
    assert name == f"{FIG}.svg" and svg.startswith("<svg")
    for label in page.evaluate(
        f"document.getElementById('{FIG}').metricsChart.plot.panels.map((p) => p.title)"
    ):
        assert f">{label}<" in svg, label


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_canvas_follows_the_colour_scheme(browser, base, scheme):
    """The panels are drawn in the page's colours (theme.js custom properties), dark too."""
    page, problems = open_run(
        browser, base, None, viewport={"width": 375, "height": 800}, color_scheme=scheme
    )
    drawn, page_fg = page.evaluate(
        f"""[document.getElementById('{FIG}').metricsChart.plot.state.theme.fg,
        getComputedStyle(document.documentElement).getPropertyValue('--fg').trim()]"""
    )
    # main.css sets --fg for the light scheme first, then for the dark one
    fgs = re.findall(r"--fg:\s*(#[0-9a-fA-F]+)", (ROOT / "assets" / "css" / "main.css").read_text())
    assert drawn == page_fg == fgs[0 if scheme == "light" else 1]
    assert not problems, problems
    page.context.close()


def test_the_run_and_the_panels_are_picked_with_the_keyboard(figure):
    """The run picker and the panel boxes are form controls: the keyboard switches the run
    (the panels follow it: the new run's defaults) and toggles a panel."""
    page, fig, _ = figure
    select = page.locator(f"#{FIG} .chart-controls select")
    select.focus()
    page.keyboard.press("ArrowDown")
    second = page.evaluate(
        f"document.querySelector('#{FIG} .chart-controls select').options[1].value"
    )
    until(page, f"decodeURIComponent(location.hash).includes('{FIG}.run={second}')")
    panels = run_record("linkbench-hourly-2017", second)["linked"]["panels"]
    until(
        page,
        f"document.getElementById('{FIG}').metricsChart.panelBounds().length === {1 + len(panels)}",
    )
    page.locator(f"#{FIG} .metrics-panels summary").focus()
    page.keyboard.press("Enter")
    box = page.locator(f"#{FIG} .metrics-pick input:checked").first
    box.focus()
    page.keyboard.press("Space")
    until(
        page,
        f"document.getElementById('{FIG}').metricsChart.panelBounds().length === {len(panels)}",
    )
    assert page.evaluate(BOUNDS, FIG)[1]["name"] == panels[1]
