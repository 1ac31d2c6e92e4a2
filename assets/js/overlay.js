// The compare page's overlay plot (docs/charts.md, "Compare page"): many runs' series on one
// time axis, drawn on a <canvas> of its own so that zooming, panning and hovering stay smooth
// with 30 runs (~100,000 points). Each redraw walks the visible range of the full-resolution
// data (typed arrays) once and keeps per pixel column the first, lowest, highest and last point
// (M4, by series.js `extremes`, the charts' downsampler too), so the drawn line is the line of
// every point at that width, and zooming in reaches
// every interval. Axes are d3-axis SVG over the canvas; d3-zoom turns wheel, drag, pinch and
// keys into the visible x range. A missing value, or a step of more than four typical
// intervals, breaks a line.
import { scaleLinear, scaleLog, select, zoom, zoomIdentity, axisBottom, axisLeft } from 'd3';
import { el } from './chartdom.js';
import { lowerBound, nearestIndex, gapOf, extremes } from './series.js';
import { PALETTE, cssVar } from './theme.js';

const SVG = 'http://www.w3.org/2000/svg';
const DASHES = [[], [6, 3], [2, 2], [8, 3, 2, 3]];
const HINT = 'Hover the chart (or focus it and use the arrow keys) to read every run at one time: the values show beside the run names.';
const MIN_INTERVALS = 10;
// one formatter for every reading (toLocaleString with options builds one per call: slow)
const ONE_DECIMAL = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }); // the shortest visible range, in the runs' smallest typical interval
const FORMATS = new Map([1, 2, 3].map((d) => [d, new Intl.NumberFormat('en-US', { maximumFractionDigits: d })]));

/** A run as the plot keeps it: t, v (NaN where missing) as Float64Array, its typical step
 * (median interval) and the step that breaks its line. */
export function plotRun(key, name, t, v, window) {
  const tt = Float64Array.from(t), vv = Float64Array.from(v, (x) => (x === null || !Number.isFinite(x) ? NaN : x));
  const s = { t: tt };
  const gap = gapOf(s, 0); // four typical (median) intervals; sets s.median
  return { key, name, t: tt, v: vv, window, step: s.median, gap };
}

/** Colour and dash of the i-th run: the site's colour-blind-safe palette, then dashed. */
export const styleOf = (i) => ({ color: PALETTE[i % PALETTE.length], dash: DASHES[Math.floor(i / PALETTE.length) % DASHES.length] });

/** A small line sample of the i-th run's colour and dash, for the legend, readout and table. */
export function swatch(i) {
  const { color, dash } = styleOf(i);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'line-swatch');
  svg.setAttribute('viewBox', '0 0 22 6');
  svg.setAttribute('aria-hidden', 'true');
  const line = document.createElementNS(SVG, 'line');
  for (const [k, v] of Object.entries({ x1: 0, y1: 3, x2: 22, y2: 3, stroke: color, 'stroke-width': 2, 'stroke-dasharray': dash.join(' ') || 'none' })) line.setAttribute(k, v);
  svg.append(line);
  return svg;
}

export class OverlayPlot {
  /** Builds the plot inside `host`; `figure` gets the data-* state (domain, zoomed, drawn,
   * hover-t); `onZoom(domain|null)` is told when a zoom or pan settles. */
  constructor(host, figure, { everyPoint = false, onZoom = () => {} } = {}) {
    this.figure = figure;
    this.everyPoint = everyPoint;
    this.onZoomEnd = onZoom;
    this.runs = [];
    this.log = false;
    this.format = ONE_DECIMAL; // the readings' number format (setRuns' digits)
    this.cursor = null; // the time under the reading cursor (pointer or keys), or null
    this.lines = el('canvas', { class: 'compare-lines', 'aria-hidden': 'true' });
    this.marks = el('canvas', { class: 'compare-marks', 'aria-hidden': 'true' });
    this.axes = document.createElementNS(SVG, 'svg');
    this.axes.setAttribute('class', 'compare-axes');
    this.axes.setAttribute('aria-hidden', 'true');
    this.plot = el('div', { class: 'compare-plot', tabindex: '0', role: 'application', 'aria-roledescription': 'chart',
      'aria-label': 'The picked runs over time, from each run\'s start',
      'aria-describedby': 'compare-keys' }, this.lines, this.axes, this.marks);
    this.readout = el('p', { class: 'ts-readout', id: 'compare-readout' });
    this.legend = el('ul', { class: 'compare-legend', 'aria-label': 'Runs drawn, with their value at the reading' });
    this.readings = [];
    const keys = el('p', { class: 'compare-keys', id: 'compare-keys', text: 'Scroll or pinch to zoom, drag to pan. With the keyboard: ← → move the reading, Shift+← → pan, + and − zoom, 0 shows every run whole. The statistics table under the chart gives each run\'s numbers.' });
    host.append(this.plot, this.readout, this.legend, keys);
    this.readout.textContent = HINT;
    const g = select(this.axes);
    this.gx = g.append('g').attr('class', 'x-axis');
    this.gy = g.append('g').attr('class', 'y-axis');
    this.xTitle = g.append('text').attr('class', 'axis-title').attr('text-anchor', 'middle').text('seconds from the run\'s start');
    this.yTitle = g.append('text').attr('class', 'axis-title').attr('text-anchor', 'start');
    this.zoomer = zoom().on('zoom', (e) => this.zoomed(e.transform)).on('end', () => this.onZoomEnd(this.zoomedDomain()));
    select(this.plot).call(this.zoomer).on('dblclick.zoom', null).style('touch-action', 'pan-y');
    this.plot.addEventListener('pointermove', (e) => this.hoverAt(e));
    this.plot.addEventListener('pointerleave', () => this.setCursor(null));
    this.plot.addEventListener('keydown', (e) => this.onKey(e));
    // a new width lays the plot out again (a legend that wraps anew changes only the height)
    this.resizer = new ResizeObserver(() => { if (this.size && host.clientWidth !== this.hostWidth) this.schedule(true); });
    this.resizer.observe(host);
  }

  /** Draws `runs` (from plotRun) on a linear or log y scale, zoomed to `domain` (or whole);
   * `digits`: the readings' decimals (3 for the compare page's values relative to a mean). */
  setRuns(runs, { log = false, domain = null, yTitle = '', digits = 1 } = {}) {
    this.runs = runs;
    this.log = log;
    this.format = FORMATS.get(digits) || ONE_DECIMAL;
    this.yTitle.text(yTitle);
    let hi = -Infinity, lo = Infinity;
    for (const r of runs) if (r.t.length) { lo = Math.min(lo, r.t[0]); hi = Math.max(hi, r.t[r.t.length - 1]); }
    this.full = Number.isFinite(lo) ? [Math.min(0, lo), hi > Math.min(0, lo) ? hi : Math.min(0, lo) + 1] : [0, 1];
    this.minSpan = MIN_INTERVALS * Math.min(...runs.map((r) => r.step), this.full[1] - this.full[0]);
    this.readings = runs.map(() => el('b', { class: 'reading' }));
    this.legend.replaceChildren(...runs.map((r, i) => el('li', { 'data-key': r.key }, swatch(i), ` ${r.name} `, this.readings[i])));
    this.layout();
    this.transform = zoomIdentity;
    select(this.plot).call(this.zoomer.transform, domain ? this.transformFor(domain) : zoomIdentity);
    this.draw();
  }

  /** Shows every run whole (no zoom). */
  reset() {
    this.zoomer.transform(select(this.plot), zoomIdentity);
  }

  /** Sizes the canvases to the host (device pixels) and sets the x base scale and zoom limits. */
  layout() {
    this.hostWidth = this.plot.parentElement.clientWidth;
    const width = Math.max(200, this.hostWidth);
    const height = width < 600 ? 240 : 320;
    this.m = { top: 24, right: 14, bottom: 40, left: width < 600 ? 48 : 62 };
    this.size = [width, height];
    const dpr = window.devicePixelRatio || 1;
    for (const c of [this.lines, this.marks]) {
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
      Object.assign(c.style, { width: `${width}px`, height: `${height}px` });
      c.getContext('2d').setTransform(dpr, 0, 0, dpr, 0, 0);
    }
    this.plot.style.height = `${height}px`;
    this.axes.setAttribute('width', width);
    this.axes.setAttribute('height', height);
    const [x0, x1] = [this.m.left, width - this.m.right];
    this.xBase = scaleLinear().domain(this.full || [0, 1]).range([x0, x1]);
    const span = this.full ? this.full[1] - this.full[0] : 1;
    this.zoomer.extent([[x0, 0], [x1, height]]).translateExtent([[x0, -Infinity], [x1, Infinity]])
      .scaleExtent([1, Math.max(1, span / (this.minSpan || span))]);
    this.gx.attr('transform', `translate(0,${height - this.m.bottom})`);
    this.gy.attr('transform', `translate(${this.m.left},0)`);
    this.xTitle.attr('x', (x0 + x1) / 2).attr('y', height - 6);
    this.yTitle.attr('x', 4).attr('y', 13);
  }

  /** The zoom transform that shows [a, b]. */
  transformFor([a, b]) {
    const k = (this.full[1] - this.full[0]) / Math.max(b - a, 1e-9);
    return zoomIdentity.translate(this.m.left - k * this.xBase(a), 0).scale(k);
  }

  zoomed(transform) {
    this.transform = transform;
    this.schedule(false);
  }

  /** The visible x range, or null when every run shows whole. */
  zoomedDomain() {
    return this.transform && this.transform.k > 1.0001 ? this.transform.rescaleX(this.xBase).domain() : null;
  }

  /** Redraws in the next animation frame (several zoom events in a frame draw once). */
  schedule(relayout) {
    this.relayout = this.relayout || relayout;
    if (this.frame || !this.runs.length) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      if (this.relayout) {
        const domain = this.zoomedDomain();
        this.relayout = false;
        this.layout();
        select(this.plot).call(this.zoomer.transform, domain ? this.transformFor(domain) : zoomIdentity);
      }
      this.draw();
    });
  }

  /** Per run, the vertices to draw for the visible range [x0, x1] as flat [t, v, t, v, ...]
   * (NaN, NaN between pieces of line), and the visible values' extent. */
  decimate(x0, x1, toPx) {
    const ok = this.log ? (y) => y > 0 : (y) => y === y; // not NaN
    const columnOf = this.everyPoint ? (_, i) => i : (x) => Math.floor(toPx(x));
    let lo = Infinity, hi = -Infinity, drawn = 0;
    const out = this.runs.map(({ t, v, gap }) => {
      const pts = [];
      const push = (j) => { pts.push(t[j], v[j]); drawn += 1; };
      const m4 = (first, min, max, last) => {
        push(first);
        const [a, b] = min < max ? [min, max] : [max, min];
        if (a !== first && a !== last) push(a);
        if (b !== first && b !== last && b !== a) push(b);
        if (last !== first) push(last);
      };
      const cut = () => { if (pts.length && pts[pts.length - 1] === pts[pts.length - 1]) pts.push(NaN, NaN); };
      const start = lowerBound(t, x0);
      extremes(t, v, Math.max(0, start - 1), Math.min(t.length, lowerBound(t, x1) + 1), columnOf, ok, m4, cut, gap);
      for (let i = start; i < t.length && t[i] <= x1; i++) {
        if (ok(v[i])) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i]; }
      }
      return pts;
    });
    return { out, lo, hi, drawn };
  }

  /** Draws the lines, the window marks, the grid and the axes for the current zoom. */
  draw() {
    if (!this.runs.length) return;
    const [width, height] = this.size, m = this.m;
    const xs = this.transform.rescaleX(this.xBase);
    const [x0, x1] = xs.domain();
    const a = (xs(x1) - xs(x0)) / (x1 - x0), b = xs(x0) - a * x0;
    const { out, lo, hi, drawn } = this.decimate(x0, x1, (t) => a * t + b);
    const yDomain = Number.isFinite(lo) ? (lo === hi ? [lo - Math.abs(lo || 1) / 2, hi + Math.abs(hi || 1) / 2] : [lo, hi]) : [1, 10];
    const ys = (this.log ? scaleLog() : scaleLinear()).domain(this.log && yDomain[0] <= 0 ? [1, 10] : yDomain)
      .range([height - m.bottom, m.top]).nice();
    this.xs = xs;
    this.ys = ys;
    const ctx = this.lines.getContext('2d');
    ctx.clearRect(0, 0, width, height);
    ctx.save();
    ctx.lineWidth = 1;
    this.ink = cssVar('--fg'); // read once per redraw: getComputedStyle per hover move costs
    ctx.strokeStyle = cssVar('--rule');
    ctx.beginPath();
    for (const y of ys.ticks(height / 50)) { ctx.moveTo(m.left, Math.round(ys(y)) + 0.5); ctx.lineTo(width - m.right, Math.round(ys(y)) + 0.5); }
    ctx.stroke();
    ctx.beginPath();
    ctx.rect(m.left, m.top, width - m.left - m.right, height - m.top - m.bottom);
    ctx.clip();
    const ya = (ys.range()[0] - ys.range()[1]) / (ys.domain()[0] - ys.domain()[1]);
    const yPx = this.log ? (v) => ys(v) : (v) => ys.range()[1] + ya * (v - ys.domain()[1]);
    ctx.lineWidth = 1; // a hairline (strokeLine)
    const toX = (t) => a * t + b;
    out.forEach((pts, r) => {
      const { color, dash } = styleOf(r);
      ctx.strokeStyle = color;
      ctx.setLineDash(dash);
      strokeLine(ctx, pts, toX, yPx);
    });
    // each run's steady-state window: dashed rules in its colour
    ctx.setLineDash([4, 3]);
    ctx.globalAlpha = 0.8;
    this.runs.forEach((run, r) => {
      if (!run.window) return;
      ctx.strokeStyle = styleOf(r).color;
      ctx.beginPath();
      for (const w of run.window) { const px = Math.round(a * w + b) + 0.5; ctx.moveTo(px, m.top); ctx.lineTo(px, height - m.bottom); }
      ctx.stroke();
    });
    ctx.restore();
    this.gx.call(axisBottom(xs).ticks(Math.max(2, (width - m.left - m.right) / 90)).tickSizeOuter(0));
    this.gy.call(axisLeft(ys).ticks(Math.max(2, height / 50), ',~f').tickSizeOuter(0));
    const domain = this.zoomedDomain();
    Object.assign(this.figure.dataset, { domain: `${round(x0)},${round(x1)}`, zoomed: domain ? '1' : '', drawn: String(drawn) });
    this.drawMarks();
  }

  hoverAt(e) {
    if (!this.xs || (e.pointerType === 'touch' && e.buttons)) return;
    const box = this.plot.getBoundingClientRect();
    const x = e.clientX - box.left, y = e.clientY - box.top;
    const [width, height] = this.size, m = this.m;
    const inside = x >= m.left && x <= width - m.right && y >= m.top && y <= height - m.bottom;
    this.setCursor(inside ? this.xs.invert(x) : null);
  }

  setCursor(t) {
    this.cursor = t;
    this.drawMarks();
  }

  /** The reading cursor: a rule and a dot on each run at its nearest interval, the readout. */
  drawMarks() {
    const [width, height] = this.size, m = this.m;
    const ctx = this.marks.getContext('2d');
    ctx.clearRect(0, 0, width, height);
    const t = this.cursor;
    if (t === null || !this.xs || t < this.xs.domain()[0] || t > this.xs.domain()[1]) {
      delete this.figure.dataset.hoverT;
      this.readout.textContent = HINT;
      for (const b of this.readings) { b.textContent = ''; delete b.dataset.t; delete b.dataset.value; }
      return;
    }
    this.figure.dataset.hoverT = String(round(t));
    const px = Math.round(this.xs(t)) + 0.5;
    ctx.strokeStyle = this.ink;
    ctx.globalAlpha = 0.5;
    ctx.beginPath();
    ctx.moveTo(px, m.top);
    ctx.lineTo(px, height - m.bottom);
    ctx.stroke();
    ctx.globalAlpha = 1;
    this.readout.textContent = `t = ${ONE_DECIMAL.format(t)} s from each run's start`;
    this.runs.forEach((run, r) => {
      const b = this.readings[r];
      if (!run.t.length || t < run.t[0] - run.step || t > run.t[run.t.length - 1] + run.step) {
        b.textContent = '';
        delete b.dataset.t;
        delete b.dataset.value;
        return;
      }
      const i = nearestIndex(run.t, t), v = run.v[i];
      if (v === v && (!this.log || v > 0)) {
        ctx.fillStyle = styleOf(r).color;
        ctx.beginPath();
        ctx.arc(this.xs(run.t[i]), this.ys(v), 3, 0, 2 * Math.PI);
        ctx.fill();
      }
      b.dataset.t = String(run.t[i]);
      b.dataset.value = v === v ? String(v) : '';
      b.textContent = v === v ? this.format.format(v) : 'missing';
    });
  }

  /** Keys on the focused plot: ← → move the cursor, Shift+← → pan, + − zoom, 0 / Home whole. */
  onKey(e) {
    if (!this.xs) return;
    const [x0, x1] = this.xs.domain();
    const sel = select(this.plot);
    const at = this.cursor === null ? (x0 + x1) / 2 : this.cursor;
    const sign = e.key === 'ArrowLeft' ? -1 : 1;
    const baseWidth = this.xBase.range()[1] - this.xBase.range()[0];
    if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && e.shiftKey) this.zoomer.translateBy(sel, -sign * 0.1 * baseWidth / this.transform.k, 0);
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') this.setCursor(Math.min(x1, Math.max(x0, at + sign * (x1 - x0) / 50)));
    else if (e.key === '+' || e.key === '=') this.zoomer.scaleBy(sel, 1.5, [this.xs(at), 0]);
    else if (e.key === '-' || e.key === '_') this.zoomer.scaleBy(sel, 1 / 1.5, [this.xs(at), 0]);
    else if (e.key === '0' || e.key === 'Home') this.reset();
    else if (e.key === 'Escape') this.setCursor(null);
    else return;
    e.preventDefault();
  }

  destroy() {
    this.resizer.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
    select(this.plot).on('.zoom', null);
  }
}

const round = (x) => Math.round(x * 1000) / 1000;

/** Strokes one path through a run's vertices [t, v, t, v, ...] (a NaN pair breaks it). The
 * line is one pixel wide: Skia draws that as a hairline, far cheaper to rasterise than a wider
 * stroke (1.2 px with round joins took ~10x the main-thread time of Chrome's commit per redraw
 * with a software canvas, in a trace with 30 runs). */
function strokeLine(ctx, pts, toX, toY) {
  ctx.beginPath();
  let pen = false;
  for (let i = 0; i < pts.length; i += 2) {
    if (pts[i] !== pts[i]) { pen = false; continue; }
    const px = toX(pts[i]), py = toY(pts[i + 1]);
    if (pen) ctx.lineTo(px, py); else { ctx.moveTo(px, py); pen = true; }
  }
  ctx.stroke();
}
