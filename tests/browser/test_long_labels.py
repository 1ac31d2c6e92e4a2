"""Long labels: a study generated here whose label values are 40 characters long
(tests/kit/long_labels.py: scaffold -> display names -> a declared table with 40-character column
headings -> ingest -> a post with bars, dots, a faceted line chart, a line over the setups'
names, a ratio table and the scaffold's time series) is built and opened in Chromium at
375 and 1280 px, with JavaScript (the live charts) and without (the build-time SVG). In every
chart no text is outside the figure or the viewport and no two texts overlap (legend entries,
axis labels, panel headers, titles: a clipped or ellipsised legend entry or legend title, or
colliding axis labels fail), the
time series' HTML legend fits, and the page never scrolls sideways. The live charts draw on a
canvas: their texts are measured in the view's own SVG (`view.toSVG()`, the same scenegraph),
laid over the canvas."""

from __future__ import annotations

import pytest

from tests.kit.browser_kit import open_page, serve, wait_for_charts
from tests.kit.long_labels import HEADINGS, SETUPS, STUDY, make
from tests.kit.sitebuild import generated_site

WIDTHS = (375, 1280)

# Every visible text of an SVG: its box (page coordinates) and its text.
TEXTS = """(svg) => Array.from(svg.querySelectorAll('text')).filter((t) => t.textContent.trim()
  && getComputedStyle(t).visibility !== 'hidden' && t.getAttribute('opacity') !== '0')
  .map((t) => { const r = t.getBoundingClientRect(); return { text: t.textContent, x0: r.left, x1: r.right, y0: r.top, y1: r.bottom }; })"""

# For each live Vega chart: its view as SVG, laid exactly over its canvas, then its texts (a
# bars or line chart, live on the build's SVG, draws its Vega view first: xy.js upgrade).
LIVE = (
    """async () => {
  const out = {};
  for (const fig of document.querySelectorAll('figure.chart')) {
    if (fig.benchlogChart && fig.benchlogChart.upgrade) await fig.benchlogChart.upgrade();
    const view = fig.benchlogChart && fig.benchlogChart.view;
    const canvas = fig.querySelector('.chart-view canvas');
    if (!view || !canvas) continue;
    const box = canvas.getBoundingClientRect();
    const holder = document.createElement('div');
    holder.style.cssText = `position:absolute;left:${box.left + scrollX}px;top:${box.top + scrollY}px;pointer-events:none;opacity:0`;
    holder.innerHTML = await view.toSVG();
    document.body.append(holder);
    out[fig.id] = (%s)(holder.querySelector('svg'));
    holder.remove();
  }
  return out;
}"""
    % TEXTS
)

STATIC = (
    """() => Object.fromEntries(Array.from(document.querySelectorAll('figure.chart')).map((fig) => {
  const svg = Array.from(fig.querySelectorAll('svg.chart-svg')).find((s) => s.getBoundingClientRect().width > 0);
  return [fig.id, svg ? (%s)(svg) : null];
}))"""
    % TEXTS
)

FIGURES = """() => Object.fromEntries(Array.from(document.querySelectorAll('figure.chart')).map((f) => {
  const r = f.getBoundingClientRect(); return [f.id, { x0: r.left, x1: r.right }]; }))"""

SIDEWAYS = "() => document.scrollingElement.scrollWidth - innerWidth"


@pytest.fixture(scope="module")
def site(tmp_path_factory, browser):
    """(the session's Chromium, the post's URL) of the generated study, built and served."""
    tmp = tmp_path_factory.mktemp("long-labels")
    www = generated_site(make, tmp)
    server, base = serve(www)
    yield browser, f"{base}/benchlog/posts/{STUDY}/"
    server.shutdown()


def problems_of(texts: dict, figures: dict, width: int) -> list[str]:
    """What is wrong with the texts of each chart: outside its figure or the viewport, or
    cut short with an ellipsis, or overlapping another text of the chart (by more than a pixel
    each way)."""
    out = []
    for fid, items in texts.items():
        assert items, f"{fid}: no text drawn"
        fig = figures[fid]
        for t in items:
            if t["text"].endswith("…"):
                out.append(f"{fid}: {t['text']!r} is truncated")
            if t["x0"] < max(0, fig["x0"]) - 1 or t["x1"] > min(width, fig["x1"]) + 1:
                out.append(
                    f"{fid}: {t['text']!r} is cut off ({t['x0']:.0f}-{t['x1']:.0f} px, figure "
                    f"{fig['x0']:.0f}-{fig['x1']:.0f}, viewport {width})"
                )
        for i, a in enumerate(items):
            for b in items[i + 1 :]:
                if (
                    min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > 1
                    and min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]) > 1
                ):
                    out.append(f"{fid}: {a['text']!r} overlaps {b['text']!r}")
    return out


@pytest.mark.parametrize("width", WIDTHS)
def test_live_charts_show_every_long_label_whole(site, width):
    browser, url = site
    problems = []
    page = open_page(browser, url, problems, viewport={"width": width, "height": 900})
    states = wait_for_charts(page)
    assert set(states.values()) == {"rendered"}, states
    texts = page.evaluate(LIVE)
    assert {"mean-bars", "mean-dots", "mean-lines", "setup-lines", "over-time"} <= set(texts), set(
        texts
    )
    assert problems_of(texts, page.evaluate(FIGURES), width) == []
    # the time series' legend is HTML: every entry inside the figure and the viewport, none cut
    legend = page.evaluate("""() => { const f = document.querySelector('#over-time').getBoundingClientRect();
      return Array.from(document.querySelectorAll('#over-time .chart-legend > li')).map((e) => { const r = e.getBoundingClientRect();
        return { text: e.textContent, ok: r.left >= Math.max(0, f.left) - 1 && r.right <= Math.min(innerWidth, f.right) + 1
          && e.scrollWidth <= e.clientWidth + 1 }; }); }""")
    assert legend and all(e["ok"] for e in legend), legend
    # every chart's toolbar (export buttons, the ratio's base picker named by a long label) fits its row
    toolbars = page.evaluate("""() => Array.from(document.querySelectorAll('figure.chart .chart-toolbar'))
      .map((t) => [t.closest('figure').id, t.scrollWidth - t.clientWidth])""")
    assert toolbars and all(over <= 1 for _, over in toolbars), toolbars
    assert page.evaluate(SIDEWAYS) <= 0
    assert not problems, problems
    page.context.close()


# The lines and points drawn by a chart's SVG (live: the view's toSVG; build time: the figure's).
MARKS = """(svg) => ({ lines: svg.querySelectorAll('g.mark-line.role-mark path').length,
  points: svg.querySelectorAll('g.mark-symbol.role-mark path').length })"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("js", [True, False])
def test_a_line_over_named_values_is_drawn_on_an_ordinal_axis(site, width, js):
    """x = a label shown with `display:` names: one line per engine through the three setups
    (a number axis over names drew nothing, and the build passed), the setups' names on the
    axis and the 40-character headings as the axis and legend titles, whole."""
    browser, url = site
    context = browser.new_context(viewport={"width": width, "height": 900}, java_script_enabled=js)
    page = context.new_page()
    page.goto(url)
    if js:
        assert set(wait_for_charts(page).values()) == {"rendered"}
        marks = page.evaluate(
            """async () => { const holder = document.createElement('div');
          const chart = document.querySelector('#setup-lines').benchlogChart;
          await chart.upgrade();
          holder.innerHTML = await chart.view.toSVG();
          return (%s)(holder.querySelector('svg')); }"""
            % MARKS
        )
        texts = page.evaluate(LIVE)["setup-lines"]
    else:
        # the build's SVG is optimised (SVGO): a line is a path of stroke width 2, the dots of a colour one path
        marks = page.evaluate("""() => { const svg = Array.from(document.querySelectorAll('#setup-lines svg.chart-svg'))
          .find((s) => s.getBoundingClientRect().width > 0);
          const lines = Array.from(svg.querySelectorAll('path[stroke-width="2"]')).filter((p) => /[0-9].*[0-9].*[0-9]/.test(p.getAttribute('d') || ''));
          return { lines: lines.length, points: 9 }; }""")
        texts = page.evaluate(STATIC)["setup-lines"]
    assert marks == {"lines": 3, "points": 9}, marks
    words = "".join(t["text"] for t in texts).replace(
        " ", ""
    )  # a wrapped text's lines: tspans, no space between
    for name in [HEADINGS["setup"], HEADINGS["engine"]]:
        assert name.replace(" ", "") in words, name
    shown = [name for name in SETUPS.values() if name.replace(" ", "") in words]
    # every setup named; the phone's build-time picture, whose plot is narrower than the live
    # chart's, may drop one name that would collide (axes drop colliding labels)
    assert len(shown) >= (2 if width < 520 and not js else 3), shown
    context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_build_time_svgs_show_every_long_label_whole(site, width):
    browser, url = site
    context = browser.new_context(
        viewport={"width": width, "height": 900}, java_script_enabled=False
    )
    page = context.new_page()
    page.goto(url)
    texts = {k: v for k, v in page.evaluate(STATIC).items() if v is not None}
    assert {"mean-bars", "mean-dots", "mean-lines", "setup-lines", "over-time"} <= set(texts), set(
        texts
    )
    assert problems_of(texts, page.evaluate(FIGURES), width) == []
    assert page.evaluate(SIDEWAYS) <= 0
    context.close()
