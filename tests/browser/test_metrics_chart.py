"""The `metrics` chart kind links a run's other metrics to its
throughput on one time axis. The figure lists the metrics it can show (`data-metrics`, from
runs.yaml), the hover follows the pointer over every panel (`data-hover-t`), and a window
brushed in one panel sets the window of all (the statistics table). Expected values come
from data/, never from the page."""

from __future__ import annotations

import csv
import json

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
    box = page.locator(f"#{FIG} .ts-canvas canvas").bounding_box()
    seen = []
    # 16 positions: across the width, alternating between the top panel and the lower ones
    for i in range(16):
        x = box["x"] + 70 + i * (box["width"] - 140) / 15
        y = box["y"] + (
            60 if i % 2 == 0 else 150 + 6 + 35 + 76 * (i % 3)
        )  # top panel, then lower ones
        page.mouse.move(x, y)
        until(page, f"document.getElementById('{FIG}').dataset.hoverT !== undefined")
        seen.append(float(fig.get_attribute("data-hover-t")))
    assert seen == sorted(seen) and len(set(seen)) >= 12, seen
    doc = json.loads((ROOT / "data" / "linkbench-hourly-2017" / "series" / "load.json").read_text())
    assert 0 <= seen[0] < seen[-1] <= doc["t"][-1] + 5
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] - 40)  # off the chart
    until(page, f"document.getElementById('{FIG}').dataset.hoverT === undefined")


def test_a_window_brushed_in_a_lower_panel_sets_every_panels_statistics(figure):
    page, fig, _ = figure
    run = run_record("linkbench-hourly-2017", "load")
    top = page.locator(f"#{FIG} .ts-stats tr[data-metric='{run['metric']}'] td").first
    before = int(top.inner_text())
    box = page.locator(f"#{FIG} .ts-canvas canvas").bounding_box()
    y = box["y"] + 150 + 6 + 35 + 76  # inside the third panel
    page.mouse.move(box["x"] + box["width"] * 0.45, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.7, y, steps=6)
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


# Every panel on one time axis (the live view, read through `figure.metricsChart`: its Vega view)
VIEW = """(id) => { const c = document.getElementById(id).metricsChart, v = c.view, b = c.panelBounds();
  const root = v.scenegraph().root.items[0];
  const groups = root.items.filter((m) => /^concat_\\d+_group$/.test(m.name)).map((m) => m.items[0]);
  return { bounds: b, origin: [v.padding().left + v.origin()[0], v.padding().top + v.origin()[1]],
    domains: groups.map((_, i) => v.scale(`concat_${i}_x`).domain()),
    windows: groups.slice(0, b.length).map((g) => g.items.filter((m) => /^p\\d+.window/.test(m.name))
      .flatMap((m) => m.items.map((it) => [Math.round(it.x), Math.round(it.x2)]))) }; }"""


def open_run(browser, base, run):
    problems = []
    page = open_page(
        browser,
        f"{base}{LINKBENCH}#{FIG}.run={run}",
        problems,
        viewport={"width": 1280, "height": 900},
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
    assert (
        len(view["domains"])
        == 1 + len(run_record("linkbench-hourly-2017", rid)["linked"]["panels"]) + 1
    )  # + strip
    for domain in view["domains"]:
        assert domain == pytest.approx(expected)
    assert not problems, problems
    page.context.close()


def test_a_window_brushed_in_a_lower_panel_is_drawn_in_every_panel(browser, base):
    page, problems = open_run(browser, base, "request-hour-1")
    view = page.evaluate(VIEW, FIG)
    box = page.locator(f"#{FIG} .ts-canvas canvas").bounding_box()
    (ox, oy), third = view["origin"], view["bounds"][2]
    y = box["y"] + oy + third["y"] + third["height"] / 2
    page.mouse.move(box["x"] + ox + 200, y)
    page.mouse.down()
    page.mouse.move(box["x"] + ox + 400, y, steps=6)
    page.mouse.up()
    until(page, "location.hash.includes('.w=')")
    windows = page.evaluate(VIEW, FIG)["windows"]
    assert len(windows) == len(view["bounds"])
    assert all(w == [[200, 400]] for w in windows), windows
    assert not problems, problems
    page.context.close()


def test_hover_reads_the_last_panel_and_the_rule_spans_every_panel(browser, base):
    """The hover bounds and the rule come from the panels' real bounds (titles between them
    included): the last panel answers, and the rule runs from the first panel's top to the
    last panel's bottom."""
    page, problems = open_run(browser, base, "load")
    view = page.evaluate(VIEW, FIG)
    box = page.locator(f"#{FIG} .ts-canvas canvas").bounding_box()
    (ox, oy), first, last = view["origin"], view["bounds"][0], view["bounds"][-1]
    assert len(view["bounds"]) == 1 + len(
        run_record("linkbench-hourly-2017", "load")["linked"]["panels"]
    )
    page.mouse.move(
        box["x"] + ox + last["width"] / 2, box["y"] + oy + last["y"] + last["height"] - 3
    )
    until(page, f"document.getElementById('{FIG}').dataset.hoverT !== undefined")
    t = float(page.locator(f"#{FIG}").get_attribute("data-hover-t"))
    lo, hi = view["domains"][0]
    assert t == pytest.approx((lo + hi) / 2, rel=0.02)
    rule = page.locator(f"#{FIG} .ts-rule").bounding_box()
    assert rule["y"] == pytest.approx(box["y"] + oy + first["y"], abs=1)
    assert rule["y"] + rule["height"] == pytest.approx(
        box["y"] + oy + last["y"] + last["height"], abs=1
    )
    page.mouse.move(
        box["x"] + ox + last["width"] / 2, box["y"] + oy + last["y"] + last["height"] + 12
    )  # below: the strip's axis
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
    drawn = page.evaluate(
        """(id) => { const c = document.getElementById(id).metricsChart, v = c.view;
      const root = v.scenegraph().root.items[0];
      return root.items.filter((m) => /^concat_\\d+_group$/.test(m.name)).slice(0, c.panelBounds().length)
        .map((g) => g.items[0].items.filter((m) => /^p\\d+.markers/.test(m.name)).flatMap((m) => m.items.map((it) => Math.round(it.x)))); }""",
        "run-metrics",
    )
    assert len(drawn) == 4 and all(len(x) == len(markers) for x in drawn), drawn
    assert all(x == drawn[0] for x in drawn), drawn
    domain = page.evaluate(
        "document.getElementById('run-metrics').metricsChart.view.scale('concat_0_x').domain()"
    )
    width = page.evaluate(
        "document.getElementById('run-metrics').metricsChart.panelBounds()[0].width"
    )
    expected = [round((m["t"] - domain[0]) / (domain[1] - domain[0]) * width) for m in markers]
    assert all(abs(a - b) <= 1 for a, b in zip(drawn[0], expected)), (
        drawn[0],
        expected,
        run["end_s"],
    )
    assert not problems, problems
    page.context.close()
