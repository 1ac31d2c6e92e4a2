"""Every table of a post as a reader sees it at one viewport width (issue 9 §6), shared by
tests/test_table_views.py and bench/table_views.py.

`measure(page)` opens every `details`, waits until the tables rendered on opening are there, and
returns one record per `table` of the article: its figure id, whether it fits its box, whether
that box scrolls sideways, whether the first column is pinned with an opaque background, and
whether the scrolling edge shows that there is more (the fade); plus whether the page itself
scrolls sideways. `problems(view, width)` names what makes a table view unreadable:
at desktop width (> 700 px) a table must fit; at phone width a table wider than its box must
scroll inside it, first column pinned and opaque, with the fade on the side there is more.
"""

from __future__ import annotations

MEASURE = """async () => {
  for (const d of document.querySelectorAll('article details')) d.open = true;
  // tables rendered when their details opens (data-pending until they are)
  const deadline = performance.now() + 30000;
  const waiting = () => document.querySelector('article [data-pending], article [data-lazy-src]');
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
  const out = [];
  for (const [i, t] of Array.from(document.querySelectorAll('article table')).entries()) {
    if (!t.getClientRects().length) { out.push({ i, id: '', hidden: true }); continue; }
    const fig = t.closest('figure[id]');
    const box = scroller(t);
    const r = t.getBoundingClientRect();
    const holder = box || t.parentElement;
    const over = holder.scrollWidth > holder.clientWidth + 1;
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
      box: Math.round(holder.clientWidth), fits: !over && inView, scrolls: !!box && over,
      pinned, fade, fadeAtEnd });
  }
  const sideways = document.scrollingElement.scrollWidth > window.innerWidth;
  return { tables: out, sideways, pageWidth: document.scrollingElement.scrollWidth };
}"""


def measure(page) -> dict:
    """{"tables": [record per table], "sideways": whether the page scrolls sideways}."""
    return page.evaluate(MEASURE)


def problems(view: dict, width: int) -> list[str]:
    """What keeps one table view from being readable at viewport `width` (empty: readable)."""
    if view["hidden"] or view["fits"]:
        return []
    if width > 700:
        return [f"cut off: {view['width']} px in a {view['box']} px box"]
    found = []
    if not view["scrolls"]:
        found.append(f"{view['width']} px in a {view['box']} px box that does not scroll")
    if not view["pinned"]:
        found.append("first column not pinned (sticky, opaque)")
    if not view["fade"]:
        found.append("no sign that it scrolls")
    if view["fadeAtEnd"]:
        found.append("still fades when scrolled to the end")
    return found
