// The live time series' drawing (timeseries.js): the detail plot and the overview strip under it
// on two canvases, the steady-state window and the zoom range as brushes (HTML boxes over
// them). Vega redrew its whole scene (every line, every selection) for each pointer step of a
// brush drag; here a window drag moves a box, and a zoom drag redraws the detail canvas alone,
// once per frame. The build's SVG (Vega) stays the first paint and the no-JS view; the export
// draws with Vega too (timeseries.js), so the files look as before.
// The detail plot is a stack of panels on one x axis: the time series has one; the metrics
// kind (metrics.js) one per metric, each with its own y scale and its title above it. The
// window brush, the hover rule and the markers cross every panel.
import { scaleLinear, scaleLog } from 'd3';
import { el } from './chartdom.js';

const LEFT = 60; // room for the y axis labels and title
const RIGHT = 12;
const TOP = 6;
const AXIS = 20; // x axis labels under the detail plot
const GAP = 8;
const STRIP = 46;
const STRIP_AXIS = 34; // labels and title under the strip
const HEAD = 18; // a stacked panel's title, above it (clear of its top tick label)
const SPACING = 4; // between stacked panels (with HEAD: the room main.css holds for them)

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
   * full, zoom, window, warm, markers, log, yTitle, theme: {fg, muted, rule, shade, accent, font}};
   * optional `panels`: [{name, title, height}] stacks a panel per name (rows carry `panel`),
   * each on its own y scale, not from zero, titled above (no warm-up shading). */
  draw(width, state) {
    this.width = width;
    this.state = state;
    this.panels = this.stack(width);
    const first = this.panels[0], last = this.panels[this.panels.length - 1];
    this.detailTop = first.top;
    this.detailHeight = last.top + last.height - first.top;
    this.detailBottom = last.top + last.height + AXIS;
    this.total = LEFT + width + RIGHT;
    this.size(this.detailCanvas, this.detailBottom);
    this.size(this.stripCanvas, GAP + STRIP + STRIP_AXIS);
    this.drawStrip();
    this.drawDetail();
  }

  /** The detail plot's panels, top to bottom: {name, title, top, height, along} (`along`: the
   * title runs along the y axis, as the time series' one panel has it). */
  stack(width) {
    const s = this.state;
    if (!s.panels) return [{ name: null, title: s.yTitle, top: TOP, height: width < 420 ? 210 : 280, along: true }];
    let top = TOP - SPACING;
    return s.panels.map((p) => {
      top += SPACING + HEAD;
      const panel = { name: p.name, title: p.title, top, height: p.height, along: false };
      top += p.height;
      return panel;
    });
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

  /** A y scale for `rows` over `height` px: from zero (log: the data's range; a stacked
   * panel: the data's range too), nice ends. */
  y(rows, height) {
    let lo = Infinity, hi = -Infinity;
    for (const r of rows) if (r.v !== null) { if (r.v < lo) lo = r.v; if (r.v > hi) hi = r.v; }
    if (!Number.isFinite(lo)) { lo = this.state.log ? 1 : 0; hi = 1; }
    if (this.state.log) return scaleLog().domain([lo, hi === lo ? lo * 10 : hi]).range([height, 0]).nice();
    if (this.state.panels) return scaleLinear().domain(hi === lo ? [lo - Math.abs(lo || 1) / 2, hi + Math.abs(hi || 1) / 2] : [lo, hi]).range([height, 0]).nice();
    return scaleLinear().domain([Math.min(0, lo), Math.max(0, hi === lo ? hi + 1 : hi)]).range([height, 0]).nice();
  }

  /** Replaces the detail rows (a zoom step) and redraws the detail plot only. */
  setDetail(rows, zoom) {
    this.state.detail = rows;
    this.state.zoom = zoom;
    this.drawDetail();
  }

  /** Draws every panel of the detail plot; `marksAt` keeps, per panel, the markers' x (px). */
  drawDetail() {
    const ctx = this.detailCanvas.getContext('2d');
    ctx.clearRect(0, 0, this.total, this.detailBottom);
    const x = this.x(), rows = this.state.detail;
    this.marksAt = this.panels.map((p, i) => this.drawPanel(ctx, p, x,
      p.name === null ? rows : rows.filter((r) => r.panel === p.name), i === this.panels.length - 1, i === 0));
    this.place();
  }

  /** One panel: grid, axes, title, the warm-up (the one-panel plot), lines and markers (named
   * in the top panel); returns the markers' x (px from the plot's left). */
  drawPanel(ctx, p, x, rows, last, top) {
    const s = this.state, th = s.theme, h = p.height;
    const y = this.y(rows, h);
    ctx.save();
    ctx.translate(LEFT, p.top);
    ctx.font = `11px ${th.font}`;
    ctx.strokeStyle = th.rule;
    ctx.lineWidth = 1;
    ctx.fillStyle = th.muted;
    this.yAxis(ctx, y, h < 120 ? 3 : 6, !p.along);
    this.xGrid(ctx, x, h, last);
    this.title(ctx, p);
    ctx.beginPath();
    ctx.rect(0, 0, this.width, h);
    ctx.clip();
    if (s.warm && p.along) {
      const [wa, wb] = s.warm;
      ctx.fillStyle = th.shade;
      ctx.fillRect(x(wa), 0, x(wb) - x(wa), h);
    }
    this.lines(ctx, rows, x, y, 1);
    const marks = this.markers(ctx, x, h, top);
    ctx.restore();
    return marks;
  }

  /** Horizontal grid lines and the y axis' labels, about `count` of them; `flush`: the labels
   * at a panel's top and bottom kept inside it (as Vega's labelFlush), clear of the titles of
   * stacked panels. */
  yAxis(ctx, y, count, flush) {
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    const format = y.tickFormat(count), [bottom] = y.range();
    for (const v of y.ticks(count)) {
      const py = Math.round(y(v)) + 0.5;
      ctx.beginPath(); ctx.moveTo(0, py); ctx.lineTo(this.width, py); ctx.stroke();
      ctx.fillText(format(v), -6, flush ? Math.min(bottom - 5, Math.max(5, py)) : py);
    }
  }

  /** Vertical grid lines over a panel `h` px high; the time labels under the bottom panel. */
  xGrid(ctx, x, h, labels) {
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const format = x.tickFormat(8);
    for (const t of x.ticks(Math.max(2, Math.floor(this.width / 80)))) {
      const px = Math.round(x(t)) + 0.5;
      ctx.beginPath(); ctx.moveTo(px, 0); ctx.lineTo(px, h); ctx.stroke();
      if (labels) ctx.fillText(format(t), px, h + 4);
    }
  }

  /** A panel's title: along the y axis (one panel), else above the panel, from its left. */
  title(ctx, p) {
    ctx.save();
    ctx.fillStyle = this.state.theme.fg;
    ctx.font = `600 12px ${this.state.theme.font}`;
    if (p.along) {
      ctx.translate(-LEFT + 12, p.height / 2);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = 'center';
      ctx.fillText(p.title, 0, -6);
    } else {
      ctx.textAlign = 'left';
      ctx.textBaseline = 'bottom';
      ctx.fillText(p.title, -LEFT + 4, -7);
    }
    ctx.restore();
  }

  /** The markers: a dashed rule each, named when `named`; returns their x (px). */
  markers(ctx, x, h, named) {
    const th = this.state.theme;
    ctx.setLineDash([4, 3]);
    ctx.strokeStyle = th.muted;
    ctx.fillStyle = th.muted;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    return this.state.markers.map((m) => {
      const px = Math.round(x(m.t)) + 0.5;
      ctx.beginPath(); ctx.moveTo(px, 0); ctx.lineTo(px, h); ctx.stroke();
      if (named) ctx.fillText(m.label, px + 4, 4);
      return px;
    });
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
    box(this.winBox, this.x(), s.window, this.detailTop, this.detailHeight);
    // the strip's top from the detail canvas' known height: reading it (offsetHeight) after
    // the writes above laid the page out once more at each step of a drag
    if (s.zoom) box(this.zoomBox, this.stripX(), s.zoom, this.detailBottom + GAP, STRIP);
    else this.zoomBox.hidden = true;
  }

  setWindow(window) { this.state.window = window; this.place(); }

  /** The detail plot's box on the page (every panel, top to bottom) and its x domain (for the
   * hover rule and the tests). */
  geometry() {
    const r = this.detailCanvas.getBoundingClientRect();
    return { left: r.left + LEFT, top: r.top + this.detailTop, width: this.width, height: this.detailHeight, domain: this.x().domain() };
  }

  /** Each panel's box on the page and the x (px from its left) of each marker drawn in it. */
  panelBoxes() {
    const r = this.detailCanvas.getBoundingClientRect();
    return this.panels.map((p, i) => ({ name: p.name, left: r.left + LEFT, top: r.top + p.top, width: this.width, height: p.height, marks: this.marksAt[i] }));
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
    const [d0, d1] = r.scale.domain();
    // inside the brush: move it; elsewhere, or when it spans most of the plot (a metrics run's
    // window is often the whole run; a time series zoomed to its window), a new one from here
    const inside = r.range && at >= r.range[0] && at <= r.range[1] && Math.min(d1, r.range[1]) - Math.max(d0, r.range[0]) < 0.9 * (d1 - d0);
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
