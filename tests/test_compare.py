"""Issue 13 §4: the compare page. Every run of every study is listed (from data/*/runs.yaml),
each run with a series links its CSV without JavaScript; with JavaScript a selection in the URL
restores the overlay and its statistics, whose values are computed here from the run files."""
from __future__ import annotations

import json
import re

import pytest
import yaml

from browser_kit import WAIT, serve, watch
from golden import ROOT

DATA = ROOT / "data"


def runs_with_series():
    out = []
    for runs_file in sorted(DATA.glob("*/runs.yaml")):
        study = runs_file.parent.name
        for run in yaml.safe_load(runs_file.read_text())["runs"] or []:
            if run.get("intervals"):
                out.append((study, run))
    return out


def window_mean(study, run):
    doc = json.loads((DATA / study / "series" / f"{run['id']}.json").read_text())
    a, b = run["window"]["start"], run["window"]["end"]
    pairs = [(t, v, t - prev) for prev, t, v in zip([0, *doc["t"]], doc["t"], doc[run["metric"]])
             if a < t <= b and v is not None]
    if doc.get("mean") == "time-weighted":   # uneven intervals (docs/data-schema.md): operations / elapsed
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
    """One run from each of two studies (the first with series in each)."""
    seen = {}
    for study, run in runs_with_series():
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
    ratio = float(rows.nth(0).locator("td").last.get_attribute("data-ratio"))
    assert ratio == pytest.approx(means[0] / means[1], rel=1e-9)
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
    page.wait_for_function("location.hash.includes('compare.runs=')", timeout=WAIT)
    hash_ = page.evaluate("decodeURIComponent(location.hash)")
    assert f"compare.runs={s1}/{r1['id']},{s2}/{r2['id']}" in hash_
    # a picked run stays listed whatever the filter
    assert page.locator(f'#compare-runs tr[data-key="{s1}/{r1["id"]}"]').is_visible()
    page.fill("#compare-filters input[name=q]", "no-such-run-anywhere")
    assert page.locator("#compare-runs tbody tr:not([hidden])").count() == 2
    assert not page.problems, page.problems


def test_zoom_draws_full_resolution_in_range(page, server):
    (s1, r1), (s2, r2) = pick_across_studies()
    page.goto(f"{server}compare/#compare.runs={s1}/{r1['id']},{s2}/{r2['id']}")
    page.wait_for_selector("#compare[data-state=rendered]", timeout=WAIT)
    box = page.locator("#compare-view canvas").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(8):
        page.mouse.wheel(0, -400)
    page.wait_for_function("document.querySelector('#compare').dataset.zoomed === '1'", timeout=WAIT)
    assert not page.problems, page.problems


def test_each_posts_run_list_offers_compare(built_site):
    """Every run drawn in a post's time series links the compare page with that run picked."""
    for study, run in runs_with_series():
        html = built_site.page(f"posts/{study}/index.html")
        assert f'href="{built_site.base_path}compare/#compare.runs={study}/{run["id"]}"' in html, (study, run["id"])
