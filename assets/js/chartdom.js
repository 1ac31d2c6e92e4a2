// Small DOM and plot helpers shared by the interactive charts (timeseries.js, metrics.js,
// compare.js): element building, number formats, the `a-b` ranges of the URL state, and where a
// Vega view's plot lies on the page (for the hover rule and the time under the pointer).

/** A new element: `attrs` are attributes, except `class` (className) and `text` (textContent). */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v; else if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

/** [a, b] from a URL-state range `a-b` (a < b), or null. */
export const range = (s) => {
  const m = /^(-?[\d.]+)-(-?[\d.]+)$/.exec(s || '');
  return m && Number(m[1]) < Number(m[2]) ? [Number(m[1]), Number(m[2])] : null;
};

const missingValue = (v) => v === null || v === undefined || !Number.isFinite(v);

/** The digits of finite `x` >= 0 rounded to `d` decimals, as [integer part, decimals]: the
 * shortest decimal that reads back as `x` (String(x)), rounded half away from zero, which is
 * what Intl.NumberFormat rounds (toFixed rounds the binary value: 1.005 -> "1.00", not "1.01"). */
function roundedDigits(x, d) {
  const [mantissa, exp = '0'] = String(x).split('e');
  const dot = mantissa.indexOf('.');
  const digits = mantissa.replace('.', '');
  const keep = (dot < 0 ? mantissa.length : dot) + Number(exp) + d; // digits left of 10^-d's place
  let kept = keep > 0 ? BigInt(digits.slice(0, keep).padEnd(keep, '0')) : 0n;
  if (keep >= 0 && digits[keep] >= '5') kept += 1n;
  const s = kept.toString().padStart(d + 1, '0');
  return [s.slice(0, s.length - d), s.slice(s.length - d)];
}

/** `v` as Intl.NumberFormat('en-US', {minimumFractionDigits: d, maximumFractionDigits: d})
 * writes it, without Intl: a page's first Intl formatter loads the locale data (44-291 ms in
 * a fresh Chromium page on a loaded machine), which held up the first chart's statistics. */
function grouped(v, d) {
  if (!Number.isFinite(v)) return intlDecimals(d).format(v);
  const [whole, frac] = roundedDigits(Math.abs(v), d);
  const sign = v < 0 || Object.is(v, -0) ? '-' : '';
  return `${sign}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${d ? `.${frac}` : ''}`;
}

const INTL = new Map();
function intlDecimals(d) {
  if (!INTL.has(d)) INTL.set(d, new Intl.NumberFormat('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }));
  return INTL.get(d);
}

/** The en-US format with exactly `d` decimals and thousands separators (an object with
 * `format(v)`, as an Intl.NumberFormat; toLocaleString with options built a formatter per call). */
const DECIMALS = new Map();
export function decimals(d) {
  if (!DECIMALS.has(d)) DECIMALS.set(d, { format: (v) => grouped(v, d) });
  return DECIMALS.get(d);
}

/** `v` with exactly `d` decimals and thousands separators; `missing` when there is no value. */
export const fixed = (v, d = 1, missing = 'n/a') => (missingValue(v) ? missing : decimals(d).format(v));

/** `v` to four significant digits (from 1000 up, or 0: grouped, at most one decimal). */
export const significant = (v) => (missingValue(v) ? 'n/a'
  : Math.abs(v) >= 1000 || v === 0 ? v.toLocaleString('en-US', { maximumFractionDigits: 1 })
    : Number(v.toPrecision(4)).toLocaleString('en-US', { maximumSignificantDigits: 4 }));

/** Where the first plot of a Vega `view` starts in its drawing (px): padding plus origin. */
export function plotOrigin(view) {
  const pad = view.padding(), [ox, oy] = view.origin();
  return [pad.left + ox, pad.top + oy];
}

/** The drawing (canvas or SVG) of the Vega view held in `host`, or null before it is drawn. */
const drawingOf = (view, host) => (view ? host.querySelector('canvas, svg') : null);

/** The time under the pointer event `e` from the first plot's x scale (`concat_0_x`), or null
 * when the pointer is off the plot or below its first `height` px. */
export function timeAt(view, host, e, height) {
  const drawing = drawingOf(view, host);
  if (!drawing) return null;
  const box = drawing.getBoundingClientRect();
  const [ox, oy] = plotOrigin(view);
  const x = e.clientX - box.left - ox, y = e.clientY - box.top - oy;
  const scale = view.scale('concat_0_x');
  const [r0, r1] = scale.range();
  if (x < r0 || x > r1 || y < 0 || y > height) return null;
  return scale.invert(x);
}

/** Places the hover `rule` (absolutely positioned in its parent) at time `x`, `height` px tall
 * from the top of the first plot. */
export function placeRule(rule, view, host, x, height) {
  const box = drawingOf(view, host).getBoundingClientRect();
  const parent = rule.parentElement.getBoundingClientRect();
  const [ox, oy] = plotOrigin(view);
  Object.assign(rule.style, { left: `${box.left - parent.left + ox + view.scale('concat_0_x')(x)}px`,
    top: `${box.top - parent.top + oy}px`, height: `${height}px` });
  rule.hidden = false;
}

/** The room where a kind whose controls, chart and statistics fill the figure's view
 * (timeseries, metrics) builds its live view: hidden over the build-time SVG (or the pending
 * placeholder), taking no room, until `showLive` swaps it in. */
export function liveRoom(host) {
  const room = el('div', { class: 'chart-live handover' });
  host.append(room);
  return room;
}

/** Replaces the view's build-time SVG with the live view built in `room`, in one step, once
 * the live chart, its legend and statistics are drawn: a reader never sees the parts move while
 * they are put together (a time series' readout and run list moved down as its legend filled
 * and its chart was drawn beside the SVG, when the chart came into view while drawing). */
export function showLive(host, room) {
  if (room.parentElement !== host) return; // shown already
  host.replaceChildren(...room.childNodes);
  host.classList.remove('pending');
}
