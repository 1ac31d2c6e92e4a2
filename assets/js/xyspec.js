// The Vega-Lite spec of the "bars" and "line" kinds (xy.js), built from what the Hugo partial
// chart-parts/xy.html emits: a pure function of the post's params, the columns and the rows
// shown, so the build's SVG (publish/chart_svgs.js) and the live chart draw the same spec.
import { PALETTE } from './theme.js';

/** Go template truth (Hugo's `with`/`if`): null, false, 0 and "" are empty. */
const present = (v) => v !== null && v !== undefined && v !== false && v !== 0 && v !== '';

/** The values of `field` in `rows`, each once, in the rows' order, the empty ones left out. */
const distinct = (rows, field) => Array.from(new Set(rows.map((r) => r[field]).filter(present)));

/** An object with its keys sorted at every depth, as Hugo writes a dict as JSON (Vega-Lite's
 * output depends on the order of a spec's keys, so the build's SVG stays the same). */
function sortedKeys(v) {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortedKeys(v[k])]));
}

/** The x channel: a number axis (linear, or log at the rows' own values), else ordinal or
 * nominal in the post's `order`. */
function xChannel(p, col) {
  const x = { field: p.x, type: p.xType, title: col.label, sort: p.order || null, axis: { labelAngle: 0 } };
  if (p.xType !== 'quantitative') return x;
  // a log scale has no zero (Vega-Lite warns when asked for one)
  x.scale = p.xlog ? { type: 'log', nice: false } : { type: 'linear', zero: false, nice: false };
  if (p.xlog) x.axis.values = p.xValues;
  else if (col.digits === 0) Object.assign(x.axis, { format: 'd', tickMinStep: 1 });
  return x;
}

/** The colour channel (one colour per value across the post, from the template), and the
 * side-by-side offset of grouped bars and dots. */
function colourChannels(p, columns, mark) {
  const c = p.color;
  if (!c) return {};
  const color = { field: c.field, type: 'nominal', sort: null, scale: { domain: c.domain, range: c.range } };
  if (c.byX) return { color: { ...color, legend: { disable: true } } };
  const out = { color: { ...color, title: columns[c.field].label } };
  if (mark === 'bar' || mark === 'point') out.xOffset = { field: c.field, sort: null };
  return out;
}

/** Estimates hollow and dashed: the basis channels, and the outline in the mark's colour. */
function basisParts(p, columns, enc, mark) {
  const field = p.basis;
  const title = columns[field].label;
  const bases = [...distinct(p.rows, field).filter((b) => b !== 'estimate'), 'estimate'];
  const channel = (range) => ({ field, type: 'ordinal', title, sort: bases, scale: { type: 'ordinal', domain: bases, range } });
  const encoding = {
    ...enc,
    fillOpacity: channel(bases.map((b) => (b === 'estimate' ? 0.2 : 1))),
    strokeDash: channel(bases.map((b) => (b === 'estimate' ? [5, 3] : [1, 0]))),
  };
  // outlined in the mark's own colour (the palette's first without a colour channel)
  if (enc.color) encoding.stroke = { ...enc.color, legend: null };
  return { encoding, mark: { ...mark, strokeWidth: 2, ...(enc.color ? {} : { stroke: PALETTE[0] }) } };
}

/** The Vega-Lite spec of a bars or line chart from what chart-parts/xy.html emits: the mark,
 * the post's params, the columns (label, kind, digits), the rows as shown and the colour
 * domain and range (docs/charts.md, "Templates"). */
export function xySpec(p) {
  const columns = Object.fromEntries(p.columns.map((c) => [c.key, c]));
  const tooltip = p.columns.map((c) => ({ field: c.key, title: c.label,
    ...(c.kind === 'number' || c.kind === 'ratio' ? { type: 'quantitative', format: `,.${c.digits || 0}f` } : {}) }));
  const yscale = p.log ? { type: 'log' } : { zero: p.mark !== 'line' && p.mark !== 'point' };
  let enc = { x: xChannel(p, columns[p.x]), y: { field: p.y, type: 'quantitative', title: columns[p.y].label, scale: yscale }, tooltip };
  enc = { ...enc, ...colourChannels(p, columns, p.mark) };
  let mark = { type: p.mark, tooltip: true };
  if (p.basis) ({ encoding: enc, mark } = basisParts(p, columns, enc, mark));
  if (p.mark === 'line') mark.point = true;
  if (p.mark === 'point') Object.assign(mark, { filled: true, size: 70, opacity: 0.9 });
  const unit = { mark, encoding: enc, height: p.facet ? 170 : 260 };
  const spec = { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', data: { values: p.rows } };
  // panels in the rows' order (a facet's null sort is Vega-Lite's ascending)
  const facet = p.facet && { row: { field: p.facet, type: 'nominal', title: columns[p.facet].label, sort: distinct(p.rows, p.facet) } };
  return sortedKeys(facet ? { ...spec, facet, spec: unit } : { ...spec, ...unit });
}
