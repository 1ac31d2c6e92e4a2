"""Every chart of every post renders under the site's CSP (and a
negative control shows the harness catches violations), the cloud post's interactions
(window statistics, zoom resolution, legend, hash state, export), the page without
JavaScript, at phone width in dark mode, and the page-weight budgets. One session build
(`built_site`), one Chromium for the module."""

from __future__ import annotations

import gzip
import os
import re
from pathlib import Path

import pytest
import yaml
from playwright.sync_api import expect

from ingest.write.csvfiles import series_csv
from tests.kit.browser_kit import (
    CSP,
    WAIT,
    csp_violations,
    open_page,
    page_csp,
    serve,
    until,
    wait_for_charts,
)

ROOT = Path(__file__).resolve().parents[2]
CLOUD = "posts/myrocks-cloud-cost/"
TS = "tps-over-time"


@pytest.fixture(scope="module")
def www(built_site, tmp_path_factory):
    """Web root: the built site at its project path plus negative-control pages."""
    root = tmp_path_factory.mktemp("front-www")
    os.symlink(built_site.site, root / built_site.base_path.strip("/"))
    neg = root / "negative"
    neg.mkdir()
    meta = f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
    (neg / "inline.html").write_text(
        f"<!doctype html><title>x</title>{meta}<script>document.title = 'ran';</script>"
    )
    (neg / "eval.html").write_text(
        f'<!doctype html><title>x</title>{meta}<script src="eval.js"></script>'
    )
    (neg / "eval.js").write_text("document.title = new Function('return \"ran\"')();\n")
    (neg / "missing.html").write_text(
        f'<!doctype html><title>x</title>{meta}<img src="missing.png" alt="">'
    )
    # the server also sends the pages' own policy as a header, as a host with headers would
    server, base = serve(root, csp=page_csp((built_site.site / CLOUD / "index.html").read_text()))
    yield base, built_site
    server.shutdown()


def cloud_table(tid: str) -> dict:
    """A derived table of the cloud study, as the ingest wrote it (expected values come from here)."""
    return yaml.safe_load(
        (ROOT / "data" / "myrocks-cloud-cost" / "tables" / f"{tid}.yaml").read_text()
    )


def chart_posts(site):
    return sorted(
        str(p.parent.relative_to(site)) + "/"
        for p in site.glob("posts/*/index.html")
        if 'class="chart"' in p.read_text(encoding="utf-8")
    )


def load(browser, www, path, **context):
    base, built = www
    problems = []
    page = open_page(
        browser,
        f"{base}{built.base_path}{path}",
        problems,
        viewport=context.pop("viewport", {"width": 1280, "height": 900}),
        **context,
    )
    states = wait_for_charts(page)
    return page, states, problems


def test_every_chart_of_every_post_renders_under_the_csp(browser, www):
    posts = chart_posts(www[1].site)
    assert CLOUD in posts
    for path in posts:
        page, states, problems = load(browser, www, path)
        assert states and set(states.values()) == {"rendered"}, (path, states)
        sizes = page.evaluate("""Array.from(document.querySelectorAll('figure.chart')).map(f => {
            const d = f.querySelector('.chart-view svg, .chart-view canvas, .chart-view table');
            return [f.id, d ? Math.round(d.getBoundingClientRect().width * d.getBoundingClientRect().height) : 0]; })""")
        assert all(area > 10000 for _, area in sizes), (path, sizes)
        policy = page.evaluate(
            "document.querySelector('meta[http-equiv=Content-Security-Policy]').content"
        )
        script_src = re.search(r"script-src ([^;]+)", policy).group(1).split()
        assert "'self'" in script_src and not {"'unsafe-eval'", "'unsafe-inline'"} & set(
            script_src
        ), policy
        assert not problems and not csp_violations(page), (path, problems, csp_violations(page))
        page.context.close()


@pytest.mark.parametrize("name", ["inline.html", "eval.html"])
def test_negative_control_a_violation_is_caught(browser, www, name):
    problems = []
    page = open_page(browser, f"{www[0]}/negative/{name}", problems)
    page.wait_for_load_state("load")
    assert page.title() == "x"  # the script did not run ...
    until(page, "window.__cspViolations.length > 0")  # ... and we saw it
    assert any("Content Security Policy" in p for p in problems), problems
    page.context.close()


def test_negative_control_a_missing_file_is_caught(browser, www):
    problems = []
    page = open_page(browser, f"{www[0]}/negative/missing.html", problems)
    assert any(
        p.startswith("HTTP 404: ") and p.endswith("/negative/missing.png") for p in problems
    ), problems
    page.context.close()


def test_page_weight_budgets(browser, www):
    html = (www[1].site / CLOUD / "index.html").read_bytes()
    # the build-time SVGs (desktop and phone for each chart but the ratio's table) have their
    # own budget, per SVG: a bar chart ~9 KB, a time series of 4 runs ~78 KB (desktop)
    svgs = re.findall(rb'<svg class="chart-svg.*?</svg>', html, re.S)
    drawn = len(re.findall(rb'<figure class="chart" id="[^"]+" data-kind="(?!ratio)', html))
    assert len(svgs) == 2 * drawn and max(map(len, svgs)) < 100_000, [len(s) for s in svgs]
    assert len(html) - sum(map(len, svgs)) < 150_000, len(html)
    base, built = www
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    bodies = []
    page.on("response", lambda r: bodies.append(r))
    page.goto(f"{base}{built.base_path}{CLOUD}")
    wait_for_charts(page)
    total = sum(len(gzip.compress(r.body(), 6)) for r in bodies if r.status == 200)
    assert total < 1_200_000, total
    context.close()


def ts_stats(page):
    return page.evaluate(f"""Array.from(document.querySelectorAll('#{TS} .ts-stats tbody tr')).map(tr =>
        [tr.dataset.run, Object.fromEntries(Array.from(tr.querySelectorAll('td[data-stat]')).map(td => [td.dataset.stat, Number(td.dataset.value)]))])""")


def test_window_statistics_are_the_ingests_and_follow_the_window(browser, www):
    runs = {
        r["id"]: r
        for r in yaml.safe_load((ROOT / "data/myrocks-cloud-cost/runs.yaml").read_text())["runs"]
    }
    page, _, problems = load(browser, www, CLOUD)
    shown = ts_stats(page)
    assert len(shown) == 4
    for run, stats in shown:
        w = runs[run]["window"]
        for key in ("mean", "p1", "p50", "p99", "cv"):
            assert stats[key] == pytest.approx(w[key], rel=1e-5), (run, key)
    # keyboard path: type a window; the statistics are recomputed for it and the hash keeps it
    page.locator(f"#{TS}").get_by_label("Window start (s)").fill("3000")
    page.locator(f"#{TS}").get_by_label("Window start (s)").press("Enter")
    until(
        page,
        f"() => document.querySelector('#{TS} .ts-stats caption').textContent.includes('3,000')",
    )
    assert all(s["mean"] != dict(shown)[r]["mean"] for r, s in ts_stats(page))
    until(page, "() => location.hash.includes('tps-over-time.w=3000-3600')")
    # pointer path: brushing in the chart moves the window
    plot = page.locator(f"#{TS} .ts-canvas canvas").first  # the detail plot, over the strip
    plot.scroll_into_view_if_needed()
    box = plot.bounding_box()
    y = box["y"] + 100
    page.mouse.move(box["x"] + box["width"] * 0.3, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.5, y, steps=5)
    page.mouse.up()
    until(
        page,
        f"() => !document.querySelector('#{TS} .ts-stats caption').textContent.includes('3,000')",
    )
    assert not problems
    page.context.close()


def test_zooming_in_reaches_full_resolution(browser, www):
    count = f"document.getElementById('{TS}').benchlogChart.view.data('detail').length"
    page, _, _ = load(browser, www, CLOUD)
    overview = page.evaluate(count)
    assert overview < 4 * 3600, overview  # downsampled: far fewer points than 4 runs x 3600 s
    page.context.close()
    page, _, problems = load(browser, www, CLOUD + f"#{TS}.z=3000-3100")
    rows = page.evaluate(f"document.getElementById('{TS}').benchlogChart.view.data('detail')")
    per_run = {}
    for r in rows:
        per_run.setdefault(r["run"], []).append(r["t"])
    assert len(per_run) == 4
    for ts in per_run.values():
        inside = [t for t in ts if 3000 < t <= 3100]
        assert inside == list(range(3001, 3101))  # every second, none dropped
    assert not problems
    page.context.close()


def test_hash_state_restores_the_view_and_legend_hides_series(browser, www):
    hidden = "innodb-30000-54"
    page, _, problems = load(
        browser, www, CLOUD + f"#{TS}.s=30&{TS}.hide={hidden}&tps-ratio.base=rocksdb"
    )
    assert page.locator(f"#{TS} select").input_value() == "30"
    assert [r for r, _ in ts_stats(page)] == [
        "rocksdb-10000gp2-54",
        "innodb-10000gp2-54",
        "rocksdb-30000-54",
    ]
    button = page.locator(
        f"#{TS} .chart-legend button", has_text="InnoDB, io1 30000 IOPS, 54 GB cache"
    )
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    until(page, f"() => document.querySelectorAll('#{TS} .ts-stats tbody tr').length === 4")
    until(page, "() => !location.hash.includes('hide=')")
    # the ratio table was redrawn against MyRocks: InnoDB cells are below 1, MyRocks is the base
    assert page.locator("#tps-ratio select").input_value() == "rocksdb"
    first = page.locator("#tps-ratio tbody tr").first.locator("td")
    row = cloud_table("ratio")["rows"][0]  # the heat table's first row, from data/
    assert first.nth(0).inner_text().strip() == f"{row['innodb_tps'] / row['rocksdb_tps']:.2f}×"
    assert first.nth(0).get_attribute("data-c") == "-5"  # below 1/3: the darkest blue
    assert row["innodb_tps"] / row["rocksdb_tps"] < 1 / 3
    assert first.nth(1).inner_text().strip() == f"{row['rocksdb_tps']:,.2f}"
    assert "(base)" in page.locator("#tps-ratio thead th").nth(3).inner_text()
    value = next(c["label"] for c in cloud_table("avg-tps")["columns"] if c["key"] == "avg_tps")
    legend = page.locator("#tps-ratio .legend-scale").inner_text()
    assert f"the base, whose column shows {value}" in legend  # the base cells' unit
    assert not problems
    page.context.close()


def test_export_png_svg_and_the_plotted_csv(browser, www):
    page, _, problems = load(browser, www, CLOUD)
    tools = page.locator(f"#{TS} .chart-tools")
    with page.expect_download() as d:
        tools.get_by_role("button", name="PNG").click()
    assert Path(d.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with page.expect_download() as d:
        tools.get_by_role("button", name="SVG").click()
    assert b"<svg" in Path(d.value.path()).read_bytes()[:400]
    with page.expect_download() as d:
        tools.get_by_role("button", name="CSV (as shown)").click()
    lines = Path(d.value.path()).read_text().splitlines()
    # every interval of the runs shown (full resolution), not the per-pixel points drawn
    shown = page.evaluate(
        f"(() => {{ const c = document.getElementById('{TS}').benchlogChart;"
        " return c.visible().reduce((n, id) => n + c.cache.get(id).t.length, 0); })()"
    )
    drawn = page.evaluate(
        f"document.getElementById('{TS}').benchlogChart.view.data('detail').length"
    )
    assert lines[0] == "run,t,value" and len(lines) == 1 + shown and shown != drawn
    assert all(float(line.split(",")[1]).is_integer() for line in lines[1:])  # 1 s intervals
    with page.expect_download() as d:
        page.locator("#tps-ratio .chart-tools").get_by_role("button", name="PNG").click()
    assert Path(d.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with page.expect_download() as d:
        page.locator("#tps-ratio .chart-tools").get_by_role("button", name="CSV (as shown)").click()
    ratio_lines = Path(d.value.path()).read_text().splitlines()
    assert (
        ratio_lines[0] == "row,col,value,base_value,ratio,within_noise"
        and len(ratio_lines) == 1 + 24
    )
    assert not problems
    page.context.close()


def test_without_javascript_the_post_is_still_useful(browser, www):
    base, built = www
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base}{built.base_path}{CLOUD}")
    avg = cloud_table("avg-tps")["rows"]
    assert page.locator("#avg-tps-table tbody tr").count() == len(avg)
    ratios = [r["ratio"] for r in cloud_table("ratio")["rows"]]
    # classes 4 and 5: MyRocks at 2x InnoDB or more (docs/charts.md)
    assert page.locator(
        "#tps-ratio table.ratio-table td[data-c='4'], #tps-ratio table.ratio-table td[data-c='5']"
    ).count() == sum(r >= 2 for r in ratios)
    assert page.locator(f"#{TS} .no-js-note").is_visible()
    # the range of the values, with the data table (the caption says what to see)
    summary = page.locator("#avg-tps-bars .chart-summary").text_content()
    lo, hi = min(r["avg_tps"] for r in avg), max(r["avg_tps"] for r in avg)
    assert f"from {lo:,.2f} (" in summary and f"to {hi:,.2f} (" in summary, summary
    context.close()


def test_no_post_is_wider_than_a_phone(browser, www):
    """At 375 px no drawn chart (faceted charts with legends included) widens the page."""
    for path in chart_posts(www[1].site):
        page, states, problems = load(browser, www, path, viewport={"width": 375, "height": 800})
        assert set(states.values()) == {"rendered"}, (path, states)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, path
        assert not problems, (path, problems)
        page.context.close()


def ax_role(page, selector):
    """The role Chromium's accessibility tree gives the first element matching `selector` (CSS
    display can cost a table its semantics in some browsers: this reads what the browser made)."""
    cdp = page.context.new_cdp_session(page)
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    tree = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})
    return tree["nodes"][0]["role"]["value"]


PLAN_FITS = """() => [...document.querySelectorAll('figure[data-kind="plans"] table.plan-table')]
    .filter((t) => t.getClientRects().length)
    .map((t) => [t.closest('figure').id, t.scrollWidth, t.parentElement.clientWidth])"""


@pytest.mark.parametrize("width", [375, 1024])
def test_a_plan_wraps_its_steps_in_a_narrow_box_instead_of_scrolling(browser, www, width):
    """In a narrow box (a phone; plans side by side at 1024 px) each step of a plan wraps onto
    lines of one grid (Extra last, on its own): every plan table fits its box, as drawn by Hugo
    and as redrawn for another query, and is still a table with rows and cells to a screen
    reader."""
    posts = [
        str(p.parent.relative_to(www[1].site)) + "/"
        for p in www[1].site.glob("posts/*/index.html")
        if 'data-kind="plans"' in p.read_text(encoding="utf-8")
    ]
    assert posts, "no post with a plan view in the build"
    for path in posts:
        page, states, problems = load(browser, www, path, viewport={"width": width, "height": 800})
        figure = page.locator('figure[data-kind="plans"]').first
        pickers = figure.locator(".chart-toolbar select")
        drawn = [page.evaluate(PLAN_FITS)]
        queries = pickers.first.locator("option").all_inner_texts()
        other = next(q for q in queries if q != pickers.first.input_value())
        pickers.first.select_option(other)
        expect(figure.locator(f'.plan-grid[data-query="{other}"]')).to_have_count(1, timeout=WAIT)
        drawn.append(page.evaluate(PLAN_FITS))
        for tables in drawn:
            assert tables, path
            assert all(wide <= box + 1 for _, wide, box in tables), (path, tables)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, path
        plan = 'figure[data-kind="plans"] table.plan-table'
        assert ax_role(page, plan) == "table"
        assert ax_role(page, plan + " tbody tr") == "row"
        assert ax_role(page, plan + " tbody td") == "cell"
        assert not problems, (path, problems)
        page.context.close()


def test_phone_width_dark_mode_and_keyboard(browser, www):
    page, states, problems = load(
        browser, www, CLOUD, viewport={"width": 375, "height": 800}, color_scheme="dark"
    )
    assert set(states.values()) == {"rendered"}
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgb(253, 253, 252)"
    header = page.locator("#avg-tps-table thead th button").nth(3)  # Avg TPS
    header.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#avg-tps-table thead th").nth(3)).to_have_attribute(
        "aria-sort", "ascending", timeout=WAIT
    )
    # the lowest average of the data, as the table prints it (column digits, thousands separator)
    avg = yaml.safe_load(
        (ROOT / "data" / "myrocks-cloud-cost" / "tables" / "avg-tps.yaml").read_text()
    )
    column = next(c for c in avg["columns"] if c["key"] == "avg_tps")
    assert [c["key"] for c in avg["columns"]].index("avg_tps") == 3
    lowest = f"{min(r['avg_tps'] for r in avg['rows'] if r['avg_tps'] is not None):,.{column.get('digits', 2)}f}"
    expect(page.locator("#avg-tps-table tbody tr").first.locator("td").nth(3)).to_have_text(
        lowest, timeout=WAIT
    )
    assert not problems
    page.context.close()


@pytest.mark.parametrize("fragment", ["#x=%", f"#{TS}.s=%E0%A4%A&{TS}.z=3000-3100", "#%=1&=&&x"])
def test_a_malformed_fragment_is_ignored(browser, www, fragment):
    """`decodeURIComponent` throws on `%`; hash.js ignores the bad pair and every
    figure of the post still renders, with no page error; the good pairs still apply."""
    page, states, problems = load(browser, www, CLOUD + fragment)
    figures = page.evaluate("document.querySelectorAll('figure.chart').length")
    assert states and len(states) == figures and set(states.values()) == {"rendered"}, states
    assert not problems, problems
    if ".z=3000-3100" in fragment:
        ts = page.evaluate(
            f"document.getElementById('{TS}').benchlogChart.view.data('detail').map(r => r.t)"
        )
        assert (
            ts and min(ts) > 2900 and max(ts) < 3200 and set(range(3001, 3101)) <= set(ts)
        )  # the zoom applied
    page.context.close()


def test_run_files_are_the_ingests_and_only_the_shown_runs_are_fetched(browser, www):
    """The time series links each run's CSV, written from the run's JSON when the site was
    published (also without JavaScript), and the chart fetches the JSON of the runs it shows
    only, served as the ingest wrote it (data/<study>/series/)."""
    base, built = www
    runs = yaml.safe_load((ROOT / "data/myrocks-cloud-cost/runs.yaml").read_text())["runs"]
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base}{built.base_path}{CLOUD}")
    links = page.locator(f"#{TS} ul.run-files a[download]").evaluate_all(
        "as => as.map(a => a.getAttribute('href'))"
    )
    context.close()
    assert links == [f"{built.base_path}data/myrocks-cloud-cost/series/{r['id']}.csv" for r in runs]
    for href in links[:2] + links[-1:]:
        served = built.site / href.removeprefix(built.base_path)
        data = ROOT / href.removeprefix(built.base_path)
        assert served.with_suffix(".json").read_bytes() == data.with_suffix(".json").read_bytes()
        assert served.read_text() == series_csv(data.with_suffix(".json").read_text())
    assert not list(built.site.glob("data/*/series/*.yaml"))  # no YAML anywhere
    page, _, problems = load(browser, www, CLOUD)
    fetched = page.evaluate(
        "performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)"
        ".filter(p => p.includes('/series/'))"
    )
    # every time series of the post fetches the runs it shows (each chart its own), no other
    shown = page.locator("figure[data-kind=timeseries] .ts-stats tbody tr").evaluate_all(
        "trs => trs.map(tr => tr.dataset.run)"
    )
    shown += page.locator("figure[data-kind=metrics] .chart-controls select").evaluate_all(
        "ss => ss.map(s => s.value)"
    )
    assert sorted(fetched) == sorted(
        f"{built.base_path}data/myrocks-cloud-cost/series/{r}.json" for r in shown
    )
    assert (
        len(page.locator(f"#{TS} .ts-stats tbody tr").all()) == 4
        and len(shown) < len(runs)
        and not problems
    )
    page.context.close()
