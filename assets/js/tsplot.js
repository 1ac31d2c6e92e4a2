// The live time series' drawing (timeseries.js): the detail plot and the overview strip under it
// on two canvases, the steady-state window and the zoom range as brushes (HTML boxes over
// them). Vega redrew its whole scene (every line, every selection) for each pointer step of a
// brush drag; here a window drag moves a box, and a zoom drag redraws the detail canvas alone,
// once per frame. The build's SVG (Vega) stays the first paint and the no-JS view; the export
// draws with Vega too (timeseries.js), so the files look as before.
import { scaleLinear, scaleLog } from 'd3';
import { el } from './chartdom.js';

const LEFT = 60; // room for the y axis labels and title
const RIGHT = 12;
const TOP = 6;
const AXIS = 20; // x axis labels under the detail plot
const GAP = 8;
const STRIP = 46;
const STRIP_AXIS = 34; // labels and title under the strip

/** A brush box: an absolutely placed div over a canvas. */
const brush = (cls) => el('div', { class: `ts-brush ${cls}`, hidden: '' });

export class TsPlot {
  /** `host` (div.ts-canvas) gets the canvases and brushes; `on.window(extent|null)` and
   * `on.zoom(extent|null)` are called for each pointer step of a drag (null: cleared). */
  constructor(host, on) {
    this.host = host;
    this.on = on;
    this.detailCanvas = el('canvas', { class: 'ts-detail', 'aria-hidden': 'true' });
    this.stripCanvas = el('canvas', { class: 'ts-strip', 'aria-hidden': 'true' });
    this.winBox = brush('ts-window');
    this.zoomBox = brush('ts-zoom');
    host.replaceChildren(this.detailCanvas, this.stripCanvas, this.winBox, this.zoomBox);
    host.addEventListener('pointerdown', (e) => this.down(e));
    host.addEventListener('pointermove', (e) => this.move(e));
    host.addEventListener('pointerup', (e) => this.up(e));
    host.addEventListener('pointercancel', (e) => this.up(e));
    this.drag = null;
  }

  /** Lays the plot out for a plot `width` (px) and draws everything from `state`:
   * {detail, overview: rows {run, t, v} (v null breaks a line), runs: [{id, color, dash}],
   * full, zoom, window, warm, markers, log, yTitle, theme: {fg, muted, rule, shade, accent, font}}. */
  draw(width, state) {
    this.width = width;
    this.state = state;
    this.detailHeight = width < 420 ? 210 : 280;
    this.total = LEFT + width + RIGHT;
    this.size(this.detailCanvas, TOP + this.detailHeight + AXIS);
    this.size(this.stripCanvas, GAP + STRIP + STRIP_AXIS);
    this.drawStrip();
    this.drawDetail();
  }

  size(canvas, height) {
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(this.total * dpr);
    canvas.height = Math.round(height * dpr);
    canvas.style.width = `${this.total}px`;
    canvas.style.height = `${height}px`;
    canvas.getContext('2d').setTransform(dpr, 0, 0, dpr, 0, 0);
  }

  /** The x scale of the detail plot (plot px from its left edge). */
  x() { return scaleLinear().domain(this.state.zoom || this.state.full).range([0, this.width]); }

  stripX() { return scaleLinear().domain(this.state.stripFull || this.state.full).range([0, this.width]); }

  /** A y scale for `rows` over `height` px: from zero (log: the data's range), nice ends. */
  y(rows, height) {
    let lo = Infinity, hi = -Infinity;
    for (const r of rows) if (r.v !== null) { if (r.v < lo) lo = r.v; if (r.v > hi) hi = r.v; }
    if (!Number.isFinite(lo)) { lo = this.state.log ? 1 : 0; hi = 1; }
    if (this.state.log) return scaleLog().domain([lo, hi === lo ? lo * 10 : hi]).range([height, 0]).nice();
    return scaleLinear().domain([Math.min(0, lo), Math.max(0, hi === lo ? hi + 1 : hi)]).range([height, 0]).nice();
  }

  /** Replaces the detail rows (a zoom step) and redraws the detail plot only. */
  setDetail(rows, zoom) {
    this.state.detail = rows;
    this.state.zoom = zoom;
    this.drawDetail();
  }

  drawDetail() {
    const s = this.state, th = s.theme, h = this.detailHeight;
    const ctx = this.detailCanvas.getContext('2d');
    ctx.clearRect(0, 0, this.total, TOP + h + AXIS);
    const x = this.x(), y = this.y(s.detail, h);
    ctx.save();
    ctx.translate(LEFT, TOP);
    ctx.font = `11px ${th.font}`;
    // grid and y axis
    ctx.strokeStyle = th.rule;
    ctx.lineWidth = 1;
    ctx.fillStyle = th.muted;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    const yFormat = y.tickFormat(6);
    for (const v of y.ticks(6)) {
      const py = Math.round(y(v)) + 0.5;
      ctx.beginPath(); ctx.moveTo(0, py); ctx.lineTo(this.width, py); ctx.stroke();
      ctx.fillText(yFormat(v), -6, py);
    }
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const xFormat = x.tickFormat(8);
    for (const t of x.ticks(Math.max(2, Math.floor(this.width / 80)))) {
      const px = Math.round(x(t)) + 0.5;
      ctx.beginPath(); ctx.moveTo(px, 0); ctx.lineTo(px, h); ctx.stroke();
      ctx.fillText(xFormat(t), px, h + 4);
    }
    // the y title, along the axis
    ctx.save();
    ctx.fillStyle = th.fg;
    ctx.font = `600 12px ${th.font}`;
    ctx.translate(-LEFT + 12, h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.fillText(s.yTitle, 0, -6);
    ctx.restore();
    ctx.beginPath();
    ctx.rect(0, 0, this.width, h);
    ctx.clip();
    // the warm-up, shaded
    const [wa, wb] = s.warm;
    ctx.fillStyle = th.shade;
    ctx.fillRect(x(wa), 0, x(wb) - x(wa), h);
    this.lines(ctx, s.detail, x, y, 1);
    // markers: a dashed rule and its label
    ctx.setLineDash([4, 3]);
    ctx.strokeStyle = th.muted;
    ctx.fillStyle = th.muted;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    for (const m of s.markers) {
      const px = Math.round(x(m.t)) + 0.5;
      ctx.beginPath(); ctx.moveTo(px, 0); ctx.lineTo(px, h); ctx.stroke();
      ctx.fillText(m.label, px + 4, 4);
    }
    ctx.restore();
    this.place();
  }

  drawStrip() {
    const s = this.state, th = s.theme;
    const ctx = this.stripCanvas.getContext('2d');
    ctx.clearRect(0, 0, this.total, GAP + STRIP + STRIP_AXIS);
    const x = this.stripX(), y = this.y(s.overview, STRIP);
    ctx.save();
    ctx.translate(LEFT, GAP);
    ctx.font = `11px ${th.font}`;
    ctx.fillStyle = th.muted;
    ctx.strokeStyle = th.rule;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const xFormat = x.tickFormat(8);
    for (const t of x.ticks(Math.max(2, Math.floor(this.width / 80)))) {
      const px = Math.round(x(t)) + 0.5;
      ctx.beginPath(); ctx.moveTo(px, STRIP); ctx.lineTo(px, STRIP + 4); ctx.stroke();
      ctx.fillText(xFormat(t), px, STRIP + 6);
    }
    ctx.beginPath(); ctx.moveTo(0, STRIP + 0.5); ctx.lineTo(this.width, STRIP + 0.5); ctx.stroke();
    ctx.fillStyle = th.fg;
    ctx.font = `600 12px ${th.font}`;
    ctx.fillText('time (s) — drag here to zoom', this.width / 2, STRIP + 19);
    this.lines(ctx, s.overview, x, y, 0.8);
    ctx.restore();
  }

  /** One path per run through its rows (in run order, as the datasets hold them). */
  lines(ctx, rows, x, y, lineWidth) {
    const style = new Map(this.state.runs.map((r) => [r.id, r]));
    // bevelled joins: round ones made the software raster of a zoom step's lines (on the main
    // thread, when the frame is committed) about three times as costly, and a width over 1 px
    // as much again; at one point per pixel column neither shows
    ctx.lineWidth = lineWidth;
    ctx.lineJoin = 'bevel';
    let run = null, open = false;
    const finish = () => { if (run !== null) ctx.stroke(); };
    for (const r of rows) {
      if (r.run !== run) {
        finish();
        run = r.run;
        const st = style.get(run);
        ctx.strokeStyle = st.color;
        ctx.setLineDash(st.dash[1] === 0 ? [] : st.dash);
        ctx.beginPath();
        open = false;
      }
      if (r.v === null) { open = false; continue; }
      const px = x(r.t), py = y(r.v);
      if (open) ctx.lineTo(px, py); else { ctx.moveTo(px, py); open = true; }
    }
    finish();
    ctx.setLineDash([]);
  }

  /** Places the brush boxes for the window and the zoom range. */
  place() {
    const s = this.state;
    const box = (div, scale, range, top, height) => {
      const [d0, d1] = scale.domain();
      const a = Math.max(d0, range[0]), b = Math.min(d1, range[1]);
      div.hidden = !(b > a);
      if (div.hidden) return;
      Object.assign(div.style, { left: `${LEFT + scale(a)}px`, width: `${scale(b) - scale(a)}px`, top: `${top}px`, height: `${height}px` });
    };
    box(this.winBox, this.x(), s.window, TOP, this.detailHeight);
    // the strip's top from the detail canvas' known height: reading it (offsetHeight) after
    // the writes above laid the page out once more at each step of a drag
    if (s.zoom) box(this.zoomBox, this.stripX(), s.zoom, TOP + this.detailHeight + AXIS + GAP, STRIP);
    else this.zoomBox.hidden = true;
  }

  setWindow(window) { this.state.window = window; this.place(); }

  /** The detail plot's box on the page and its x domain (for the hover rule and the tests). */
  geometry() {
    const r = this.detailCanvas.getBoundingClientRect();
    return { left: r.left + LEFT, top: r.top + TOP, width: this.width, height: this.detailHeight, domain: this.x().domain() };
  }

  /** The overview strip's box on the page. */
  stripBox() {
    const r = this.stripCanvas.getBoundingClientRect();
    return { left: r.left + LEFT, top: r.top + GAP, width: this.width, height: STRIP };
  }

  /** The time under the page point (clientX, clientY) over the detail plot, else null; `g`:
   * the plot's geometry() when the caller has it. */
  timeAt(pos, g = this.state && this.geometry()) {
    if (!this.state) return null;
    const px = pos.clientX - g.left, py = pos.clientY - g.top;
    if (px < 0 || px > g.width || py < 0 || py > g.height) return null;
    return this.x().invert(px);
  }

  /** Places the hover `rule` (absolute in its parent, whose box is `parent`) at time `t` over
   * the detail plot (`g`: its geometry(), read before anything on the page was changed, so
   * that a pointer step lays the page out once). */
  placeRule(rule, t, g, parent) {
    // moved by a transform on a layer of its own (main.css): a step repaints nothing else
    rule.style.transform = `translate(${g.left - parent.left + this.x()(t)}px, ${g.top - parent.top}px)`;
    rule.style.height = `${g.height}px`;
    rule.hidden = false;
  }

  /** Which brush a pointer at (clientX, clientY) drags: window, zoom or none, with its scale
   * and the plot's left edge on the page. */
  region(e) {
    const g = this.geometry(), sb = this.stripBox();
    const inX = e.clientX >= g.left - 2 && e.clientX <= g.left + g.width + 2;
    if (inX && e.clientY >= g.top && e.clientY <= g.top + g.height) return { name: 'window', scale: this.x(), left: g.left, range: this.state.window };
    if (inX && e.clientY >= sb.top && e.clientY <= sb.top + sb.height) return { name: 'zoom', scale: this.stripX(), left: sb.left, range: this.state.zoom };
    return null;
  }

  down(e) {
    if (e.button !== 0 || !this.state) return;
    const r = this.region(e);
    if (!r) return;
    const at = r.scale.invert(e.clientX - r.left);
    const inside = r.range && at >= r.range[0] && at <= r.range[1];
    // inside the brush: move it; elsewhere: a new one from here
    this.drag = { ...r, from: at, moved: false, start: inside ? r.range.slice() : null };
    this.host.setPointerCapture(e.pointerId);
    e.preventDefault();
  }

  move(e) {
    const d = this.drag;
    if (!d) return;
    const [d0, d1] = d.scale.domain();
    const at = Math.min(d1, Math.max(d0, d.scale.invert(e.clientX - d.left)));
    if (!d.moved && Math.abs(d.scale(at) - d.scale(d.from)) < 2) return;
    d.moved = true;
    let range;
    if (d.start) {
      const span = d.start[1] - d.start[0];
      const a = Math.min(d1 - span, Math.max(d0, d.start[0] + at - d.from));
      range = [a, a + span];
    } else range = [Math.min(d.from, at), Math.max(d.from, at)];
    this.on[d.name](range);
  }

  up(e) {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    if (this.host.hasPointerCapture(e.pointerId)) this.host.releasePointerCapture(e.pointerId);
    if (!d.moved && e.type === 'pointerup') this.on[d.name](null); // a click clears, as Vega's brush
    else if (d.moved && this.on.end) this.on.end(d.name);
  }

  /** The rows drawn, by name ('detail', 'overview'), as a Vega view's `data(name)` gives them. */
  data(name) { return this.state ? this.state[name] : []; }
}
