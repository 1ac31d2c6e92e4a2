"""Whether a page's live charts take over from the build's drawings without moving anything:
tests/browser/test_charts_static.py on every post, tests/ingest/scaffold/test_unseen.py on the unseen studies' posts."""

from __future__ import annotations

import re

from tests.kit.browser_kit import frames, open_page, wait_for_charts

BUNDLE = re.compile(r"/js/charts\.[0-9a-f]+\.js$|/js/charts\.js$")
CLS = """window.__cls = 0; window.__shifts = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) { window.__cls += e.value;
  window.__shifts.push(e.sources.map(s => s.node && (s.node.id || s.node.className || s.node.nodeName)).join(' ')); } })
  .observe({ type: 'layout-shift', buffered: true });"""


BOXES = """Object.fromEntries(Array.from(document.querySelectorAll('figure.chart'))
    .map(f => [f.id, [f.dataset.kind, Math.round(f.getBoundingClientRect().height * 10) / 10]]))"""

TABLES = """Object.fromEntries([...document.querySelectorAll('table.sortable')]
    .filter((t) => t.checkVisibility()).map((t, i) => { const r = t.getBoundingClientRect();
      return [t.id || `#${i}`, [Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10,
        !!t.querySelector('th button')]]; }))"""

HELD_WITH_JS = {"timeseries", "metrics"}


def check_takeover(browser, url: str, width: int) -> tuple[list[str], int]:
    """(what moved at `url` when its live charts took over, the tables made sortable meanwhile).
    Each figure's box before the bundle takes over (JavaScript on, the bundle held back: the
    build's SVG in the room its kind holds) and after (every chart live, in the same page) is
    the same height within 0.5 px, and the same without JavaScript for the kinds that hold no
    room for live controls; a table made sortable as the page scrolled near keeps its box; the
    page records no layout shift."""
    grew, made_sortable = [], 0
    context = browser.new_context(
        viewport={"width": width, "height": 800}, java_script_enabled=False
    )
    static = context.new_page()
    static.goto(url)
    no_js = static.evaluate(BOXES)
    context.close()
    held, released = [], False

    def hold(route):
        if released:
            route.continue_()
        else:
            held.append(route)

    problems = []
    page = open_page(browser, "about:blank", problems, viewport={"width": width, "height": 800})
    page.context.route(BUNDLE, hold)
    page.add_init_script(CLS)
    # not "load": a bundle request made early (a chart near the first screen) holds it back
    page.goto(url, wait_until="domcontentloaded")
    frames(page)
    assert page.locator("figure.chart[data-state]").count() == 0, "precondition: no chart live"
    before, plain = page.evaluate(BOXES), page.evaluate(TABLES)
    released = True
    for route in held:
        route.continue_()
    states = wait_for_charts(page)
    assert set(states.values()) == {"rendered"}, states
    after, tables = page.evaluate(BOXES), page.evaluate(TABLES)
    assert set(after) == set(before) == set(no_js), url
    for tid, (w, h, sortable) in plain.items():
        if not sortable and tables[tid][2]:
            made_sortable += 1
            if tables[tid][:2] != [w, h]:
                grew.append(f"{url}#{tid} (table made sortable) {[w, h]} -> {tables[tid][:2]}")
    for fid, (kind, height) in after.items():
        if abs(height - before[fid][1]) > 0.5:
            grew.append(f"{url}#{fid} ({kind}) {before[fid][1]} -> {height} px")
        if kind not in HELD_WITH_JS and abs(height - no_js[fid][1]) > 0.5:
            grew.append(f"{url}#{fid} ({kind}) without JavaScript {no_js[fid][1]} -> {height} px")
    if page.evaluate("window.__cls"):
        grew.append(f"{url}: layout shift {page.evaluate('window.__shifts')} at {width} px")
    assert not problems, problems
    page.context.close()
    return grew, made_sortable
