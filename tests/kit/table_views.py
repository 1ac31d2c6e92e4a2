"""Every table of a post as a reader sees it at one viewport width, shared by
tests/test_table_views.py and bench/table_views.py.

`measure(page)` opens every `details`, waits until the tables rendered on opening are there, and
returns one record per `table` of the page's main column: its figure id, whether it fits its
box, whether that box keeps to the text column (its left edge is the column's, never
further left, where a reader could not reach it), whether the box scrolls sideways, whether the
first column is pinned with an opaque background, and whether the scrolling edge shows that there
is more (the fade); plus whether the page itself scrolls sideways. A table of a figure marked
`data-wide` (several tables side by side: the plan view) keeps to the viewport instead of the
column, and so does a table shortcode's (`figure.table`) on a screen of 56rem or more, where a
table wider than the column takes the room beside it (main.css): its left edge stays in the
viewport, in reach. `problems(view)` names what
makes a table view unreadable, at any width: a box outside the text column; a table wider than
its box that does not scroll inside it, first column pinned and opaque, with the fade on the side
there is more.
"""

from __future__ import annotations

MEASURE = """async () => {
  for (const d of document.querySelectorAll('main details')) d.open = true;
  // tables rendered when their details opens (data-pending until they are)
  const deadline = performance.now() + 30000;
  const waiting = () => document.querySelector('main [data-pending], main [data-lazy-src]');
  while (waiting() && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const opaque = (c) => { const m = /rgba?\\(([^)]+)\\)/.exec(c); if (!m) return false;
    const p = m[1].split(',').map(Number); return p.length < 4 || p[3] === 1; };
  const scroller = (t) => {
    for (let e = t.parentElement; e && e !== document.body; e = e.parentElement) {
      const ox = getComputedStyle(e).overflowX;
      if (ox === 'auto' || ox === 'scroll') return e;
    }
    return null;
  };
  // the text column: main's content box
  const main = document.querySelector('main'), ms = getComputedStyle(main), mr = main.getBoundingClientRect();
  const column = [mr.left + parseFloat(ms.paddingLeft), mr.right - parseFloat(ms.paddingRight)];
  const out = [];
  for (const [i, t] of Array.from(document.querySelectorAll('main table')).entries()) {
    if (!t.getClientRects().length) { out.push({ i, id: '', hidden: true }); continue; }
    const fig = t.closest('figure[id]');
    const box = scroller(t);
    const r = t.getBoundingClientRect();
    const holder = box || t.parentElement;
    const over = holder.scrollWidth > holder.clientWidth + 1;
    const hr = holder.getBoundingClientRect();
    // a figure of several tables side by side (data-wide: the plan view) may use the page's
    // width beside the column, never beyond the viewport
    const wide = !!t.closest('figure[data-wide]')
      || (!!t.closest('figure.table') && window.innerWidth >= 56 * parseFloat(getComputedStyle(document.documentElement).fontSize));
    const inColumn = wide ? hr.left >= -1 && hr.right <= window.innerWidth + 1
      : hr.left >= column[0] - 1 && hr.right <= column[1] + 1;
    const inView = r.left >= -1 && r.right <= window.innerWidth + 1;
    const firstCells = Array.from(t.rows).map((row) => row.cells[0]).filter(Boolean);
    const pinned = firstCells.length > 0 && firstCells.every((c) => {
      const s = getComputedStyle(c); return s.position === 'sticky' && opaque(s.backgroundColor); });
    let fade = false, fadeAtEnd = true;
    if (box && over) {
      const left = box.scrollLeft;
      box.scrollLeft = 0;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      fade = getComputedStyle(box).maskImage.includes('gradient') && parseFloat(getComputedStyle(box).getPropertyValue('--more-end')) > 0;
      box.scrollLeft = box.scrollWidth;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      fadeAtEnd = parseFloat(getComputedStyle(box).getPropertyValue('--more-end')) > 0;
      box.scrollLeft = left;
    }
    out.push({ i, id: fig ? fig.id : '', hidden: false, width: Math.round(r.width),
      box: Math.round(holder.clientWidth), boxLeft: Math.round(hr.left), boxRight: Math.round(hr.right),
      column: wide ? [0, window.innerWidth] : column.map(Math.round), inColumn, wide, fits: !over && inView, scrolls: !!box && over,
      pinned, fade, fadeAtEnd });
  }
  const sideways = document.scrollingElement.scrollWidth > window.innerWidth;
  return { tables: out, sideways, pageWidth: document.scrollingElement.scrollWidth };
}"""


def measure(page) -> dict:
    """{"tables": [record per table], "sideways": whether the page scrolls sideways}."""
    return page.evaluate(MEASURE)


def problems(view: dict) -> list[str]:
    """What keeps one table view from being readable (empty: readable), at any width."""
    if view["hidden"]:
        return []
    found = []
    if not view["inColumn"]:
        found.append(
            f"box at {view['boxLeft']}..{view['boxRight']} px, outside the text column "
            f"{view['column'][0]}..{view['column'][1]} px"
        )
    if view["fits"]:
        return found
    if not view["scrolls"]:
        found.append(f"{view['width']} px in a {view['box']} px box that does not scroll")
    if not view["pinned"]:
        found.append("first column not pinned (sticky, opaque)")
    if not view["fade"]:
        found.append("no sign that it scrolls")
    if view["fadeAtEnd"]:
        found.append("still fades when scrolled to the end")
    return found
