"""The home, a term page, a feed and the search work from a local static
server as a reader uses them (headless Debian Chromium), under the project page's path and the
site's CSP; and a post prints without the screen-only controls."""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET

import pytest
from playwright.sync_api import expect

from tests.kit.browser_kit import WAIT, frames, serve, until, watch


@pytest.fixture(scope="module")
def server(built_site):
    """The threaded static file server over the web root (the site sits at /benchlog/)."""
    httpd, base = serve(built_site.www)
    yield base + built_site.base_path
    httpd.shutdown()


@pytest.fixture
def page(browser):
    """A page that records console errors, page errors, HTTP errors, failed requests (but not
    the loads its own navigations cancel) and CSP violations: browser_kit.watch."""
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    pg.problems = []
    watch(pg, pg.problems)
    yield pg
    pg.close()


def follow(page, link):
    """Clicks `link` and waits until its target has loaded (not just until the click)."""
    target = link.evaluate("a => a.href")
    link.click()
    page.wait_for_url(target)
    return target


def test_reader_goes_from_home_to_a_term_page_and_its_feed(page, server):
    page.goto(server)
    cards = page.locator("li.card")
    assert cards.count() >= 2
    term = follow(page, page.locator("li.card a[data-pagefind-filter], li.card .terms a").first)
    assert term.startswith(server) and term != server and page.locator("h1").inner_text()
    feed_link = page.get_by_role("link", name="RSS feed of this")
    response = page.request.get(feed_link.evaluate("a => a.href"))
    assert response.ok
    items = list(ET.fromstring(response.body()).iter("item"))
    assert len(items) == page.locator("li.card").count() >= 1
    assert not page.problems, page.problems


def test_reader_searches_from_the_header_form(page, server):
    page.goto(server)
    page.get_by_role("searchbox", name="Search the studies").fill("quokkaesque")
    page.get_by_role("button", name="Search").first.click()
    page.wait_for_url(server + "search/?q=quokkaesque")
    result = page.locator(".pagefind-ui__result-link").first
    expect(result).to_have_text("Fixture study of InnoDB page sizes", timeout=WAIT)
    assert result.get_attribute("href") == "/benchlog/posts/fixture-study/"
    assert follow(page, result) == server + "posts/fixture-study/"
    assert not page.problems, page.problems


def test_search_shows_hostile_labels_as_text(page, server):
    """Pagefind's UI puts filter names and excerpts into the page as HTML: the hostile labels
    must arrive there as text, with no element or handler made of them (and no CSP report)."""
    page.goto(server + "search/?q=onerror")
    page.locator(".pagefind-ui__result-link").first.wait_for()
    expect(page.locator("#search .pagefind-ui__loading")).to_have_count(
        0, timeout=WAIT
    )  # all shown
    panel = page.locator(".pagefind-ui__filter-panel")
    expect(panel).to_contain_text("img src=x onerror=alert(1)", timeout=WAIT)
    made = page.evaluate("""() => [...document.querySelectorAll('#search *')]
        .filter(e => e.tagName === 'IMG' || e.tagName === 'SCRIPT'
                     || [...e.attributes].some(a => a.name.startsWith('on')))
        .map(e => e.outerHTML)""")
    assert made == []
    assert not page.problems, page.problems


def test_search_lists_every_filter_group_though_filter_chunks_come_late(page, server, built_site):
    """Pagefind's UI shows the filter groups of its first search's result, and that result has
    only the groups whose chunks had loaded: with one chunk in time and the others late, a ?q=
    link showed one group. search.js loads every filter chunk before it runs the query."""
    groups = {
        name.split(":", 1)[0]
        for html in built_site.site.rglob("*.html")
        for name in re.findall(r'data-pagefind-filter="([^"]+)"', html.read_text("utf-8"))
    }
    first = []

    def late_but_the_first(route):
        if first:  # a slow link, not a wait for an event: each later chunk's answer is held
            time.sleep(0.4)
        first.append(route.request.url)
        route.continue_()

    page.route("**/pagefind/filter/*.pf_filter", late_but_the_first)
    page.goto(server + "search/?q=onerror")
    page.locator(".pagefind-ui__result-link").first.wait_for()
    expect(page.locator("#search .pagefind-ui__loading")).to_have_count(0, timeout=WAIT)
    legends = page.locator(".pagefind-ui__filter-panel .pagefind-ui__filter-name")
    expect(legends).to_have_count(len(groups), timeout=WAIT)
    assert len(first) == len(groups) > 1  # every chunk was asked for, all but one late
    assert not page.problems, page.problems


def test_hostile_study_charts_draw_labels_as_text(page, server):
    """The real chart bundle draws the hostile study's charts: labels end up as SVG/HTML text,
    never as elements, handlers or navigations."""
    page.goto(server + "posts/hostile-study/")
    for chart in ("hostile-bars", "hostile-series"):
        page.locator(
            f"figure#{chart}"
        ).scroll_into_view_if_needed()  # charts draw near the viewport
        page.wait_for_selector(f"figure#{chart}[data-state]", state="attached")
        assert page.get_attribute(f"figure#{chart}", "data-state") == "rendered"
    made = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => (e.tagName === 'IMG' && !e.closest('figure')) || e.tagName === 'IFRAME'
                     || [...e.attributes].some(a => a.name.startsWith('on')
                        || (['href', 'src', 'xlink:href', 'action', 'formaction'].includes(a.name)
                            && /^\\s*javascript:/i.test(a.value))))
        .map(e => e.outerHTML.slice(0, 200))""")
    assert made == []
    assert '"><img src=x onerror=alert(1)>' in page.locator("figure#hostile-bars").text_content()
    assert not page.problems, page.problems


def test_a_post_prints_without_screen_controls(page, server):
    page.goto(server + "posts/hostile-study/")
    page.wait_for_selector("figure#hostile-bars[data-state]", state="attached")
    page.emulate_media(media="print")
    assert page.locator(".site-nav").is_hidden()
    assert page.locator(".related").is_hidden()
    assert page.locator("article h1").is_visible()
    header = page.locator("figure#avg-tps th").first
    assert header.is_visible() and header.inner_text().strip()  # sortable headers keep their text
    width = page.evaluate("document.querySelector('article').getBoundingClientRect().width")
    # read in one go: a bars chart may swap its build-time SVG for its Vega view in idle time
    drawn = page.evaluate("""() => Array.from(document.querySelectorAll('figure.chart svg, figure.chart canvas'))
      .map((e) => e.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.height > 0).map((r) => r.width)""")
    assert drawn and all(w <= width + 1 for w in drawn)  # charts fit the paper
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 1000


def test_tables_become_sortable_as_they_near_the_viewport_without_a_shift(page, server):
    """A table is made sortable after the first paint, when it comes within a screen of the
    viewport (or takes the focus): those of the first two screens without any interaction, a
    far one only once scrolled to (a table in a closed details has no box until opened), and
    the page records no layout shift meanwhile (the sort mark is the header's own from the
    start and the button inline text)."""
    page.add_init_script("""window.__cls = 0; new PerformanceObserver((l) => { for (const e of l.getEntries())
      window.__cls += e.value; }).observe({ type: 'layout-shift', buffered: true });""")
    page.goto(server + "posts/sysbench-regressions/")
    until(page, "document.querySelector('table.sortable th button') !== null")
    frames(page)
    tables = page.evaluate("""() => [...document.querySelectorAll('table.sortable')].filter(t => t.checkVisibility())
      .map(t => ({ top: t.getBoundingClientRect().top + scrollY, sortable: !!t.querySelector('th button') }))""")
    near = [t for t in tables if t["top"] < 2 * 900]
    far = [t for t in tables if t["top"] > 4 * 900]
    assert near and far, tables
    assert all(t["sortable"] for t in near) and not any(t["sortable"] for t in far), tables
    last = page.locator("table.sortable:visible").last
    last.scroll_into_view_if_needed()
    until(page, "el => el.querySelector('th button') !== null", last.element_handle())
    assert page.evaluate("window.__cls") == 0
    assert not page.problems, page.problems
