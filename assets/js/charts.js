// Chart bundle, fetched by main.js (chart-loader.js) only once a chart nears the viewport or
// is touched: makes every figure.chart live from its JSON spec block (#<id>-spec) by kind,
// taking over from the build-time SVG, follows the OS colour scheme and the figure width, and
// marks each figure data-state="rendered" (or "error") for readers of the DOM such as the
// browser tests. The kinds drawn without Vega (the time series and the metrics on canvas, the
// plan view, the ratio heat-table, drawn by the build as HTML, bars and lines on the build's SVG) are
// in this bundle; the others come with the Vega bundle (vega-loader.js), fetched when the
// first of them is wanted, so a time series goes live without waiting for Vega.
import { nextTask } from './layout.js';
import { onSchemeChange } from './theme.js';
import { chartIdsInHash } from './hash.js';
import { TimeSeriesChart } from './timeseries.js';
import { MetricsChart } from './metrics.js';
import { PlansChart } from './plans.js';
import { RatioChart } from './ratio.js';
import { XYChart } from './xy.js';
import { loadVega, VEGA_KINDS } from './vega-loader.js';

/** The kinds of this bundle; every other kind (kinds.js has them all) is the Vega bundle's
 * (vega-loader.js VEGA_KINDS). */
const OWN = { timeseries: TimeSeriesChart, metrics: MetricsChart, plans: PlansChart, ratio: RatioChart, bars: XYChart, line: XYChart };

/** The class of a chart kind, fetching the Vega bundle for a kind drawn with Vega. */
async function kindOf(name) {
  if (OWN[name]) return OWN[name];
  if (VEGA_KINDS.has(name)) return (await loadVega()).kinds[name];
  return null;
}

/** Sizes the placeholders of the charts not drawn yet and without a build-time SVG (figures
 * with a pending view, e.g. under `hugo server`), from their kind's expectedHeight: a kind of
 * the Vega bundle once it has come. */
async function holdRoom(figures) {
  const pending = figures.filter((f) => f.querySelector('.chart-view.pending'));
  if (pending.some((f) => VEGA_KINDS.has(f.dataset.kind))) await loadVega().catch(() => null);
  for (const figure of pending) {
    const host = figure.querySelector('.chart-view.pending');
    const block = host && document.getElementById(`${figure.id}-spec`);
    const Kind = OWN[figure.dataset.kind] || (window.benchlogVega && window.benchlogVega.kinds[figure.dataset.kind]);
    if (!block || !Kind) continue;
    try {
      const px = Kind.expectedHeight(figure, JSON.parse(block.textContent));
      if (px) { host.style.minHeight = `${px}px`; host.dataset.held = ''; }
    } catch (err) { /* start() reports it */ }
  }
}

async function start(figure) {
  try {
    const spec = JSON.parse(document.getElementById(`${figure.id}-spec`).textContent);
    const Kind = await kindOf(figure.dataset.kind);
    if (!Kind) throw new Error(`unknown chart kind ${figure.dataset.kind}`);
    const chart = new Kind(figure, spec);
    await chart.draw();
    const host = figure.querySelector('.chart-view[data-held]');
    if (host) { host.style.minHeight = ''; delete host.dataset.held; }
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
 * Makes the charts live lazily: a chart is drawn when it comes near the viewport (until then
 * its build-time SVG, or a placeholder, keeps the room), one chart per task so the page stays responsive, the
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
    upgradeWhenIdle();
  };
  // charts live on the build's drawing (bars, lines) draw their Vega view once every chart is
  // live, one per idle period, so their tooltips are there before the reader points at them
  const tried = new Set();
  const upgradeWhenIdle = () => {
    const next = charts.find((c) => c.upgrade && !c.upgrading && !tried.has(c));
    if (!next) return;
    tried.add(next);
    idle(() => next.upgrade().catch((err) => console.error(err)).then(upgradeWhenIdle));
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
      if (chart) charts.push(chart);
      // the Vega bundle is fetched once the chart on screen is drawn, not before: its parse
      // would hold up a time series, which needs none
      if (Array.from(queue).some((f) => VEGA_KINDS.has(f.dataset.kind))) loadVega().catch(() => null);
      if (--left === 0) finished();
    }
    pumping = false;
    if (reading && left) idle(drawNearest);
    // a chart of a Vega kind further down will want the Vega bundle: fetched and parsed in
    // idle time once the charts asked for are drawn, not when that chart comes near (its
    // fetch and parse, ~0.3 s of the main thread, were most of its wait)
    if (figures.some((f) => !asked.has(f) && VEGA_KINDS.has(f.dataset.kind))) idle(() => loadVega().catch(() => null));
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
  // a page scrolled before the bundle came (the run files fetched beside it can delay it) is
  // being read already
  if (window.scrollY > 0) startReading();
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
  // a chart whose view the URL hash sets, and one the reader touches, goes live at once
  const inHash = chartIdsInHash();
  figures.filter((f) => inHash.has(f.id) || 'touched' in f.dataset).forEach(want);
  for (const type of ['pointerdown', 'focusin', 'keydown']) {
    document.addEventListener(type, (e) => { const f = e.target.closest && e.target.closest('figure.chart[data-kind]'); if (f) want(f); }, { passive: true });
  }
  window.addEventListener('beforeprint', () => figures.forEach(want));

  const redraw = () => charts.forEach((c) => Promise.resolve().then(() => c.draw()).catch((err) => console.error(err)));
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
