// Chart bundle, loaded only on pages with charts: draws every figure.chart from its JSON spec
// block (#<id>-spec) by kind, follows the OS colour scheme and the figure width, and marks each
// figure data-state="rendered" (or "error") for readers of the DOM such as the browser tests.
import { renderFitted, plotWidth, nextTask } from './render.js';
import { onSchemeChange } from './theme.js';
import { addExportTools } from './export.js';
import { getState, setState } from './hash.js';
import { TimeSeriesChart } from './timeseries.js';
import { RatioChart } from './ratio.js';

/** bars and line: a Vega-Lite spec made by the Hugo partial; log y can be toggled. */
class TableChart {
  constructor(figure, spec) {
    this.figure = figure;
    this.spec = spec;
    this.id = figure.id;
    this.host = figure.querySelector('.chart-view');
    const unit = spec.facet ? spec.spec : spec;
    this.specLog = (unit.encoding.y.scale || {}).type === 'log'; // the post asked for log y
    const fromHash = getState(this.id, 'log');
    this.log = fromHash === null ? this.specLog : fromHash === '1';
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = this.log;
    box.addEventListener('change', () => {
      this.log = box.checked;
      setState(this.id, 'log', this.log === this.specLog ? null : (this.log ? '1' : '0'));
      this.draw();
    });
    const label = document.createElement('label');
    label.className = 'chart-controls';
    label.append(box, ' log scale');
    this.canvas = document.createElement('div');
    this.host.classList.remove('pending');
    this.host.replaceChildren(label, this.canvas);
    addExportTools(figure, this.id, () => this.view, () => this.plottedRows());
  }

  plottedRows() {
    const rows = this.spec.data.values;
    return { columns: Object.keys(rows[0] || {}), rows };
  }

  withLog(spec) {
    const unit = spec.facet ? spec.spec : spec;
    const linear = this.specLog ? { zero: (unit.mark.type || unit.mark) === 'bar' } : unit.encoding.y.scale;
    const y = { ...unit.encoding.y, scale: this.log ? { type: 'log' } : linear };
    const patched = { ...unit, encoding: { ...unit.encoding, y } };
    return spec.facet ? { ...spec, spec: patched } : patched;
  }

  /** Whether the category labels would not fit side by side under the plot (~7 px a letter). */
  crowded(enc) {
    if (enc.x.type !== 'nominal') return false;
    const labels = new Set(this.spec.data.values.map((r) => String(r[enc.x.field])));
    const letters = Array.from(labels).reduce((n, l) => n + l.length + 2, 0);
    return letters * 7 > this.host.clientWidth - 100;
  }

  /** On narrow screens, or when their labels are crowded, grouped bars and dot plots lie on
   * their side (categories on y); on narrow screens panel labels go above the panels. */
  transposed(spec) {
    const unit = spec.facet ? spec.spec : spec;
    const enc = unit.encoding;
    const narrow = this.host.clientWidth < 520;
    if (!narrow && !this.crowded(enc)) return spec;
    let patched = unit;
    if (enc.x.type === 'nominal') {
      const { x, y, xOffset, ...rest } = enc;
      patched = { ...unit, encoding: { ...rest, y: { ...x, title: null, axis: { labelLimit: narrow ? 110 : 240 } }, x: y, ...(xOffset ? { yOffset: xOffset } : {}) } };
    }
    if (!spec.facet || !narrow) return spec.facet ? { ...spec, spec: patched } : patched;
    // panel labels above each panel ("Cache GB 27") instead of a column on the left
    const row = spec.facet.row;
    const header = { title: null, labelOrient: 'top', labelAnchor: 'start', labelAngle: 0, labelFontWeight: 600,
      labelExpr: `${JSON.stringify(`${row.title} `)} + datum.label` };
    return { ...spec, facet: { ...spec.facet, row: { ...row, header } }, spec: patched };
  }

  async draw() {
    const spec = this.transposed(this.withLog(this.spec));
    if (this.view) this.view.finalize();
    // room for axes, legend and panel headers, so that one render usually fits
    const reserve = (this.spec.facet ? 130 : 100) + (spec.encoding && spec.encoding.yOffset || spec.spec && spec.spec.encoding.yOffset ? 40 : 0);
    this.view = (await renderFitted(this.canvas, spec, plotWidth(this.canvas, reserve))).view;
  }
}

/** Height (px) a chart will likely take, from its spec: panels x panel height plus axes and
 * controls; the placeholder keeps that room so drawing the chart moves nothing on the page. */
function expectedHeight(figure, spec) {
  if (figure.dataset.kind === 'timeseries') return figure.clientWidth < 520 ? 820 : 700;
  const unit = spec.facet ? spec.spec : spec;
  const facet = spec.facet && (spec.facet.row || spec.facet.column);
  const panels = facet && spec.facet.row ? new Set(spec.data.values.map((r) => r[facet.field])).size : 1;
  return panels * (unit.height || 200) + (spec.facet ? 140 : 80);
}

/** Sizes the placeholders of the charts not drawn yet (figures with a pending view). */
function holdRoom(figures) {
  for (const figure of figures) {
    const host = figure.querySelector('.chart-view.pending');
    const block = host && document.getElementById(`${figure.id}-spec`);
    if (!block) continue;
    try { host.style.minHeight = `${expectedHeight(figure, JSON.parse(block.textContent))}px`; } catch (err) { /* start() reports it */ }
  }
}

const KINDS = { bars: TableChart, line: TableChart, ratio: RatioChart, timeseries: TimeSeriesChart };

async function start(figure) {
  try {
    const spec = JSON.parse(document.getElementById(`${figure.id}-spec`).textContent);
    const Kind = KINDS[figure.dataset.kind];
    if (!Kind) throw new Error(`unknown chart kind ${figure.dataset.kind}`);
    const chart = new Kind(figure, spec);
    if (chart.draw && !(chart instanceof RatioChart)) await chart.draw();
    figure.querySelector('.chart-view').style.minHeight = '';
    figure.dataset.state = 'rendered';
    figure.benchlogChart = chart; // for tests and the render benchmark
    figure.dataset.renderedAt = Math.round(performance.now());
    return chart;
  } catch (err) {
    figure.dataset.state = 'error';
    console.error(`chart ${figure.id}:`, err);
    return null;
  }
}

/** How far outside the viewport a chart starts drawing, so it is ready when scrolled to. */
const NEAR = '50% 0px';

/**
 * Draws the charts lazily: a chart is drawn when it comes near the viewport (until then its
 * light placeholder keeps the room), one chart per task so the page stays responsive, the
 * ones on screen first; once the reader scrolls, the others follow in idle time. Printing
 * draws every chart. `html[data-charts=rendered]` is set when
 * every chart of the page has been drawn.
 */
function main() {
  const figures = Array.from(document.querySelectorAll('figure.chart[data-kind]'));
  const charts = [];
  const queue = new Set(), asked = new Set();
  let left = figures.length, pumping = false;
  const finished = () => {
    window.benchlogRenderedAt = performance.now(); // read by bench/render_bench.py
    document.documentElement.dataset.charts = 'rendered';
  };
  if (!left) { finished(); return; }
  holdRoom(figures);
  const onScreen = (f) => { const r = f.getBoundingClientRect(); return r.bottom > 0 && r.top < window.innerHeight; };
  async function pump() {
    if (pumping) return;
    pumping = true;
    while (queue.size) {
      await nextTask();
      const all = Array.from(queue);
      const figure = all.find(onScreen) || all[0];
      queue.delete(figure);
      const chart = await start(figure);
      if (chart && chart.draw && !(chart instanceof RatioChart)) charts.push(chart);
      if (--left === 0) finished();
    }
    pumping = false;
    if (reading && left) idle(drawNearest);
  }
  // once the reader scrolls (or touches a key or the pointer), the charts further away are
  // drawn in idle time too, nearest first, so they are ready when reached
  let reading = false;
  const idle = window.requestIdleCallback || ((fn) => window.setTimeout(fn, 50));
  const distance = (f) => { const r = f.getBoundingClientRect(); return r.top > 0 ? r.top : -r.bottom; };
  function drawNearest() {
    if (pumping || queue.size) return;
    const rest = figures.filter((f) => !asked.has(f)).sort((a, b) => Math.abs(distance(a)) - Math.abs(distance(b)));
    if (rest.length) want(rest[0]);
  }
  const startReading = () => {
    if (reading) return;
    reading = true;
    for (const type of ['scroll', 'keydown', 'pointerdown']) window.removeEventListener(type, startReading);
    idle(drawNearest);
  };
  for (const type of ['scroll', 'keydown', 'pointerdown']) window.addEventListener(type, startReading, { passive: true });
  const want = (figure) => {
    if (asked.has(figure)) return;
    asked.add(figure);
    observer.unobserve(figure);
    queue.add(figure);
    pump();
  };
  const observer = new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) want(e.target);
  }, { rootMargin: NEAR });
  figures.forEach((f) => observer.observe(f));
  window.addEventListener('beforeprint', () => figures.forEach(want));

  const redraw = () => charts.forEach((c) => c.draw().catch((err) => console.error(err)));
  onSchemeChange(redraw);
  let lastWidth = document.documentElement.clientWidth, timer = 0;
  window.addEventListener('resize', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      if (Math.abs(document.documentElement.clientWidth - lastWidth) < 16) return;
      lastWidth = document.documentElement.clientWidth;
      redraw();
    }, 200);
  });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', main);
else main();
