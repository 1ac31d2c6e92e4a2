"""What a reader sees in a browser, on any study's pages, at 1280 and 375 px: no console
message (warning or error) on any kind of page, no table whose left edge is out of reach (a
table wider than the text column scrolls inside a box that keeps to the column, its first
column pinned: tests/kit/table_views.py), the same colour for a label's value (an engine, a
server) in every chart of a post, and several studies on the home page's first screen. One
session build (`built_site`), one Chromium; the page checks share one visit per page and width."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.kit.browser_kit import WAIT, serve, watch
from tests.kit.table_views import measure, problems

ROOT = Path(__file__).resolve().parents[2]
WIDTHS = {"desktop": 1280, "phone": 375}


def page_kinds(site: Path) -> list[str]:
    """Every post, and one page of every other kind the site has (home, section, taxonomy
    list, term page, compare, search, 404): term pages differ only in their cards."""
    posts = sorted(f"posts/{p.parent.name}/" for p in site.glob("posts/*/index.html"))
    taxonomy = sorted(p.parent.name for p in site.glob("*/index.xml") if p.parent.name != "posts")
    others = ["", "posts/", "compare/", "search/", "404.html"]
    for name in taxonomy[:1]:
        others.append(f"{name}/")
        term = next(iter(sorted(site.glob(f"{name}/*/index.html"))), None)
        if term is not None:
            others.append(f"{name}/{term.parent.name}/")
    return posts + [p for p in others if (site / (p or "index.html")).exists() or p == ""]


@pytest.fixture(scope="module")
def site_url(built_site):
    server, base = serve(built_site.www)
    yield f"{base}{built_site.base_path}"
    server.shutdown()


def visit(browser, url, width):
    """The page at `width`, every chart drawn; returns (page, console messages and page
    errors). (table_views.measure opens every details and waits for its lazy table.)"""
    messages = []
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = watch(context.new_page(), messages)
    page.on(
        "console",
        lambda m: m.type in ("warning", "warn") and messages.append(f"console {m.type}: {m.text}"),
    )
    page.goto(url)
    for figure in page.query_selector_all("figure.chart[data-kind]"):
        if figure.query_selector(".chart-view.pending, .chart-view svg, .chart-view table"):
            figure.scroll_into_view_if_needed()
            page.wait_for_selector(
                f"figure#{figure.get_attribute('id')}[data-state]", state="attached", timeout=WAIT
            )
    page.evaluate("window.scrollTo(0, 0)")
    return page, messages


def pages_of(site):
    return page_kinds(site)


@pytest.mark.parametrize("width", list(WIDTHS), ids=list(WIDTHS))
def test_no_console_message_every_table_in_reach_one_colour_per_value(
    browser, built_site, site_url, width
):
    """Every page kind at both widths: no console warning or error, and every table readable
    (tests/kit/table_views.py: inside the text column; wider than its box, it scrolls with its first
    column pinned and a fade on the side with more), on a post at 1280 px with no column hidden;
    the page never scrolls sideways. On each
    post (at desktop width, on the same visit), a value its charts colour by has one colour in
    every chart."""
    found = {}
    for path in pages_of(built_site.site):
        page, messages = visit(browser, site_url + path, WIDTHS[width])
        bad = []
        if width == "desktop" and path.startswith("posts/") and path != "posts/":
            bad += colour_conflicts(page.evaluate(COLOURS), display_names(path.split("/")[1]))
        result = measure(page)
        bad += [
            f"#{v['i']} {v['id']}: {'; '.join(problems(v))}"
            for v in result["tables"]
            if problems(v)
        ]
        if width == "desktop" and path.startswith("posts/") and path != "posts/":
            # a desktop screen has room for every column of every table of a post
            bad += [
                f"#{v['i']} {v['id']}: {v['width']} px in a {v['box']} px box, columns hidden"
                for v in result["tables"]
                if not v["hidden"] and not v["fits"]
            ]
        if result["sideways"]:
            bad.append(f"the page scrolls sideways ({result['pageWidth']} px)")
        if messages or bad:
            found[path or "home"] = (messages + bad)[:4]
        page.context.close()
    assert not found, found


def test_the_table_check_sees_a_table_out_of_reach_or_unpinned(browser, site_url):
    """Negative controls: a wide table pulled out of the column (as the full-bleed wrap once
    did), and a scrolling one whose first column is not pinned and whose edge does not fade."""
    page, _ = visit(browser, site_url + "posts/myrocks-cloud-cost/", 1280)
    page.add_style_tag(
        content="main .table-wrap { width: calc(100vw - 2rem) !important; max-width: none !important;"
        " margin-left: calc(50% - 50vw + 1rem) !important }"
    )
    assert any("outside the text column" in " ".join(problems(v)) for v in measure(page)["tables"])
    page.context.close()
    page, _ = visit(browser, site_url + "posts/myrocks-cloud-cost/", 375)
    page.add_style_tag(
        content="table.data tr > :first-child { position: static !important }"
        " .table-wrap { animation: none !important }"
    )
    bad = [problems(v) for v in measure(page)["tables"] if problems(v)]
    page.context.close()
    assert bad and all("first column not pinned (sticky, opaque)" in p for p in bad)
    assert all("no sign that it scrolls" in p for p in bad)


# -- one colour per value -------------------------------------------------------------------
COLOURS = """async () => {
  const out = [];
  for (const f of document.querySelectorAll('figure.chart[data-kind]')) {
    const chart = f.benchlogChart;
    if (!chart) continue;
    if (chart.upgrade) await chart.upgrade(); // a bars or line chart's Vega view (xy.js)
    const spec = JSON.parse(document.getElementById(f.id + '-spec').textContent);
    if (chart.view && (f.dataset.kind === 'bars' || f.dataset.kind === 'line')) {
      let scale = null;
      try { scale = chart.view.scale('color'); } catch (e) { scale = null; }
      if (scale) for (const v of scale.domain()) out.push([f.id, 'value', String(v), String(scale(v)).toLowerCase()]);
    }
    if (spec.runs && chart.color) {
      const drawn = new Set(chart.shown || (chart.run ? [chart.run] : []));
      for (const r of spec.runs) if (drawn.has(r.id)) out.push([f.id, 'run', JSON.stringify(r.labels || {}), String(chart.color(r.id)).toLowerCase()]);
    }
  }
  return out;
}"""


def display_names(study: str) -> dict:
    for root in (ROOT / "data", ROOT / "tests" / "fixtures" / "site" / "data"):
        path = root / study / "study.yaml"
        if path.exists():
            return (yaml.safe_load(path.read_text()) or {}).get("display") or {}
    return {}


def colour_conflicts(drawn: list, display: dict) -> list[str]:
    """Each value a chart colours by has one colour in every chart of the post: a bars or line
    chart's legend value, and a run (time series, metrics) whose label shows that value."""
    colour = {}
    conflicts = []
    for fig, kind, value, c in drawn:
        if kind == "value":
            if colour.setdefault(value, (c, fig))[0] != c:
                conflicts.append(f"{value}: {colour[value][1]} {colour[value][0]}, {fig} {c}")
    for fig, kind, labels, c in drawn:
        if kind != "run":
            continue
        for key, raw in yaml.safe_load(labels).items():
            shown = (display.get(key) or {}).get(str(raw), str(raw))
            if shown in colour and colour[shown][0] != c:
                conflicts.append(
                    f"{shown} ({key}): {colour[shown][1]} {colour[shown][0]}, run in {fig} {c}"
                )
    return conflicts


def test_the_colour_check_catches_an_engine_in_two_colours():
    drawn = [
        ["bars", "value", "InnoDB", "#0072b2"],
        ["bars", "value", "MyRocks", "#d55e00"],
        ["ts", "run", '{"engine": "rocksdb"}', "#0072b2"],
    ]
    assert colour_conflicts(drawn, {"engine": {"rocksdb": "MyRocks"}})
    drawn[2][3] = "#d55e00"
    assert not colour_conflicts(drawn, {"engine": {"rocksdb": "MyRocks"}})


def test_the_home_shows_at_least_three_studies_on_a_desktop_screen(browser, site_url):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(site_url)
    bottoms = page.evaluate(
        "Array.from(document.querySelectorAll('li.card')).map((c) => c.getBoundingClientRect().bottom)"
    )
    context.close()
    assert len([b for b in bottoms if b <= 900]) >= min(3, len(bottoms)), bottoms
