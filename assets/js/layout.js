// Small helpers of the chart code that need no Vega (render.js re-exports them), so the
// bundle without Vega (charts.js) can use them.

/** Plot width for a chart container: its parent's width less room for axes and legend. */
export function plotWidth(el, reserve = 70) {
  return Math.max(160, Math.floor(el.parentElement.clientWidth - reserve));
}

/** Lets the browser run other work (input, layout, paint) before going on. */
export function nextTask() {
  if (window.scheduler && window.scheduler.yield) return window.scheduler.yield();
  return new Promise((resolve) => { window.setTimeout(resolve, 0); });
}

/** Sets the plot width on a unit, layer, concat or facet spec (returns a copy). */
export function withWidth(spec, width) {
  const copy = { ...spec };
  if (copy.facet) copy.spec = { ...copy.spec, width };
  else if (copy.vconcat) copy.vconcat = copy.vconcat.map((s) => ({ ...s, width }));
  else copy.width = width;
  return copy;
}
