// The "timeseries" chart kind (docs/charts.md): runs' per-interval metric over time.
// Detail view + overview strip with a zoom brush; the detail brush is the steady-state window,
// whose statistics per visible series are recomputed in the table under the chart. Lines are
// downsampled (M4 per bucket) to the visible range, so zooming in reaches full resolution.
// Run data is fetched per run, only when shown, from the ingest's series files (docs/data-schema.md).
// State round-trips through the URL hash.
// The live chart draws on canvas (tsplot.js): a window or zoom drag costs a frame, where Vega's
// scene redrawn per pointer step cost ~240 ms. The build's SVG (Vega, initialView) is the first
// paint and the no-JS view; PNG and SVG export draw the same Vega spec, made on demand.
// While the pointer is over the plot, the figure carries data-hover-t (s), a rule marks that
// time and the readout gives every visible series' value at the interval nearest to it.
import { plotWidth } from './layout.js';
import { TsPlot } from './tsplot.js';
import { loadVega } from './vega-loader.js';
import { PALETTE, chartConfig, cssVar } from './theme.js';
import { getState, setState } from './hash.js';
import { smooth, downsample, windowStats, nearestIndex, gapOf, gapBreaker } from './series.js';
import { addExportTools } from './export.js';
import { el, range, fixed as fmt, liveRoom, showLive } from './chartdom.js';
import { legendFor, withParams } from './labels.js';

const SMOOTHING = [1, 5, 15, 30, 60, 300];
/** The points a zoom drag's step draws at most (the drag's end draws every bucket). */
const DRAG_POINTS = 3000;
/** Dash patterns of the runs that share a colour: solid, then dashed, dotted, dash-dotted. */
const DASHES = [[1, 0], [6, 3], [2, 2], [8, 3, 2, 3]];

/** The inline style of a legend swatch: the run's colour, dashed as its line is. */
function swatchStyle(color, dash) {
  if (dash[1] === 0) return `background:${color}`;
  const [on, off] = dash;
  return `background:repeating-linear-gradient(90deg, ${color} 0 ${on}px, transparent ${on}px ${on + off}px)`;
}
const STATS = ['mean', 'p1', 'p5', 'p50', 'p95', 'p99', 'cv'];

/** A run's series as the chart keeps it: t and the metric's values (raw and smoothed). */
function runData(data, metric, where) {
  const v = data[metric];
  if (!Array.isArray(data.t) || !Array.isArray(v) || v.length !== data.t.length) throw new Error(`${where} has no column ${metric} beside t`);
  return { t: data.t, raw: v, width: 1, v, weighted: data.mean === 'time-weighted', downsampled: Boolean(data.downsampled) };
}

/** A run file as {ok, status, url, data}: the one main.js started fetching with the bundle
 * (chart-loader.js, taken once), else fetched now. */
async function fetchRun(url) {
  const early = window.benchlogRuns && window.benchlogRuns.get(url);
  if (early) { window.benchlogRuns.delete(url); return early; }
  const res = await fetch(url);
  return { ok: res.ok, status: res.status, url: res.url, data: res.ok ? await res.json() : null };
}

/** The compare page with this run picked, from the run's CSV URL (<base>data/<study>/series/<run>.csv). */
const compareHref = (csv) => csv.replace(/data\/([^/]+)\/series\/([^/]+)\.csv$/, 'compare/#compare.runs=$1/$2');

export class TimeSeriesChart {
  /** The initial view for the build's SVG (runs shown first, whole runs, unsmoothed, the
   * post's scale) in a figure `hostWidth` px wide; `load(url)` returns a run's series JSON
   * (the build reads the published file). Without `load`, none. */
  static initialView(spec, hostWidth, read, { load } = {}) {
    if (!load) return null;
    const chart = Object.create(TimeSeriesChart.prototype);
    chart.setState(spec, () => null);
    chart.read = read;
    for (const id of chart.shown) chart.cache.set(id, runData(load(chart.runs.get(id).url), spec.metric, id));
    const width = Math.max(160, Math.floor(hostWidth - 95));
    const vl = chart.vegaLiteSpec(width, chart.datasets(width));
    // the live chart's legend is HTML; the drawing alone names its runs in a Vega legend
    // (runs by name: data, drawn as text, never part of an expression)
    const name = (id) => chart.runs.get(id).name;
    for (const set of ['detail', 'overview']) vl.datasets[set] = vl.datasets[set].map((r) => ({ ...r, run: name(r.run) }));
    const named = (enc, legend) => ({ ...enc, legend, scale: { ...enc.scale, domain: enc.scale.domain.map(name) } });
    const detail = vl.vconcat[0].layer[1];
    // long run names: in columns when whole names fit side by side, else one column, wrapped (labels.js)
    const legend = legendFor(chart.shown.map(name), width, 'legendLines');
    detail.encoding = { ...detail.encoding, strokeDash: named(detail.encoding.strokeDash, null),
      color: named(detail.encoding.color, { orient: 'top', title: null, symbolType: 'stroke', ...legend.props }) };
    const overview = vl.vconcat[1];
    overview.encoding = { ...overview.encoding, color: named(overview.encoding.color, null), strokeDash: named(overview.encoding.strokeDash, null) };
    return { spec: withParams({ ...vl, config: chartConfig(read) }, [legend.param]), width };
  }

  /** The room the live chart takes (controls, legend, chart, statistics) is kept by main.css
   * (figure.chart[data-kind=timeseries] > .chart-view), with or without the build's SVG. */
  static expectedHeight() { return null; }

  constructor(figure, spec) {
    this.figure = figure;
    this.setState(spec, (key) => getState(spec.id, key));
    // what the tests and the export read as a Vega view's: the rows drawn, SVG and images
    this.view = {
      data: (name) => this.plot.data(name),
      toSVG: async () => (await this.exportView()).toSVG(),
      toImageURL: async (...args) => (await this.exportView()).toImageURL(...args),
    };
    this.build();
  }

  /** The view's state: the spec's defaults, or what `fromHash(key)` says (URL hash). */
  setState(spec, fromHash) {
    this.spec = spec;
    this.id = spec.id;
    // each run's files: the spec names their folder once (spec.series)
    this.runs = new Map(spec.runs.map((r) => [r.id, { url: `${spec.series}${r.id}.json`, csv: `${spec.series}${r.id}.csv`, ...r }]));
    const listed = (fromHash('runs') || '').split(',').filter((id) => this.runs.has(id));
    this.shown = listed.length ? listed : spec.show.slice();
    this.hidden = new Set((fromHash('hide') || '').split(',').filter((id) => this.runs.has(id)));
    this.smoothing = SMOOTHING.includes(Number(fromHash('s'))) ? Number(fromHash('s')) : 1;
    this.log = fromHash('log') === null ? !!spec.log : fromHash('log') === '1';
    this.defaultWindow = spec.window;
    this.window = range(fromHash('w')) || spec.window.slice();
    this.zoom = range(fromHash('z'));
    this.cache = new Map();
  }

  /** A run's colour: its label value's, as in the post's other charts (spec.colors, from
   * chart-parts/run-colors.html); a run without one takes the palette's next colour no run
   * of the chart has. */
  color(id) {
    const own = this.spec.colors || {};
    if (own[id]) return own[id];
    const taken = new Set(Object.values(own).map((c) => c.toLowerCase()));
    const free = PALETTE.filter((c) => !taken.has(c.toLowerCase()));
    const i = Math.max(0, this.shown.filter((s) => !own[s]).indexOf(id));
    return (free.length ? free : PALETTE)[i % (free.length || PALETTE.length)];
  }

  /** Runs of one colour (two runs of one engine) are told apart by their dash, in shown order. */
  dash(id) {
    const c = this.color(id);
    const k = Math.max(0, this.shown.filter((s) => this.color(s) === c).indexOf(id));
    return DASHES[k % DASHES.length];
  }

  swatch(id) { return el('span', { class: 'swatch', style: swatchStyle(this.color(id), this.dash(id)) }); }
  visible() { return this.shown.filter((id) => !this.hidden.has(id) && this.cache.has(id)); }

  /** Creates the controls, legend, chart, readout, statistics and run picker. */
  build() {
    this.host = this.figure.querySelector('.chart-view');
    const smoothSel = el('select', { 'aria-label': 'Smoothing (rolling mean width)' });
    for (const w of SMOOTHING) smoothSel.append(el('option', { value: String(w), text: w === 1 ? 'none' : `${w} intervals` }));
    smoothSel.value = String(this.smoothing);
    smoothSel.addEventListener('change', () => { this.smoothing = Number(smoothSel.value); this.saveState(); this.refresh(); });
    const logBox = el('input', { type: 'checkbox' });
    logBox.checked = this.log;
    logBox.addEventListener('change', () => { this.log = logBox.checked; this.saveState(); this.draw(); });
    this.winFrom = el('input', { type: 'number', step: String(this.spec.interval), 'aria-label': 'Window start (s)', class: 'num' });
    this.winTo = el('input', { type: 'number', step: String(this.spec.interval), 'aria-label': 'Window end (s)', class: 'num' });
    const onWin = () => {
      const w = [Number(this.winFrom.value), Number(this.winTo.value)];
      if (w[0] < w[1]) { this.window = w; this.saveState(); this.draw(); }
    };
    this.winFrom.addEventListener('change', onWin);
    this.winTo.addEventListener('change', onWin);
    const button = (text, fn) => { const b = el('button', { type: 'button', text }); b.addEventListener('click', fn); return b; };
    const controls = el('div', { class: 'chart-controls', role: 'group', 'aria-label': 'Chart controls' },
      el('label', {}, 'Smoothing ', smoothSel),
      el('label', {}, logBox, ' log y'),
      el('span', { class: 'win-inputs' }, 'Window ', this.winFrom, ' – ', this.winTo, ' s'),
      button('Zoom to window', () => { this.zoom = this.window.slice(); this.saveState(); this.draw(); }),
      button('Full run', () => { this.zoom = null; this.saveState(); this.draw(); }));
    this.legend = el('ul', { class: 'chart-legend', 'aria-label': 'Series (press to hide or show)' });
    this.canvas = el('div', { class: 'ts-canvas' });
    this.rule = el('div', { class: 'ts-rule', hidden: '' });
    this.hint = el('span', { class: 'ts-hint', text: 'Hover the chart to read every series at one time; drag in the chart to set the window, in the strip below it to zoom.' });
    this.readT = el('b', { class: 'ts-t' });
    this.cells = el('span', { class: 'ts-cells', hidden: '' });
    this.readout = el('div', { class: 'ts-readout', 'aria-live': 'off' }, this.hint, this.cells);
    this.plot = new TsPlot(this.canvas, {
      window: (w) => this.onWindow(w),
      zoom: (z) => this.onZoom(z, true),
      end: (name) => { if (name === 'zoom') this.onZoom(this.zoom); }, // full resolution again
    });
    const plot = el('div', { class: 'ts-plot' }, this.canvas, this.rule);
    plot.addEventListener('pointermove', (e) => this.onPointer(e));
    plot.addEventListener('pointerleave', () => this.onHover(null));
    this.stats = el('div', { class: 'ts-stats table-wrap' });
    this.picker = this.buildPicker();
    // built out of sight; the build's SVG stays until the first draw shows it (showLive)
    this.room = liveRoom(this.host);
    this.room.append(controls, this.legend, plot, this.readout, this.stats, this.picker);
    addExportTools(this.figure, this.id, () => this.view, () => this.shownCsv());
  }

  /** A Vega view of the chart as shown (the build's drawing, at the live width), for export. */
  async exportView() {
    const width = this.width;
    const vl = this.vegaLiteSpec(width, this.datasets(width));
    return (await loadVega()).headlessView({ ...vl, config: chartConfig() });
  }

  buildPicker() {
    const list = el('ul');
    this.boxes = new Map();
    const more = el('details', { class: 'ts-more' }, el('summary', { text: `All runs (${this.runs.size}): choose what to draw` }), list);
    // the list is made when first opened: hundreds of runs are no weight before that
    more.addEventListener('toggle', () => { if (more.open && !list.firstChild) this.fillPicker(list); });
    return more;
  }

  fillPicker(list) {
    for (const r of this.runs.values()) {
      const box = el('input', { type: 'checkbox', value: r.id });
      box.checked = this.shown.includes(r.id);
      box.addEventListener('change', () => {
        if (box.checked) this.shown.push(r.id); else this.shown = this.shown.filter((id) => id !== r.id);
        this.hidden.delete(r.id);
        this.saveState();
        this.draw();
      });
      this.boxes.set(r.id, box);
      list.append(el('li', {}, el('label', {}, box, ` ${r.name}${r.published ? '' : ' (extra run)'}`), ' ',
        el('a', { href: r.csv, download: '', class: 'run-csv', text: 'CSV' }),
        ' ', el('a', { href: compareHref(r.csv), class: 'run-compare', text: 'compare' })));
    }
  }

  saveState() {
    const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
    setState(this.id, 'w', same(this.window, this.defaultWindow) ? null : this.window.join('-'));
    setState(this.id, 'z', this.zoom ? this.zoom.map(Math.round).join('-') : null);
    setState(this.id, 's', this.smoothing === 1 ? null : this.smoothing);
    setState(this.id, 'log', this.log === !!this.spec.log ? null : (this.log ? '1' : '0'));
    setState(this.id, 'hide', Array.from(this.hidden).filter((id) => this.shown.includes(id)).join(','));
    setState(this.id, 'runs', this.shown.join(',') === this.spec.show.join(',') ? null : this.shown.join(','));
  }

  /** Fetches the runs shown but not loaded yet: each run's columnar series file, written by
   * the ingest (docs/data-schema.md), of which the chart keeps `t` and the metric's column. */
  async load() {
    const metric = this.spec.metric;
    await Promise.all(this.shown.filter((id) => !this.cache.has(id)).map(async (id) => {
      const res = await fetchRun(this.runs.get(id).url);
      if (!res.ok) throw new Error(`${res.status} fetching ${res.url}`);
      this.cache.set(id, runData(res.data, metric, res.url));
    }));
  }

  series(id) {
    const s = this.cache.get(id);
    if (s.width !== this.smoothing) { s.v = smooth(s.raw, this.smoothing); s.width = this.smoothing; }
    return s;
  }

  /** The CSV of what is shown: every interval (at full resolution, not the points drawn,
   * which are per-pixel extremes at irregular times) of the visible runs in the zoom range,
   * smoothed as drawn. */
  shownCsv() {
    const [x0, x1] = this.zoom || this.extent();
    const rows = [];
    for (const id of this.visible()) {
      const { t, v } = this.series(id);
      for (let i = 0; i < t.length; i++) if (t[i] >= x0 && t[i] <= x1) rows.push({ run: id, t: t[i], value: v[i] });
    }
    return { columns: ['run', 't', 'value'], rows };
  }

  extent() {
    let lo = Infinity, hi = -Infinity;
    for (const id of this.shown) {
      const s = this.cache.get(id);
      if (s && s.t.length) { lo = Math.min(lo, s.t[0] - this.spec.interval); hi = Math.max(hi, s.t[s.t.length - 1]); }
    }
    return Number.isFinite(lo) ? [Math.max(0, lo), hi] : [0, 1];
  }

  /** Rows for the detail and overview datasets for the current state. */
  datasets(width) {
    const full = this.extent();
    const [x0, x1] = this.zoom || full;
    const overview = [];
    const ok = (v) => v !== null && (!this.log || v > 0);
    for (const id of this.visible()) {
      const s = this.series(id);
      const oBuckets = Math.max(40, Math.round(width / 5));
      downsample(s.t, s.v, full[0], full[1], oBuckets, gapBreaker(overview, { run: id }, gapOf(s, (full[1] - full[0]) / oBuckets), ok));
    }
    return { detail: this.detailRows(width, x0, x1), overview };
  }

  /** The detail rows of the range [x0, x1]: per-bucket extremes, every point when zoomed in. */
  detailRows(width, x0, x1) {
    const detail = [];
    const ok = (v) => v !== null && (!this.log || v > 0);
    const buckets = Math.max(50, Math.round(width / 2));
    for (const id of this.visible()) {
      const s = this.series(id);
      downsample(s.t, s.v, x0, x1, buckets, gapBreaker(detail, { run: id }, gapOf(s, (x1 - x0) / buckets), ok));
    }
    return detail;
  }

  vegaLiteSpec(width, data) {
    const shown = this.shown;
    const read = this.read || cssVar;
    const muted = read('--muted'), accent = read('--accent'), shade = read('--shade');
    this.detailHeight = width < 420 ? 210 : 280;
    const x = { field: 't', type: 'quantitative', scale: { domain: { param: 'zoom' }, nice: false }, title: null };
    const color = { field: 'run', type: 'nominal', legend: null, scale: { domain: shown, range: shown.map((id) => this.color(id)) } };
    const dash = { field: 'run', type: 'nominal', legend: null, scale: { domain: shown, range: shown.map((id) => this.dash(id)) } };
    const yTitle = `${this.spec.metric}${this.smoothing > 1 ? ` (rolling mean of ${this.smoothing})` : ''}`;
    const full = this.extent();
    return {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      datasets: {
        detail: data.detail, overview: data.overview,
        warm: [{ a: full[0], b: this.defaultWindow[0] }],
        markers: this.spec.markers || [],
      },
      spacing: 8,
      vconcat: [{
        width, height: this.detailHeight,
        layer: [
          { data: { name: 'warm' }, mark: { type: 'rect', color: shade, clip: true }, encoding: { x: { ...x, field: 'a' }, x2: { field: 'b' } } },
          {
            data: { name: 'detail' }, mark: { type: 'line', strokeWidth: 1.1, clip: true },
            encoding: {
              x, y: { field: 'v', type: 'quantitative', title: yTitle, scale: this.log ? { type: 'log' } : { zero: true } },
              color, strokeDash: dash, detail: { field: 'run' },
            },
            params: [{ name: 'win', value: { x: this.window }, select: { type: 'interval', encodings: ['x'], mark: { fill: accent, fillOpacity: 0.07, stroke: accent, strokeOpacity: 0.6 } } }],
          },
          // markers only when there are some: an empty layer's extent of t is infinite (Vega warns)
          ...((this.spec.markers || []).length ? [
            { data: { name: 'markers' }, mark: { type: 'rule', strokeDash: [4, 3], color: muted, clip: true }, encoding: { x } },
            { data: { name: 'markers' }, mark: { type: 'text', align: 'left', baseline: 'top', dx: 4, dy: 4, color: muted, fontSize: 11, clip: true }, encoding: { x, y: { value: 0 }, text: { field: 'label' } } },
          ] : []),
        ],
      }, {
        width, height: 46,
        data: { name: 'overview' },
        mark: { type: 'line', strokeWidth: 0.8 },
        encoding: {
          x: { field: 't', type: 'quantitative', title: 'time (s) — drag here to zoom', scale: { domain: full, nice: false } },
          y: { field: 'v', type: 'quantitative', axis: null, scale: this.log ? { type: 'log' } : { zero: true } },
          color, strokeDash: dash, detail: { field: 'run' },
        },
        params: [{ name: 'zoom', select: { type: 'interval', encodings: ['x'] }, ...(this.zoom ? { value: { x: this.zoom } } : {}) }],
      }],
    };
  }

  /** The x range the detail plot spans unzoomed: the runs, the warm-up shading, the markers. */
  detailDomain() {
    const full = this.extent(), marks = (this.spec.markers || []).map((m) => m.t);
    return [Math.min(full[0], this.defaultWindow[0], ...marks), Math.max(full[1], ...marks)];
  }

  /** What the plot draws for a plot `width`: rows, styles, ranges, theme (tsplot.js). */
  plotState(width) {
    const read = this.read || cssVar;
    const full = this.extent();
    return {
      ...this.datasets(width),
      runs: this.shown.map((id) => ({ id, color: this.color(id), dash: this.dash(id) })),
      full: this.detailDomain(), stripFull: full, zoom: this.zoom, window: this.window,
      warm: [full[0], this.defaultWindow[0]], markers: this.spec.markers || [], log: this.log,
      yTitle: `${this.spec.metric}${this.smoothing > 1 ? ` (rolling mean of ${this.smoothing})` : ''}`,
      theme: { fg: read('--fg'), muted: read('--muted'), rule: read('--rule'), shade: read('--shade'), accent: read('--accent'), font: read('--font') || 'sans-serif' },
    };
  }

  /** (Re)draws the whole chart: after loading runs, or when the scale or runs change. */
  async draw() {
    const token = (this.token = (this.token || 0) + 1);
    await this.load();
    if (token !== this.token) return;
    const width = plotWidth(this.canvas, 95);
    this.width = width;
    this.plot.draw(width, this.plotState(width));
    this.detailHeight = this.plot.detailHeight;
    this.updateLegend();
    this.updateStats();
    this.winFrom.value = this.window[0];
    this.winTo.value = this.window[1];
    for (const [id, box] of this.boxes) box.checked = this.shown.includes(id);
    showLive(this.host, this.room);
    this.buildReadout();
  }

  /** Redraws with recomputed rows (smoothing, hidden series), keeping the layout. */
  refresh() {
    if (!this.plot.state) return;
    this.plot.draw(this.width, this.plotState(this.width));
    this.updateLegend();
    this.updateStats();
    this.buildReadout();
  }

  /** The readout's cells for the visible runs, made once per drawing: a hover step then only
   * rewrites their numbers. The first hover after it measures the heights of the hint and of
   * the cells, once; from then on the readout (main.css `.sized`: laid out on its own,
   * `contain: strict`) takes the cells' height when a hover starts and the hint's when it ends,
   * so a step lays out the readout alone, not the post under it (a new line of values, growing
   * or shrinking, laid out the whole 7,700 px post at each step). */
  buildReadout() {
    this.values = new Map();
    const parts = [this.readT];
    for (const id of this.visible()) {
      const value = el('b', { 'data-run': id });
      this.values.set(id, value);
      parts.push(' · ', el('span', { class: 'ts-cell' }, this.swatch(id), ` ${this.runs.get(id).name}: `, value));
    }
    this.cells.replaceChildren(...parts);
    this.heights = null;
    this.readout.classList.remove('sized');
    this.readout.style.height = '';
    if ('t' in this.readout.dataset) { delete this.readout.dataset.t; this.onHover(this.hoverX); }
  }

  /** Shows the readout's cells (`on`) or its hint, at the height measured for each. */
  showCells(on) {
    const r = this.readout;
    if (!this.heights && r.isConnected) {
      // the hint as laid out in the page, then the cells in its place: one layout, when a hover
      // starts (the post below moves then anyway)
      this.cells.hidden = false; this.hint.hidden = true;
      const cells = r.scrollHeight;
      this.cells.hidden = true; this.hint.hidden = false;
      const hint = r.offsetHeight;
      this.heights = { cells: `${Math.max(cells, hint)}px`, hint: `${hint}px` };
      r.classList.add('sized');
    }
    this.cells.hidden = !on;
    this.hint.hidden = on;
    if (this.heights) r.style.height = this.heights[on ? 'cells' : 'hint'];
  }

  /** The width to downsample for while a zoom is dragged: about DRAG_POINTS points in all (a
   * bucket per 2 px, two points each, and at least 50 buckets: detailRows), at most half the
   * plot's width. Drawing the lines
   * is most of a step's cost (software canvas: ~13,000 points of 37 runs took 80-200 ms). */
  dragWidth() {
    const runs = Math.max(1, this.visible().length);
    return Math.min(this.width / 2, Math.max(50, DRAG_POINTS / runs));
  }

  /** A zoom step (null: the whole run): the detail plot follows, once per frame; `dragging`:
   * with fewer points (dragWidth), the drag's end draws them all. */
  onZoom(extent, dragging = false) {
    this.zoom = extent && extent[1] - extent[0] > this.spec.interval ? extent : null;
    this.saveState();
    this.coarse = dragging;
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const [x0, x1] = this.zoom || this.extent();
      this.plot.setDetail(this.detailRows(this.coarse ? this.dragWidth() : this.width, x0, x1), this.zoom);
      this.onHover(this.hoverX);
    });
  }

  /** A window drag's step (null: the default window): the brush moves at once, the inputs and
   * the statistics once per frame. */
  onWindow(extent) {
    this.window = extent ? extent.map((x) => Math.round(x / this.spec.interval) * this.spec.interval) : this.defaultWindow.slice();
    this.plot.setWindow(extent || this.window);
    this.saveState();
    if (this.statsFrame) return;
    this.statsFrame = requestAnimationFrame(() => {
      this.statsFrame = 0;
      this.winFrom.value = this.window[0];
      this.winTo.value = this.window[1];
      this.updateStats();
    });
  }

  onPointer(e) {
    this.hoverX = { clientX: e.clientX, clientY: e.clientY };
    this.onHover(this.hoverX);
  }

  /** Sets data-hover-t, the rule and the readout for the pointer position `pos` (null: none). */
  onHover(pos) {
    // every read of the layout first, then the writes: one layout per pointer step
    const g = pos && this.plot.state ? this.plot.geometry() : null;
    const parent = g ? this.rule.parentElement.getBoundingClientRect() : null;
    const x = g ? this.plot.timeAt(pos, g) : null;
    if (!pos) this.hoverX = null;
    if (x === null || !Number.isFinite(x)) {
      delete this.figure.dataset.hoverT;
      this.rule.hidden = true;
      if ('t' in this.readout.dataset) { this.showCells(false); delete this.readout.dataset.t; }
      return;
    }
    this.figure.dataset.hoverT = String(Math.round(x * 1000) / 1000);
    this.plot.placeRule(this.rule, x, g, parent);
    if (!('t' in this.readout.dataset)) this.showCells(true); // the post below moves once, here
    this.readout.dataset.t = this.figure.dataset.hoverT;
    this.readT.textContent = `t = ${fmt(x, 0)} s`;
    for (const [id, cell] of this.values) {
      const { t, v } = this.series(id);
      const i = nearestIndex(t, x);
      cell.dataset.t = String(t[i]);
      cell.textContent = fmt(v[i]);
    }
  }

  updateLegend() {
    const items = this.shown.filter((id) => this.cache.has(id)).map((id) => {
      const b = el('button', { type: 'button', 'aria-pressed': String(!this.hidden.has(id)), title: 'Hide or show this series' },
        this.swatch(id), this.runs.get(id).name);
      b.addEventListener('click', () => {
        if (this.hidden.has(id)) this.hidden.delete(id); else this.hidden.add(id);
        this.saveState();
        this.refresh();
      });
      return el('li', {}, b);
    });
    this.legend.replaceChildren(...items);
  }

  /** The window statistics table: raw (unsmoothed) per-interval values, a < t <= b. */
  updateStats() {
    const [a, b] = this.window;
    const ids = this.visible();
    const cells = (id) => {
      const { t, raw, weighted } = this.cache.get(id);
      const s = windowStats(t, raw, a, b, weighted);
      return [String(s.n), ...STATS.map((k) => [s[k] === null ? '' : String(s[k]), fmt(s[k], k === 'cv' ? 3 : 1)])];
    };
    const caption = `Window ${fmt(a, 0)}–${fmt(b, 0)} s: ${this.spec.metric} per interval, unsmoothed (CV = standard deviation / mean, the jitter)`
      + (ids.some((id) => this.cache.get(id).weighted) ? '; mean and CV weighted by interval length, as the intervals differ: the mean is the operations over the elapsed time' : '')
      + (ids.some((id) => this.cache.get(id).downsampled) ? '; a run kept at lower resolution is counted in its means (the runs table has its full-resolution statistics for the steady-state window)' : '');
    const table = this.stats.firstElementChild;
    if (table && table.dataset.runs === ids.join(',')) {
      // the same runs (a window drag): new numbers in the cells, no new table to style
      table.caption.textContent = caption;
      for (const tr of table.tBodies[0].rows) {
        const [n, ...stats] = cells(tr.dataset.run);
        tr.cells[1].textContent = n;
        stats.forEach(([value, text], j) => { tr.cells[2 + j].dataset.value = value; tr.cells[2 + j].textContent = text; });
      }
      return;
    }
    const head = el('tr', {}, el('th', { scope: 'col', text: 'Series' }), el('th', { scope: 'col', class: 'number', text: 'n' }),
      ...STATS.map((k) => el('th', { scope: 'col', class: 'number', text: k === 'cv' ? 'CV' : k })));
    const rows = ids.map((id) => {
      const [n, ...stats] = cells(id);
      return el('tr', { 'data-run': id }, el('th', { scope: 'row' }, this.swatch(id), ` ${this.runs.get(id).name}`),
        el('td', { class: 'number', text: n }),
        ...stats.map(([value, text], j) => el('td', { class: 'number', 'data-stat': STATS[j], 'data-value': value, text })));
    });
    this.stats.replaceChildren(el('table', { class: 'data', 'data-runs': ids.join(',') },
      el('caption', { text: caption }), el('thead', {}, head), el('tbody', {}, ...rows)));
  }
}
