"""The compare page. Every run of every study is listed (from data/*/runs.yaml),
each run with a series links its CSV without JavaScript; with JavaScript a selection in the URL
restores the overlay and its statistics, whose values are computed here from the run files."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from tests.kit.browser_kit import WAIT, serve, until, watch
from tests.kit.golden import ROOT
from tests.kit.table_views import measure, problems

DATA = ROOT / "data"


def runs_with_series(data=DATA):
    """(study, run) of every run whose series files are published: runs with intervals, less
    those whose files the manifest's size control left out (`series: {extra: drop}`)."""
    out = []
    for runs_file in sorted(data.glob("*/runs.yaml")):
        study = runs_file.parent.name
        for run in yaml.safe_load(runs_file.read_text())["runs"] or []:
            dropped = (run.get("series") or {}).get("resolution") == "dropped"
            if run.get("intervals") and not dropped:
                out.append((study, run))
    return out


def test_runs_with_series_leaves_out_the_runs_whose_series_were_dropped(tmp_path):
    """docs/manifest.md, "Size control": a dropped run has no series files to link."""
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "runs.yaml").write_text(
        "runs:\n  - {id: a, intervals: 3}\n  - {id: b, intervals: 3, series: {resolution: dropped}}\n"
        "  - {id: c, intervals: 0}\n"
    )
    assert [r["id"] for _, r in runs_with_series(tmp_path)] == ["a"]


def window_mean(study, run):
    doc = json.loads((DATA / study / "series" / f"{run['id']}.json").read_text())
    a, b = run["window"]["start"], run["window"]["end"]
    pairs = [
        (t, v, t - prev)
        for prev, t, v in zip([0, *doc["t"]], doc["t"], doc[run["metric"]])
        if a < t <= b and v is not None
    ]
    if (
        doc.get("mean") == "time-weighted"
    ):  # uneven intervals (docs/data-schema.md): operations / elapsed
        return sum(v * dt for _, v, dt in pairs) / sum(dt for *_, dt in pairs)
    return sum(v for _, v, _ in pairs) / len(pairs)


def test_every_run_of_every_study_is_listed(built_site):
    html = built_site.page("compare/index.html")
    keys = set(re.findall(r'<tr data-key="([^"]+)"', html))
    for runs_file in DATA.glob("*/runs.yaml"):
        for run in yaml.safe_load(runs_file.read_text())["runs"] or []:
            assert f"{runs_file.parent.name}/{run['id']}" in keys


def test_without_javascript_each_series_run_links_its_csv(built_site):
    html = built_site.page("compare/index.html")
    for study, run in runs_with_series():
        href = f"{built_site.base_path}data/{study}/series/{run['id']}.csv"
        assert f'href="{href}"' in html, href
        assert (built_site.site / href.removeprefix(built_site.base_path)).is_file()


@pytest.fixture(scope="module")
def server(built_site):
    httpd, base = serve(built_site.www)
    yield base + built_site.base_path
    httpd.shutdown()


@pytest.fixture
def page(browser):
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    pg.problems = []
    watch(pg, pg.problems)
    yield pg
    pg.close()


def pick_across_studies():
    """One run from each of two studies (the first with series in each) whose runs last about an
    hour (1,400 to 7,200 s), the range the zoom and pan tests below are written for: a study of
    30 s or 15,000 s runs is left to the other tests (it is listed, drawn and compared alike)."""
    seen = {}
    for study, run in runs_with_series():
        if 1400 <= (run.get("end_s") or 0) <= 7200:
            seen.setdefault(study, run)
    assert len(seen) >= 2, "the compare tests need two studies with per-interval series"
    return list(seen.items())[:2]


def test_selection_in_the_url_restores_chart_and_statistics(page, server):
    (s1, r1), (s2, r2) = pick_across_studies()
    keys = [f"{s1}/{r1['id']}", f"{s2}/{r2['id']}"]
    page.goto(f"{server}compare/#compare.runs={','.join(keys)}&compare.base={keys[1]}")
    page.wait_for_selector("#compare[data-state=rendered]", timeout=WAIT)
    rows = page.locator("#compare-stats tbody tr")
    assert [rows.nth(i).get_attribute("data-key") for i in range(rows.count())] == keys
    assert page.locator("#compare-stats tbody tr input[type=radio]").nth(1).is_checked()
    means = [window_mean(s1, r1), window_mean(s2, r2)]
    if r1["metric"] == r2["metric"]:
        ratio = float(rows.nth(0).locator("td").last.get_attribute("data-ratio"))
        assert ratio == pytest.approx(means[0] / means[1], rel=1e-9)
    else:  # never a ratio of two units (the same-metric ratio: test_same_metric_runs_keep_...)
        assert rows.nth(0).locator("td").last.inner_text() == "different metric"
    shown_mean = float(rows.nth(0).locator("td").nth(4).inner_text().replace(",", ""))
    assert shown_mean == pytest.approx(means[0], abs=0.051)
    assert page.locator("#compare-runs input[type=checkbox]:checked").count() == 2
    assert not page.problems, page.problems


def test_picking_runs_writes_the_url_and_filters_narrow_the_list(page, server):
    page.goto(f"{server}compare/")
    (s1, r1), (s2, r2) = pick_across_studies()
    page.select_option("#compare-filters select[name=study]", s1)
    visible = page.locator("#compare-runs tbody tr:not([hidden])")
    n = visible.count()
    assert n == len([1 for s, _ in runs_with_series() if s == s1])
    assert all(visible.nth(i).get_attribute("data-study") == s1 for i in range(n))
    page.locator(f'#compare-runs tr[data-key="{s1}/{r1["id"]}"] input').check()
    page.select_option("#compare-filters select[name=study]", s2)
    page.locator(f'#compare-runs tr[data-key="{s2}/{r2["id"]}"] input').check()
    page.wait_for_selector("#compare[data-state=rendered]", timeout=WAIT)
    # the hash with both picks: the rendered state and a hash were there since the first pick,
    # so under load the URL was read before the second pick reached it (a flaky failure)
    picked = f"compare.runs={s1}/{r1['id']},{s2}/{r2['id']}"
    until(page, "p => decodeURIComponent(location.hash).includes(p)", picked)
    assert picked in page.evaluate("decodeURIComponent(location.hash)")
    # a picked run stays listed whatever the filter
    assert page.locator(f'#compare-runs tr[data-key="{s1}/{r1["id"]}"]').is_visible()
    page.fill("#compare-filters input[name=q]", "no-such-run-anywhere")
    assert page.locator("#compare-runs tbody tr:not([hidden])").count() == 2
    assert not page.problems, page.problems


def series(study, run):
    doc = json.loads((DATA / study / "series" / f"{run['id']}.json").read_text())
    return doc["t"], doc[run["metric"]]


def domain_of(page):
    return [float(x) for x in page.get_attribute("#compare", "data-domain").split(",")]


def drawn_at_full_resolution(t, v, x0, x1):
    """The points a full-resolution drawing of [x0, x1] holds: every value in it and the one
    beyond each end (missing values are not drawn)."""
    lo = next((i for i, x in enumerate(t) if x >= x0), len(t))
    hi = next((i for i, x in enumerate(t) if x >= x1), len(t))
    return sum(1 for i in range(max(0, lo - 1), min(len(t), hi + 1)) if v[i] is not None)


def plot_box(page) -> dict:
    """The compare plot's box, scrolled into view first: the filters above it take more room
    with more studies and longer titles, and the pointer must stay on screen."""
    plot = page.locator("#compare-view .compare-plot")
    plot.scroll_into_view_if_needed()
    return plot.bounding_box()


def open_pair(page, server, extra=""):
    (s1, r1), (s2, r2) = pick_across_studies()
    page.goto(f"{server}compare/#compare.runs={s1}/{r1['id']},{s2}/{r2['id']}{extra}")
    page.wait_for_selector("#compare[data-state=rendered]", timeout=WAIT)
    return [(s1, r1), (s2, r2)]


def test_whole_runs_are_drawn_decimated_per_pixel_column(page, server):
    pair = open_pair(page, server)
    width = page.locator("#compare-view .compare-plot").bounding_box()["width"]
    drawn = int(page.get_attribute("#compare", "data-drawn"))
    total = sum(sum(1 for v in series(s, r)[1] if v is not None) for s, r in pair)
    assert drawn <= 2 * 4 * width  # at most first, min, max and last per pixel column and run
    if total > 2 * 4 * width:
        assert drawn < total
    assert page.get_attribute("#compare", "data-zoomed") == ""
    x0, x1 = domain_of(page)
    assert x0 <= 0 and x1 >= max(series(s, r)[0][-1] for s, r in pair)


def test_zoom_narrows_the_visible_range_and_draws_every_point_in_it(page, server):
    pair = open_pair(page, server)
    whole = domain_of(page)
    box = plot_box(page)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(8):
        page.mouse.wheel(0, -400)
    page.wait_for_selector("#compare[data-zoomed='1']", timeout=WAIT)
    until(
        page,
        f"+document.querySelector('#compare').dataset.domain.split(',')[1] < {whole[1] / 20}"
        f" + +document.querySelector('#compare').dataset.domain.split(',')[0]",
    )
    x0, x1 = domain_of(page)
    assert whole[0] <= x0 < x1 <= whole[1] and x1 - x0 < (whole[1] - whole[0]) / 20
    # few enough intervals per pixel: every value in range is drawn, none left out
    expected = sum(drawn_at_full_resolution(*series(s, r), x0, x1) for s, r in pair)
    assert int(page.get_attribute("#compare", "data-drawn")) == expected
    # the zoom is in the URL, and a link with it opens at the same range
    until(
        page, f"location.hash.includes('compare.z={int(x0 + 0.5)}-{int(x1 + 0.5)}')"
    )  # the last zoom's (JS Math.round)
    hash_ = page.evaluate("location.hash")
    page.goto("about:blank")
    page.goto(f"{server}compare/{hash_}")
    page.wait_for_selector("#compare[data-state=rendered]", timeout=WAIT)
    y0, y1 = domain_of(page)
    assert y0 == pytest.approx(round(x0), abs=1) and y1 == pytest.approx(round(x1), abs=1)
    # the button shows every run whole again
    page.get_by_role("button", name="Every run whole").click()
    page.wait_for_selector("#compare[data-zoomed='']", timeout=WAIT)
    assert domain_of(page) == whole
    assert not page.problems, page.problems


def test_drag_pans_the_visible_range(page, server):
    open_pair(page, server, "&compare.z=1000-1400")
    x0, x1 = domain_of(page)
    assert (x0, x1) == (pytest.approx(1000), pytest.approx(1400))
    box = plot_box(page)
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx - 200, cy, steps=5)
    page.mouse.up()
    until(page, f"+document.querySelector('#compare').dataset.domain.split(',')[0] > {x0 + 1}")
    y0, y1 = domain_of(page)
    assert y1 - y0 == pytest.approx(x1 - x0, rel=1e-6)  # panned, not zoomed
    assert not page.problems, page.problems


def test_hover_reads_every_run_at_several_positions(page, server):
    pair = open_pair(
        page, server, "&compare.norm=0"
    )  # the runs' own values, not relative to their means
    box = plot_box(page)
    seen = []
    for frac in (0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95):
        page.mouse.move(box["x"] + box["width"] * frac, box["y"] + box["height"] / 2)
        page.wait_for_selector("#compare[data-hover-t]", timeout=WAIT)
        t = float(page.get_attribute("#compare", "data-hover-t"))
        x0, x1 = domain_of(page)
        assert x0 <= t <= x1
        seen.append(t)
        for s, r in pair:
            ts, vs = series(s, r)
            reading = page.locator(
                f'#compare .compare-legend li[data-key="{s}/{r["id"]}"] .reading[data-t]'
            )
            step = sorted(b - a for a, b in zip(ts, ts[1:]))[(len(ts) - 1) // 2]
            if not ts[0] <= t <= ts[-1]:
                if t > ts[-1] + 2 * step:
                    assert reading.count() == 0  # past the run's end: no reading
                continue
            nearest = min(range(len(ts)), key=lambda i: (abs(ts[i] - t), -i))
            assert float(reading.get_attribute("data-t")) == ts[nearest]
            value = reading.get_attribute("data-value")
            assert (float(value) if value else None) == vs[nearest]
    assert seen == sorted(seen) and len(set(seen)) == len(seen)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] + 200)
    page.wait_for_selector("#compare:not([data-hover-t])", timeout=WAIT)
    assert page.locator("#compare .compare-legend .reading[data-t]").count() == 0
    assert not page.problems, page.problems


def test_keyboard_reads_zooms_and_resets(page, server):
    open_pair(page, server)
    whole = domain_of(page)
    page.locator("#compare-view .compare-plot").focus()
    page.keyboard.press("ArrowRight")
    t0 = float(page.get_attribute("#compare", "data-hover-t"))
    page.keyboard.press("ArrowRight")
    assert float(page.get_attribute("#compare", "data-hover-t")) > t0
    assert page.locator("#compare .compare-legend .reading[data-t]").count() >= 1
    page.keyboard.press("+")
    page.wait_for_selector("#compare[data-zoomed='1']", timeout=WAIT)
    x0, x1 = domain_of(page)
    assert x1 - x0 < whole[1] - whole[0]
    page.keyboard.press("0")
    page.wait_for_selector("#compare[data-zoomed='']", timeout=WAIT)
    assert domain_of(page) == whole
    assert not page.problems, page.problems


def test_each_posts_run_list_offers_compare(built_site):
    """Every run of a post's time series links the compare page with that run picked, from the
    chart's list of run files (in the post, or past 40 runs on a page of its own). A post need
    not draw every run: the compare page lists them all (test_every_run_of_every_study_is_listed)."""
    checked = 0
    for page in sorted((built_site.site / "posts").glob("*/index.html")):
        study, html = page.parent.name, page.read_text(encoding="utf-8")
        for fid, spec in re.findall(
            r'<script type="application/json" id="([^"]+)-spec">(.*?)</script>', html, re.S
        ):
            spec = json.loads(spec)
            if spec.get("kind") != "timeseries":
                continue
            figure = html.split(f'id="{fid}"', 1)[1].split("</figure>", 1)[0]
            listed = re.search(r'class="run-files-page" href="([^"]+)"', figure)
            if listed:
                figure = (built_site.www / listed[1].lstrip("/")).read_text(encoding="utf-8")
            for run in spec["runs"]:
                link = f'href="{built_site.base_path}compare/#compare.runs={study}/{run["id"]}"'
                assert link in figure, (study, fid, run["id"])
                checked += 1
    assert checked


def cross_study_links(built_site):
    """The compare links a post prepares with runs of two or more studies (the compare shortcode)."""
    out = []
    for html_file in sorted((built_site.site / "posts").glob("*/index.html")):
        for href in re.findall(r'<a class="compare-link" href="([^"]+)"', html_file.read_text()):
            keys = href.split("compare.runs=", 1)[1].split("&")[0].split(",")
            if len({k.split("/")[0] for k in keys}) > 1:
                out.append((href, keys))
    return out


def run_record(key):
    study, rid = key.split("/")
    return next(
        r
        for r in yaml.safe_load((DATA / study / "runs.yaml").read_text())["runs"]
        if r["id"] == rid
    )


def test_a_post_links_a_cross_study_comparison_that_divides_no_metric_by_another(
    page, server, built_site
):
    """A comparison of a cloud run with a LinkBench run is one link away: a post's
    prepared link restores it; means are divided only between runs of the same metric, and the
    runs of different metrics are drawn relative to their own window means."""
    links = cross_study_links(built_site)
    assert links, "no post links a comparison of runs of two studies"
    href, keys = links[0]
    metrics = [run_record(k)["metric"] for k in keys]
    assert len(set(metrics)) > 1  # the link mixes metrics: the case the page must not divide
    page.goto(server.rstrip("/") + href.removeprefix(built_site.base_path.rstrip("/")))
    page.wait_for_selector("#compare[data-state=rendered]", timeout=WAIT)
    rows = page.locator("#compare-stats tbody tr")
    assert [rows.nth(i).get_attribute("data-key") for i in range(rows.count())] == keys
    for i, metric in enumerate(metrics):
        cell = rows.nth(i).locator("td").last
        if metric == metrics[0]:
            assert float(cell.get_attribute("data-ratio")) > 0
        else:
            assert (
                cell.inner_text() == "different metric" and cell.get_attribute("data-ratio") == ""
            )
    assert metrics[0] in page.inner_text("#compare-stats-note")
    # different metrics: each run relative to its own window mean, on an axis that says so
    assert page.get_attribute("#compare", "data-norm") == "1"
    assert page.locator("#compare-view input[name=norm]").is_checked()
    assert "window mean" in page.locator("#compare .compare-axes .axis-title").nth(1).text_content()
    assert "different metrics" in page.inner_text("#compare-summary")
    assert not page.problems, page.problems


def test_same_metric_runs_keep_their_ratio_beside_another_metric(page, server):
    cloud = [
        f"myrocks-cloud-cost/{r['id']}" for s, r in runs_with_series() if s == "myrocks-cloud-cost"
    ][:2]
    other = next(
        f"{s}/{r['id']}"
        for s, r in runs_with_series()
        if r["metric"] != run_record(cloud[0])["metric"]
    )
    keys = [*cloud, other]
    page.goto(f"{server}compare/#compare.runs={','.join(keys)}")
    page.wait_for_selector("#compare[data-state=rendered]", timeout=WAIT)
    rows = page.locator("#compare-stats tbody tr")
    ratio = float(rows.nth(1).locator("td").last.get_attribute("data-ratio"))
    assert ratio == pytest.approx(
        window_mean("myrocks-cloud-cost", run_record(cloud[1]))
        / window_mean("myrocks-cloud-cost", run_record(cloud[0])),
        rel=1e-9,
    )
    assert rows.nth(2).locator("td").last.inner_text() == "different metric"
    # choosing the other metric's run as the base: now the two cloud runs have no ratio
    rows.nth(2).locator("input[type=radio]").check()
    until(
        page,
        "document.querySelectorAll('#compare-stats tbody tr')[0].lastChild.textContent === 'different metric'",
    )
    assert rows.nth(1).locator("td").last.inner_text() == "different metric"


def test_normalised_view_reads_each_run_relative_to_its_window_mean(page, server):
    (s1, r1), (s2, r2) = pick_across_studies()
    page.goto(f"{server}compare/#compare.runs={s1}/{r1['id']},{s2}/{r2['id']}&compare.norm=1")
    page.wait_for_selector("#compare[data-state=rendered]", timeout=WAIT)
    box = plot_box(page)
    page.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] / 2)
    page.wait_for_selector("#compare[data-hover-t]", timeout=WAIT)
    for s, r in ((s1, r1), (s2, r2)):
        reading = page.locator(
            f'#compare .compare-legend li[data-key="{s}/{r["id"]}"] .reading[data-t]'
        )
        if not reading.count() or not reading.get_attribute("data-value"):
            continue
        ts, vs = series(s, r)
        v = vs[ts.index(float(reading.get_attribute("data-t")))]
        mean = r["window"]["mean"] if r.get("series") else window_mean(s, r)
        assert float(reading.get_attribute("data-value")) == pytest.approx(v / mean, rel=1e-9)
    # unticked, the URL says so and the values are the runs' own
    page.locator("#compare-view input[name=norm]").uncheck()
    until(page, "location.hash.includes('compare.norm=0')")
    assert page.get_attribute("#compare", "data-norm") == ""
    assert not page.problems, page.problems


def row_attributes(built_site) -> dict:
    """<study>/<run> -> the data-* attributes of its row in the built compare page's run list."""
    html = built_site.page("compare/index.html")
    return {
        key: dict(re.findall(r'data-(\w+)="([^"]*)"', tr))
        for key, tr in re.findall(r'<tr data-key="([^"]+)"([^>]*)>', html)
    }


def test_facets_file_a_run_only_under_what_is_known_of_it(built_site):
    """A run's own engine/version label wins; a post's term is inherited only when the post has
    exactly one (docs/manifest.md); otherwise the run is 'unknown' (the cloud study's unlabelled
    runs are not MyRocks and InnoDB at once; LinkBench's 2017 runs are InnoDB 5.7.17, says
    l.gv.in)."""
    attrs = row_attributes(built_site)
    for key in (k for k in attrs if k.startswith("linkbench-hourly-2017/")):
        assert attrs[key]["engines"] == "InnoDB" and attrs[key]["versions"] == "MySQL 5.7.17", key
    for study, run in runs_with_series():
        key = f"{study}/{run['id']}"
        terms = post_terms(study).get("engines") or []
        if "engine" not in run["labels"]:
            assert attrs[key]["engines"] == (terms[0] if len(terms) == 1 else "unknown"), key
        assert "|" not in attrs[key]["engines"], key


def post_terms(study) -> dict:
    """The front matter of a study's post (its taxonomies' terms)."""
    text = (ROOT / "content" / "posts" / study / "index.md").read_text()
    return yaml.safe_load(text.split("---\n", 2)[1]) or {}


def test_the_cloud_runs_are_filed_under_their_volume_type(built_site):
    """The cloud post lists two storage terms, so its runs are filed by their own `storage`
    label (gp2 or io1, from the file names): filtering by a term finds exactly those runs, and
    only the runs the archive does not name (unlabelled) are 'unknown'."""
    attrs = row_attributes(built_site)
    cloud = {k: v for k, v in attrs.items() if k.startswith("myrocks-cloud-cost/")}
    assert cloud
    for key, a in cloud.items():
        run = key.split("/", 1)[1]
        if run.startswith("unlabelled-"):
            assert a["storage"] == "unknown", key
        elif "gp2" in run:
            assert a["storage"] == "AWS EBS gp2", key
        else:
            assert a["storage"] == "AWS EBS io1", key


def test_label_filter_matches_exact_values(page, server):
    """iops=5000 is not iops=15000 (the search box matches substrings; the label filter does not)."""
    page.goto(f"{server}compare/")
    wanted = [
        f"{s}/{r['id']}" for s, r in runs_with_series() if str(r["labels"].get("iops")) == "5000"
    ]
    assert wanted and any(str(r["labels"].get("iops")) == "15000" for _, r in runs_with_series())
    page.select_option("#compare-filters select[name=label]", "iops=5000")
    visible = page.locator("#compare-runs tbody tr:not([hidden])")
    assert sorted(
        visible.nth(i).get_attribute("data-key") for i in range(visible.count())
    ) == sorted(wanted)
    page.select_option("#compare-filters select[name=label]", "")
    page.select_option("#compare-filters select[name=engines]", "MyRocks")
    shown = [visible.nth(i).get_attribute("data-key") for i in range(visible.count())]
    assert shown and not any(
        k.startswith("linkbench-hourly-2017/") or "unlabelled" in k for k in shown
    )
    assert not page.problems, page.problems


def test_without_javascript_no_dead_control_shows(browser, server):
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 1280, "height": 900}
    )
    pg = context.new_page()
    pg.goto(f"{server}compare/")
    for selector in (
        "#compare-filters",
        "#compare",
        "#compare-runs input[type=checkbox] >> nth=0",
        "#compare-runs thead th >> nth=0",
    ):
        assert not pg.locator(selector).is_visible(), selector
    assert "Pick" not in pg.inner_text("#compare-runs thead")
    assert pg.locator("#compare-runs a[href$='.linked.csv']").count() >= 1
    context.close()


def test_a_window_ends_where_its_run_ends_and_the_table_fits(page, server):
    """The LinkBench load (a 3,600 s window on a ~118 s run) is marked and computed to its end;
    the statistics table is readable at 1280 and 375 px: it fits its box, or scrolls inside it
    with its first column pinned (tests/kit/table_views.py), and the page never scrolls sideways."""
    key = "linkbench-hourly-2017/load"
    run = run_record(key)
    assert run["window"]["end"] > run["end_s"]
    (s1, r1), _ = pick_across_studies()
    page.goto(f"{server}compare/#compare.runs={s1}/{r1['id']},{key}")
    page.wait_for_selector("#compare[data-state=rendered]", timeout=WAIT)
    assert (
        page.get_attribute(f'#compare-runs tr[data-key="{key}"]', "data-window")
        == f"{run['window']['start']},{run['end_s']}"
    )
    cell = page.locator(f'#compare-stats tr[data-key="{key}"] td').nth(2).inner_text()
    assert cell == f"{run['window']['start']}–{run['end_s']}"
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        view = measure(page)
        assert view["tables"], width
        assert not [found for v in view["tables"] if (found := problems(v))], (width, view)
        assert not view["sideways"], width
    assert not page.problems, page.problems


def test_each_time_series_offers_compare_outside_its_data_table(built_site):
    """The compare link of a chart's runs sits beside its downloads, visible with the data closed."""
    for study in {s for s, _ in runs_with_series()}:
        html = built_site.page(f"posts/{study}/index.html")
        for fig in re.findall(
            r'<figure class="chart" id="[^"]+" data-kind="timeseries".*?</figure>', html, re.S
        ):
            outside = re.sub(r"<details.*?</details>", "", fig, flags=re.S)
            assert re.search(
                r'<a href="[^"]*compare/#compare\.runs=[^"]+" class="compare-link">', outside
            ), study
