// The compare page: filters over every run of every study (rows built by layouts/compare.html),
// an overlay of the picked runs' series (fetched only when picked), window statistics with
// ratios to a base run, and the selection in the URL (#compare.runs=<study>/<run>,...&compare.base=...).
import { changeset } from 'vega';
import { renderFitted, plotWidth } from './render.js';
import { onSchemeChange } from './theme.js';
import { getState, setState } from './hash.js';
import { downsample, windowStats } from './series.js';

const ID = 'compare';
const MAX_RUNS = 30;
// ?points=all draws every point (no per-pixel downsampling): the baseline of bench/compare_bench.py.
const ALL_POINTS = new URLSearchParams(window.location.search).get('points') === 'all';
const figure = document.getElementById(ID);
const view = document.getElementById('compare-view');
const summary = document.getElementById('compare-summary');
const statsTable = document.getElementById('compare-stats');
const form = document.getElementById('compare-filters');
const rows = Array.from(document.querySelectorAll('#compare-runs tbody tr'));
const byKey = new Map(rows.map((r) => [r.dataset.key, r]));
const loaded = new Map(); // key -> {t, v, metric, window, name}
let picked = [];
let base = null;
let log = false;
let chart = null; // vega-embed result
let domain = null; // zoomed x range, or null for each run's whole length
let drawToken = 0;

/** The picked keys from the URL, keeping only runs that exist and have a series. */
function fromHash() {
  const runs = (getState(ID, 'runs') || '').split(',').filter((k) => byKey.get(k) && byKey.get(k).dataset.series);
  picked = Array.from(new Set(runs)).slice(0, MAX_RUNS);
  const b = getState(ID, 'base');
  base = picked.includes(b) ? b : null;
  log = getState(ID, 'log') === '1';
}

function toHash() {
  setState(ID, 'runs', picked.join(','));
  setState(ID, 'base', base && base !== picked[0] ? base : null);
  setState(ID, 'log', log ? '1' : null);
}

/** Shows the rows that pass every filter (search matches all its words). */
function filter() {
  const data = new FormData(form);
  const words = String(data.get('q') || '').toLowerCase().split(/\s+/).filter(Boolean);
  const seriesOnly = data.get('series') === 'on';
  let shown = 0;
  for (const row of rows) {
    const d = row.dataset;
    let ok = (!seriesOnly || d.series) && words.every((w) => d.text.includes(w));
    if (ok && data.get('study')) ok = d.study === data.get('study');
    for (const facet of ['engines', 'versions', 'benchmarks', 'storage']) {
      const want = data.get(facet);
      if (ok && want) ok = (d[facet] || '').split('|').includes(want);
    }
    ok = ok || picked.includes(d.key); // a picked run stays in view
    row.hidden = !ok;
    if (ok) shown += 1;
  }
  document.getElementById('compare-count').textContent = `${shown} of ${rows.length} runs shown.`;
}

async function load(key) {
  if (loaded.has(key)) return loaded.get(key);
  const row = byKey.get(key);
  const res = await fetch(row.dataset.series);
  if (!res.ok) throw new Error(`${row.dataset.series}: HTTP ${res.status}`);
  const doc = await res.json();
  const metric = row.dataset.metric;
  const [a, b] = (row.dataset.window || '').split(',').map(Number);
  const run = { key, t: doc.t, v: doc[metric] || [], metric, name: `${row.dataset.study}: ${row.cells[2].textContent}`,
    window: Number.isFinite(a) && Number.isFinite(b) ? [a, b] : null, weighted: doc.mean === 'time-weighted' };
  loaded.set(key, run);
  return run;
}

/** Points to draw per run: min/max per pixel over the visible range, full resolution when zoomed in. */
function points(runs, width) {
  const out = [];
  for (const run of runs) {
    const t = run.t;
    if (!t.length) continue;
    const x0 = domain ? domain[0] : t[0], x1 = domain ? domain[1] : t[t.length - 1];
    if (ALL_POINTS) {
      t.forEach((x, i) => { if (run.v[i] !== null && (!log || run.v[i] > 0)) out.push({ run: run.name, t: x, v: run.v[i] }); });
      continue;
    }
    downsample(t, run.v, x0, x1, Math.max(50, Math.round(width / 2)), (x, y) => {
      if (y !== null && (!log || y > 0)) out.push({ run: run.name, t: x, v: y });
    });
  }
  return out;
}

function spec(runs, width) {
  const names = runs.map((r) => r.name);
  const color = { field: 'run', type: 'nominal', title: null, scale: { domain: names }, legend: { orient: 'bottom', columns: 1, labelLimit: 0 } };
  const windows = runs.filter((r) => r.window).flatMap((r) => [{ run: r.name, t: r.window[0], edge: 'window start' }, { run: r.name, t: r.window[1], edge: 'window end' }]);
  const metrics = Array.from(new Set(runs.map((r) => r.metric)));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width, height: 300,
    layer: [
      { data: { name: 'points', values: points(runs, width) }, mark: { type: 'line', strokeWidth: 1.2, clip: true },
        params: [{ name: 'zoom', select: { type: 'interval', encodings: ['x'] }, bind: 'scales' }],
        encoding: {
          x: { field: 't', type: 'quantitative', title: 'seconds from the run\'s start', ...(domain ? { scale: { domain } } : {}) },
          y: { field: 'v', type: 'quantitative', title: metrics.join(' / '), scale: log ? { type: 'log' } : { zero: false } },
          color, detail: { field: 'run' },
          tooltip: [{ field: 'run' }, { field: 't', title: 's' }, { field: 'v', title: 'value', format: ',.1f' }],
        } },
      { data: { values: windows }, mark: { type: 'rule', strokeDash: [4, 3], opacity: 0.8 },
        encoding: { x: { field: 't', type: 'quantitative' }, color, tooltip: [{ field: 'run' }, { field: 'edge' }, { field: 't', title: 's' }] } },
    ],
  };
}

/** Redraws the picked runs' points for the current zoom without rebuilding the view. */
let zoomTimer = 0;
function onZoom(_name, value) {
  window.clearTimeout(zoomTimer);
  zoomTimer = window.setTimeout(() => {
    domain = value && value.t ? value.t.slice() : null;
    const runs = picked.map((k) => loaded.get(k)).filter(Boolean);
    chart.view.change('points', changeset().remove(() => true).insert(points(runs, plotWidth(view)))).run();
    figure.dataset.zoomed = domain ? '1' : '';
  }, 60);
}

async function draw() {
  const token = ++drawToken;
  filter();
  toHash();
  if (picked.length === 0) {
    if (chart) chart.view.finalize();
    chart = null;
    view.replaceChildren(Object.assign(document.createElement('p'), { className: 'compare-empty', textContent: 'Pick two or more runs below to overlay them.' }));
    statsTable.hidden = true;
    summary.textContent = 'No runs picked yet.';
    figure.dataset.state = 'empty';
    return;
  }
  figure.dataset.state = 'loading';
  let runs;
  try {
    runs = await Promise.all(picked.map(load));
  } catch (err) {
    figure.dataset.state = 'error';
    summary.textContent = `Could not load a run's data (${err.message}).`;
    return;
  }
  if (token !== drawToken) return;
  domain = null;
  if (chart) chart.view.finalize();
  const canvas = document.createElement('div');
  const controls = document.createElement('label');
  controls.className = 'chart-controls';
  const box = Object.assign(document.createElement('input'), { type: 'checkbox', checked: log });
  box.addEventListener('change', () => { log = box.checked; draw(); });
  controls.append(box, ' log scale');
  view.replaceChildren(controls, canvas);
  chart = await renderFitted(canvas, spec(runs, plotWidth(view)), plotWidth(view));
  if (token !== drawToken) return;
  chart.view.addSignalListener('zoom', onZoom);
  stats(runs);
  summary.textContent = `${runs.length} run${runs.length > 1 ? 's' : ''} from ${new Set(runs.map((r) => r.key.split('/')[0])).size} stud${new Set(runs.map((r) => r.key.split('/')[0])).size > 1 ? 'ies' : 'y'}, each from its own start; dashed rules mark each run's steady-state window. Drag to pan, scroll to zoom.`;
  figure.dataset.state = 'rendered';
}

const fmt = (x, d = 1) => (x === null || x === undefined || !Number.isFinite(x) ? 'missing' : x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }));

function stats(runs) {
  const baseKey = base || picked[0];
  const all = runs.map((r) => {
    const [a, b] = r.window || [r.t[0] - 1, r.t[r.t.length - 1]];
    return { run: r, a, b, s: windowStats(r.t, r.v, a, b, r.weighted) };
  });
  const baseMean = all.find((x) => x.run.key === baseKey).s.mean;
  const body = statsTable.tBodies[0];
  body.replaceChildren(...all.map(({ run, a, b, s }) => {
    const tr = document.createElement('tr');
    tr.dataset.key = run.key;
    const radio = Object.assign(document.createElement('input'), { type: 'radio', name: 'compare-base', checked: run.key === baseKey });
    radio.setAttribute('aria-label', `Use ${run.name} as the base`);
    radio.addEventListener('change', () => { base = run.key; toHash(); stats(runs); });
    const ratio = s.mean !== null && baseMean ? s.mean / baseMean : null;
    const cells = [radio, run.name, run.metric, `${a}–${b}`, String(s.n), fmt(s.mean), fmt(s.p5), fmt(s.p50), fmt(s.p95), fmt(s.cv, 3),
      ratio === null ? 'missing' : `${ratio.toFixed(2)}x`];
    cells.forEach((c, i) => {
      const td = document.createElement(i === 1 ? 'th' : 'td');
      if (i === 1) td.scope = 'row';
      if (i > 3) td.className = c === 'missing' ? 'num missing' : 'num';
      td.append(c);
      tr.append(td);
    });
    tr.lastChild.dataset.ratio = ratio === null ? '' : String(ratio);
    return tr;
  }));
  statsTable.hidden = false;
}

function start() {
  fromHash();
  form.hidden = false;
  for (const row of rows) {
    const box = row.querySelector('input[type=checkbox]');
    if (!box) continue;
    box.disabled = false;
    box.checked = picked.includes(row.dataset.key);
    box.addEventListener('change', () => {
      picked = picked.filter((k) => k !== row.dataset.key);
      if (box.checked) {
        if (picked.length >= MAX_RUNS) { box.checked = false; return; }
        picked.push(row.dataset.key);
      }
      if (!picked.includes(base)) base = null;
      draw();
    });
  }
  form.addEventListener('input', filter);
  form.addEventListener('submit', (e) => e.preventDefault());
  onSchemeChange(() => { if (picked.length) draw(); });
  draw();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
