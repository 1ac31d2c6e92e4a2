// The "metrics" chart kind (docs/charts.md): one run as a stack of linked panels on one time
// axis: its throughput on top, then the other columns of its series (latency, errors, ...)
// and its linked metrics (vmstat, iostat per device, server counters, efficiency per
// operation; ingest/join/linked.py), each a small panel with its own y scale. Zooming (the strip at
// the bottom), the window brush and the hover rule are shared by every panel; markers cross
// them all. The window statistics table covers every panel shown. State: `<id>.run`,
// `<id>.p` (panels), `<id>.w`, `<id>.z` in the URL hash.
// The live chart draws on canvas (tsplot.js, its panels stacked), without Vega: evaluating the
// Vega bundle and compiling four panels was one long task of 240-530 ms when the reader
// scrolled to the chart, and Vega's brushes listened to every pointer move on the page. The
// build's SVG (Vega, initialView) is the first paint and the no-JS view; PNG and SVG export
// draw the same Vega spec, made on demand (the Vega bundle is fetched then).
import { plotWidth } from './layout.js';
import { TsPlot } from './tsplot.js';
import { loadVega } from './vega-loader.js';
import { getState, setState } from './hash.js';
import { downsample, windowStats, nearestIndex, gapOf, gapBreaker } from './series.js';
import { addExportTools } from './export.js';
import { chartConfig, cssVar } from './theme.js';
import { el, range, significant as fmt, liveRoom, showLive } from './chartdom.js';

const present = (v) => v !== null;

const TOP_H = 150, PANEL_H = 70, SPACING = 6;
/** The points a zoom drag's step draws at most per panel (the drag's end draws every bucket). */
const DRAG_BUCKETS = 300;

/** A metric's title: its label from the series file's `meta` (the ingest's, ingest/join/columns.py:
 * one list of units and gauges for the ingest and the chart), else its name. */
export function describe(name, metrics) {
  const s = metrics && metrics.get(name);
  return (s && s.meta && s.meta.label) || name;
}

/** The panel list of the URL state: absent (null: the run's defaults), `-` (none: the
 * throughput alone) or comma-separated names. */
const panelState = (s) => (s === null || s === undefined || s === '' ? null : s === '-' ? [] : s.split(',').filter(Boolean));

export class MetricsChart {
  /** The first run's default panels, drawn at build time from the published run files
   * (`load(url)` reads them; publish/chart_svgs.js), so the chart shows without JavaScript. */
  static initialView(spec, hostWidth, read, { load } = {}) {
    if (!load) return null;
    const chart = Object.create(MetricsChart.prototype);
    Object.assign(chart, { spec, id: spec.id, read, runs: new Map(spec.runs.map((r) => [r.id, r])), run: spec.show,
      panels: null, zoom: null, window: null });
    const run = chart.runs.get(chart.run);
    const metrics = chart.collect(run, load(run.url), run.linked ? load(run.linked) : null);
    chart.panels = chart.defaultPanels(run).filter((p) => metrics.has(p));
    const width = Math.max(160, Math.floor(hostWidth - 110));
    const vl = chart.vegaLiteSpec(width, chart.datasets(metrics, width), metrics);
    return { spec: { ...vl, config: chartConfig(read) }, width };
  }

  static expectedHeight(figure, spec) {
    const n = (spec.panels || []).length || 3;
    return 140 + 170 + n * 100;
  }

  constructor(figure, spec) {
    this.figure = figure;
    this.spec = spec;
    this.id = spec.id;
    this.runs = new Map(spec.runs.map((r) => [r.id, r]));
    const fromHash = getState(this.id, 'run');
    this.run = this.runs.has(fromHash) ? fromHash : spec.show;
    this.panels = panelState(getState(this.id, 'p'));   // null: the run's defaults, once loaded
    this.zoom = range(getState(this.id, 'z'));
    this.window = range(getState(this.id, 'w'));
    this.cache = new Map();
    // what the export reads as a Vega view's: SVG and images, drawn by Vega on demand
    this.view = {
      toSVG: async () => (await this.exportView()).toSVG(),
      toImageURL: async (...args) => (await this.exportView()).toImageURL(...args),
    };
    this.build();
  }

  /** A Vega view of the chart as shown (the build's drawing, at the live width), for export. */
  async exportView() {
    const vl = this.vegaLiteSpec(this.width, this.datasets(this.metrics, this.width), this.metrics);
    return (await loadVega()).headlessView({ ...vl, config: chartConfig() });
  }

  build() {
    this.host = this.figure.querySelector('.chart-view');
    this.runSel = el('select', { 'aria-label': 'Run' });
    for (const r of this.runs.values()) this.runSel.append(el('option', { value: r.id, text: r.name }));
    this.runSel.value = this.run;
    this.runSel.addEventListener('change', () => {
      this.run = this.runSel.value; this.panels = null; this.window = null; this.zoom = null; this.saveState(); this.draw();
    });
    this.pickList = el('div', { class: 'metrics-pick' });
    this.canvas = el('div', { class: 'ts-canvas' });
    this.rule = el('div', { class: 'ts-rule', hidden: '' });
    this.hint = 'Hover a panel to read every metric at one time; drag in a panel to set the window, in the strip below to zoom.';
    this.readout = el('div', { class: 'ts-readout', 'aria-live': 'off' }, this.hint);
    this.plot = new TsPlot(this.canvas, {
      window: (w) => this.onWindow(w),
      zoom: (z) => this.onZoom(z, true),
      end: (name) => { if (name === 'zoom') this.onZoom(this.zoom); }, // full resolution again
    });
    // the hover follows the pointer over every panel, inside the window brush too
    const plot = el('div', { class: 'ts-plot' }, this.canvas, this.rule);
    plot.addEventListener('pointermove', (e) => { this.hoverAt = { clientX: e.clientX, clientY: e.clientY }; this.onHover(this.hoverAt); });
    plot.addEventListener('pointerleave', () => { this.hoverAt = null; this.onHover(null); });
    this.stats = el('div', { class: 'ts-stats table-wrap' });
    // built out of sight; the build's SVG stays until the first draw shows it (showLive)
    this.room = liveRoom(this.host);
    this.room.append(el('div', { class: 'chart-controls', role: 'group', 'aria-label': 'Chart controls' },
      el('label', {}, 'Run ', this.runSel),
      el('details', { class: 'metrics-panels' }, el('summary', { text: 'Panels' }), this.pickList)),
    plot, this.readout, this.stats);
    addExportTools(this.figure, this.id, () => this.view, () => this.shownCsv());
  }

  /** The run's colour as in the post's other charts (spec.colors), if it has one. */
  color(id) { return (this.spec.colors || {})[id] || null; }

  saveState() {
    const r = this.runs.get(this.run);
    setState(this.id, 'run', this.run === this.spec.show ? null : this.run);
    const p = this.panels;
    setState(this.id, 'p', p === null || p.join(',') === this.defaultPanels(r).join(',') ? null : p.length ? p.join(',') : '-');
    setState(this.id, 'z', this.zoom ? this.zoom.map(Math.round).join('-') : null);
    const w = this.window, d = r.window;
    setState(this.id, 'w', !w || (d && w[0] === d[0] && w[1] === d[1]) ? null : w.join('-'));
  }

  /** The run's series and linked metrics as {name: {t, v}}; throughput first. */
  async load(run) {
    if (this.cache.has(run.id)) return this.cache.get(run.id);
    const get = async (url) => {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`${res.status} fetching ${res.url}`);
      return res.json();
    };
    const [own, linked] = await Promise.all([get(run.url), run.linked ? get(run.linked) : null]);
    const ordered = this.collect(run, own, linked);
    this.cache.set(run.id, ordered);
    return ordered;
  }

  /** {name: {t, v}} from the run's own series and its linked one; throughput first. */
  collect(run, own, linked) {
    const metrics = new Map();
    for (const doc of [own, linked]) {
      if (!doc) continue;
      for (const c of doc.columns) {
        if (c !== 't') metrics.set(c, { t: doc.t, v: doc[c], weighted: doc.mean === 'time-weighted', meta: (doc.meta || {})[c] });
      }
    }
    return new Map([[run.metric, metrics.get(run.metric)], ...Array.from(metrics).filter(([k]) => k !== run.metric)]);
  }

  defaultPanels(run) {
    const all = run.columns || [];
    return (run.panels && run.panels.length ? run.panels : all.slice(0, 4)).filter((p) => all.includes(p) && p !== run.metric);
  }

  pickers(run, metrics) {
    // the figure's data-metrics (written by the partial) lists what every run can show; the
    // pick list offers the run in view's
    const names = Array.from(metrics.keys()).filter((k) => k !== run.metric);
    const boxes = names.map((name) => {
      const box = el('input', { type: 'checkbox', value: name });
      box.checked = this.panels.includes(name);
      box.addEventListener('change', () => {
        this.panels = box.checked ? [...this.panels, name] : this.panels.filter((p) => p !== name);
        this.saveState();
        this.draw();
      });
      return el('label', {}, box, ` ${describe(name, metrics)}`);
    });
    this.pickList.replaceChildren(...boxes);
  }

  /** The one time axis of every panel: from the run's start (0) or the first sample before it
   * (monitors started with a warm-up) to the last time any of the run's metrics has (samples
   * past the run's end are shown, never clipped); every metric of the run, shown or not, so
   * picking panels never moves the axis. */
  extent(metrics) {
    let lo = 0, hi = -Infinity;
    for (const s of metrics.values()) {
      if (!s || !s.t.length) continue;
      lo = Math.min(lo, s.t[0]);
      hi = Math.max(hi, s.t[s.t.length - 1]);
    }
    return [lo, Number.isFinite(hi) && hi > lo ? hi : lo + 1];
  }

  /** The rows of the panels shown and of the overview strip for a plot `width` px wide. */
  datasets(metrics, width) {
    this.metrics = metrics;
    const full = this.extent(metrics);
    const overview = [];
    const names = this.shownNames();
    const rows = this.detailRows(Math.max(50, Math.round(width / 2)));
    const top = metrics.get(names[0]);
    const buckets = Math.max(40, Math.round(width / 5));
    downsample(top.t, top.v, full[0], full[1], buckets, gapBreaker(overview, { run: this.run }, gapOf(top, (full[1] - full[0]) / buckets), present));
    return { rows, overview, names };
  }

  /** The throughput's name, then the panels shown. */
  shownNames() { return [this.runs.get(this.run).metric, ...this.panels]; }

  /** Every shown panel's rows {panel, run, t, v} in the zoom range, per-bucket extremes. */
  detailRows(buckets) {
    const [x0, x1] = this.zoom || this.extent(this.metrics);
    const rows = [];
    for (const name of this.shownNames()) {
      const s = this.metrics.get(name);
      if (!s) continue;
      downsample(s.t, s.v, x0, x1, buckets, gapBreaker(rows, { panel: name, run: this.run }, gapOf(s, (x1 - x0) / buckets), present));
    }
    this.rows = rows;
    return rows;
  }

  plotted() { return { columns: ['panel', 't', 'value'], rows: (this.rows || []).map((r) => ({ panel: r.panel, t: r.t, value: r.v })) }; }

  /** The CSV of what is shown: every sample (full resolution, not the points drawn) of the
   * panels shown, in the zoom range. */
  shownCsv() {
    const metrics = this.metrics;
    if (!metrics) return this.plotted();
    const [x0, x1] = this.zoom || this.extent(metrics);
    const rows = [];
    for (const name of this.shownNames()) {
      const s = metrics.get(name);
      if (!s) continue;
      for (let i = 0; i < s.t.length; i++) if (s.t[i] >= x0 && s.t[i] <= x1) rows.push({ panel: name, t: s.t[i], value: s.v[i] });
    }
    return { columns: ['panel', 't', 'value'], rows };
  }

  vegaLiteSpec(width, data, metrics) {
    const read = this.read || cssVar;
    const muted = read('--muted'), accent = read('--accent'), line = this.color(this.run) || accent || '#0072B2';
    const run = this.runs.get(this.run);
    const full = this.extent(metrics);
    // one explicit x domain on every panel (the zoom when there is one, else the run's whole
    // extent): a data-driven domain would differ per panel (throughput from its first interval,
    // OS samples from theirs) and the hover rule and markers would cross them at wrong times
    const x = { field: 't', type: 'quantitative', scale: { domain: { param: 'zoom' }, domainMin: full[0], domainMax: full[1], nice: false }, title: null };
    // the window brush lives on each panel's line
    const lines = data.names.map((_, i) => `p${i}-line`);
    // the window, drawn in every panel from the `win` selection (the selection's own brush
    // mark, kept invisible for dragging, shows only in the panel where it was drawn)
    const shade = {
      data: { values: [{}] },
      transform: [{ calculate: 'win && win.t ? win.t[0] : null', as: 'a' }, { calculate: 'win && win.t ? win.t[1] : null', as: 'b' },
        { filter: 'isValid(datum.a) && isValid(datum.b)' }],
      mark: { type: 'rect', fill: accent, fillOpacity: 0.07, stroke: accent, strokeOpacity: 0.6, clip: true },
      encoding: { x: { ...x, field: 'a' }, x2: { field: 'b' } },
    };
    const panel = (name, i) => ({
      width, height: i === 0 ? TOP_H : PANEL_H,
      layer: [
        { ...shade, name: `p${i}-window` },
        { name: lines[i], data: { name: 'rows' }, transform: [{ filter: { field: 'panel', equal: name } }],
          mark: { type: 'line', strokeWidth: 1, clip: true, color: line },
          encoding: { x: { ...x, axis: i === data.names.length - 1 ? {} : { labels: false, title: null } },
            y: { field: 'v', type: 'quantitative', title: describe(name, metrics), axis: { titleAngle: 0, titleAlign: 'left', titleAnchor: 'end', titleY: -6, titleX: 0, tickCount: 3, format: ',~r' }, scale: { zero: false } } } },
        ...((this.spec.markers || []).length ? [{ name: `p${i}-markers`, data: { name: 'markers' }, mark: { type: 'rule', strokeDash: [4, 3], color: muted, clip: true }, encoding: { x } }] : []),
      ],
    });
    return {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      datasets: { rows: data.rows, overview: data.overview, markers: this.spec.markers || [] },
      spacing: SPACING,
      params: [
        { name: 'win', views: lines, value: { x: this.window || run.window || full }, select: { type: 'interval', encodings: ['x'], mark: { fillOpacity: 0, strokeOpacity: 0 } } },
      ],
      vconcat: [...data.names.map(panel), {
        width, height: 36, data: { name: 'overview' }, mark: { type: 'line', strokeWidth: 0.8, color: line },
        encoding: {
          x: { field: 't', type: 'quantitative', title: 'time (s) — drag here to zoom', scale: { domain: full, nice: false } },
          y: { field: 'v', type: 'quantitative', axis: null },
        },
        params: [{ name: 'zoom', select: { type: 'interval', encodings: ['x'] }, ...(this.zoom ? { value: { x: this.zoom } } : {}) }],
      }],
    };
  }

  /** What the plot draws for a plot `width`: a panel per metric shown, on one x axis (tsplot.js). */
  plotState(width, metrics) {
    const read = this.read || cssVar;
    const run = this.runs.get(this.run);
    const data = this.datasets(metrics, width);
    const full = this.extent(metrics);
    return {
      detail: data.rows, overview: data.overview,
      panels: data.names.filter((n) => metrics.has(n)).map((name, i) => ({ name, title: describe(name, metrics), height: i === 0 ? TOP_H : PANEL_H })),
      runs: [{ id: this.run, color: this.color(this.run) || read('--accent') || '#0072B2', dash: [1, 0] }],
      full, stripFull: full, zoom: this.zoom, window: this.window || run.window || full, markers: this.spec.markers || [],
      theme: { fg: read('--fg'), muted: read('--muted'), rule: read('--rule'), shade: read('--shade'), accent: read('--accent'), font: read('--font') || 'sans-serif' },
    };
  }

  /** (Re)draws the chart: after loading the run, a new pick, scheme or width. */
  async draw() {
    const token = (this.token = (this.token || 0) + 1);
    const run = this.runs.get(this.run);
    const metrics = await this.load(run);
    if (token !== this.token) return;
    // the run's defaults until the reader picks; an empty pick is kept (the throughput alone)
    if (this.panels === null) this.panels = this.defaultPanels(run).filter((p) => metrics.has(p));
    this.pickers(run, metrics);
    this.width = plotWidth(this.canvas, 95);
    this.plot.draw(this.width, this.plotState(this.width, metrics));
    this.figure.metricsChart = this;   // for the browser tests and the console
    // the room main.css holds follows the panels drawn: another run or pick (hour 24 of
    // LinkBench has two panels where hour 1 has five) leaves no blank under the chart
    const drawn = this.plot.panels.length - 1;
    if (String(drawn) !== this.figure.style.getPropertyValue('--panels').trim()) this.figure.style.setProperty('--panels', String(drawn));
    this.updateStats();
    showLive(this.host, this.room);
    this.onHover(this.hoverAt);
  }

  /** A zoom step (null: the whole run): the panels follow once per frame; `dragging`: with
   * fewer points, the drag's end draws them all. */
  onZoom(extent, dragging = false) {
    this.zoom = extent && extent[1] - extent[0] > 1 ? extent : null;
    this.saveState();
    this.coarse = dragging;
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const buckets = Math.max(50, Math.round(this.width / 2));
      this.plot.setDetail(this.detailRows(this.coarse ? Math.min(buckets, DRAG_BUCKETS) : buckets), this.zoom);
      this.onHover(this.hoverAt);
    });
  }

  /** A window drag's step (null: the run's window): the brush moves at once, the table once per frame. */
  onWindow(extent) {
    const run = this.runs.get(this.run);
    this.window = extent ? extent.map((x) => Math.round(x)) : null;
    this.plot.setWindow(extent || run.window || this.extent(this.metrics));
    this.saveState();
    if (this.statsFrame) return;
    this.statsFrame = requestAnimationFrame(() => { this.statsFrame = 0; this.updateStats(); });
  }

  /** Each panel's box on the page and its markers' x (px), top to bottom (for the tests). */
  panelBounds() { return this.plot.panelBoxes(); }

  /** `data-hover-t` on the figure, the rule across every panel and the readout follow the
   * pointer at `pos` ({clientX, clientY}); null, or off the panels, removes them. */
  onHover(pos) {
    // every read of the layout first, then the writes: one layout per pointer step
    const g = pos && this.plot.state ? this.plot.geometry() : null;
    const parent = g ? this.rule.parentElement.getBoundingClientRect() : null;
    const x = g ? this.plot.timeAt(pos, g) : null;
    if (x === null || !Number.isFinite(x)) {
      delete this.figure.dataset.hoverT;
      this.rule.hidden = true;
      this.readout.replaceChildren(this.hint);
      return;
    }
    this.figure.dataset.hoverT = String(Math.round(x * 1000) / 1000);
    this.plot.placeRule(this.rule, x, g, parent);
    const parts = [el('b', { text: `t = ${fmt(x)} s` })];
    for (const name of this.shownNames()) {
      const s = this.metrics.get(name);
      if (!s || !s.t.length) continue;
      parts.push(' · ', `${describe(name, this.metrics)}: `, el('b', { text: fmt(s.v[nearestIndex(s.t, x)]) }));
    }
    this.readout.replaceChildren(...parts);
  }

  updateStats() {
    const run = this.runs.get(this.run);
    const [a, b] = this.window || run.window || this.extent(this.metrics);
    const keys = ['mean', 'p5', 'p50', 'p95', 'max'];
    const rows = this.shownNames().filter((n) => this.metrics.has(n)).map((name) => {
      const s = this.metrics.get(name);
      const st = windowStats(s.t, s.v, a, b, s.weighted);
      return el('tr', { 'data-metric': name }, el('th', { scope: 'row', text: describe(name, this.metrics) }), el('td', { class: 'number', text: String(st.n) }),
        ...keys.map((k) => el('td', { class: 'number', 'data-stat': k, 'data-value': st[k] === null || st[k] === undefined ? '' : String(st[k]), text: fmt(st[k]) })));
    });
    const head = el('tr', {}, el('th', { scope: 'col', text: 'Metric' }), el('th', { scope: 'col', class: 'number', text: 'n' }),
      ...keys.map((k) => el('th', { scope: 'col', class: 'number', text: k })));
    this.stats.replaceChildren(el('table', { class: 'data' },
      // the run is named by the picker above: a caption of one line at any width
      el('caption', { text: `Window ${fmt(a)}–${fmt(b)} s: every panel shown, per sample` }),
      el('thead', {}, head), el('tbody', {}, ...rows)));
  }
}
