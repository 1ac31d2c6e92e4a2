// The "metrics" chart kind (docs/charts.md): one run as a stack of linked panels on one time
// axis: its throughput on top, then the other columns of its series (latency, errors, ...)
// and its linked metrics (vmstat, iostat per device, server counters, efficiency per
// operation; ingest/join/linked.py), each a small panel with its own y scale. Zooming (the strip at
// the bottom), the window brush and the hover rule are shared by every panel; markers cross
// them all. The window statistics table covers every panel shown. State: `<id>.run`,
// `<id>.p` (panels), `<id>.w`, `<id>.z` in the URL hash.
import { renderFitted, plotWidth } from './render.js';
import { getState, setState } from './hash.js';
import { downsample, windowStats, nearestIndex, gapOf, gapBreaker } from './series.js';
import { addExportTools } from './export.js';
import { chartConfig, cssVar } from './theme.js';
import { el, range, significant as fmt, plotOrigin, liveRoom, showLive } from './chartdom.js';

const present = (v) => v !== null;

const TOP_H = 150, PANEL_H = 70, SPACING = 6;

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
    this.view = null;
    this.build();
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
    // the hover follows the pointer over every panel, inside the window brush too (DOM events:
    // the brush's own mark would swallow a Vega pointer selection)
    const plot = el('div', { class: 'ts-plot' }, this.canvas, this.rule);
    plot.addEventListener('pointermove', (e) => this.onHover(this.view ? this.timeAt(e) : null));
    plot.addEventListener('pointerleave', () => this.onHover(null));
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

  datasets(metrics, width) {
    this.metrics = metrics;
    const full = this.extent(metrics);
    const [x0, x1] = this.zoom || full;
    const rows = [], overview = [];
    const names = [this.runs.get(this.run).metric, ...this.panels];
    for (const name of names) {
      const s = metrics.get(name);
      if (!s) continue;
      const buckets = Math.max(50, Math.round(width / 2));
      downsample(s.t, s.v, x0, x1, buckets, gapBreaker(rows, { panel: name }, gapOf(s, (x1 - x0) / buckets), present));
    }
    const top = metrics.get(names[0]);
    const buckets = Math.max(40, Math.round(width / 5));
    downsample(top.t, top.v, full[0], full[1], buckets, gapBreaker(overview, {}, gapOf(top, (full[1] - full[0]) / buckets), present));
    this.rows = rows;
    return { rows, overview, names };
  }

  plotted() { return { columns: ['panel', 't', 'value'], rows: (this.rows || []).map((r) => ({ panel: r.panel, t: r.t, value: r.v })) }; }

  /** The CSV of what is shown: every sample (full resolution, not the points drawn) of the
   * panels shown, in the zoom range. */
  shownCsv() {
    const metrics = this.metrics;
    if (!metrics) return this.plotted();
    const [x0, x1] = this.zoom || this.extent(metrics);
    const rows = [];
    for (const name of [this.runs.get(this.run).metric, ...this.panels]) {
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

  async draw() {
    const token = (this.token = (this.token || 0) + 1);
    const run = this.runs.get(this.run);
    const metrics = await this.load(run);
    if (token !== this.token) return;
    // the run's defaults until the reader picks; an empty pick is kept (the throughput alone)
    if (this.panels === null) this.panels = this.defaultPanels(run).filter((p) => metrics.has(p));
    this.pickers(run, metrics);
    const width = plotWidth(this.canvas, 110);
    this.width = width;
    const data = this.datasets(metrics, width);
    if (this.view) this.view.finalize();
    const result = await renderFitted(this.canvas, this.vegaLiteSpec(width, data, metrics), width, { renderer: 'canvas', tooltip: false });
    if (token !== this.token) { result.view.finalize(); return; }
    this.view = result.view;
    this.figure.metricsChart = this;   // for the browser tests and the console: the live view
    this.metrics = metrics;
    // the room main.css holds follows the panels drawn: another run or pick (hour 24 of
    // LinkBench has two panels where hour 1 has five) leaves no blank under the chart
    const drawn = data.names.length - 1;
    if (String(drawn) !== this.figure.style.getPropertyValue('--panels').trim()) this.figure.style.setProperty('--panels', String(drawn));
    this.view.addSignalListener('zoom', (_, v) => this.onZoom(v && v.t ? v.t : null));
    this.view.addSignalListener('win', (_, v) => this.onWindow(v && v.t ? v.t : null));
    this.updateStats();
    showLive(this.host, this.room);
  }

  onZoom(extent) {
    this.zoom = extent && extent[1] - extent[0] > 1 ? extent : null;
    this.saveState();
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const data = this.datasets(this.metrics, this.width);
      this.view.data('rows', data.rows).runAsync();
    });
  }

  onWindow(extent) {
    this.window = extent ? extent.map((x) => Math.round(x)) : null;
    this.saveState();
    this.updateStats();
  }

  /** Where the panels lie in the view (px from its first plot's origin): each panel group's
   * real bounds as Vega laid them out (titles and axes included in the gaps), the overview
   * strip (the last group) left out. */
  panelBounds() {
    const root = this.view.scenegraph().root.items[0];
    const groups = root.items.filter((m) => m.marktype === 'group' && /^concat_\d+_group$/.test(m.name))
      .sort((a, b) => Number(a.name.split('_')[1]) - Number(b.name.split('_')[1]))
      .map((m) => m.items[0]);
    return groups.slice(0, -1).map((g) => ({ x: g.x, y: g.y, width: g.width, height: g.height }));
  }

  /** The time under pointer event `e`, or null off the panels (from the top of the first to
   * the bottom of the last, across their width). Every panel has the same x domain. */
  timeAt(e) {
    const drawing = this.canvas.querySelector('canvas, svg');
    if (!this.view || !drawing) return null;
    const bounds = this.panelBounds();
    const first = bounds[0], last = bounds[bounds.length - 1];
    const box = drawing.getBoundingClientRect();
    const [ox, oy] = plotOrigin(this.view);
    const x = e.clientX - box.left - ox - first.x, y = e.clientY - box.top - oy;
    if (x < 0 || x > first.width || y < first.y || y > last.y + last.height) return null;
    return this.view.scale('concat_0_x').invert(x);
  }

  /** The hover rule at time `t`, from the top of the first panel to the bottom of the last. */
  placeRule(t) {
    const bounds = this.panelBounds();
    const first = bounds[0], last = bounds[bounds.length - 1];
    const box = this.canvas.querySelector('canvas, svg').getBoundingClientRect();
    const parent = this.rule.parentElement.getBoundingClientRect();
    const [ox, oy] = plotOrigin(this.view);
    Object.assign(this.rule.style, { left: `${box.left - parent.left + ox + first.x + this.view.scale('concat_0_x')(t)}px`,
      top: `${box.top - parent.top + oy + first.y}px`, height: `${last.y + last.height - first.y}px` });
    this.rule.hidden = false;
  }

  /** `data-hover-t` on the figure, the rule across every panel and the readout follow the
   * pointer; null removes them. */
  onHover(x) {
    if (x === null || x === undefined || !Number.isFinite(x)) {
      delete this.figure.dataset.hoverT;
      this.rule.hidden = true;
      this.readout.replaceChildren(this.hint);
      return;
    }
    this.figure.dataset.hoverT = String(Math.round(x * 1000) / 1000);
    this.placeRule(x);
    const parts = [el('b', { text: `t = ${fmt(x)} s` })];
    for (const name of [this.runs.get(this.run).metric, ...this.panels]) {
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
    const rows = [run.metric, ...this.panels].filter((n) => this.metrics.has(n)).map((name) => {
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
