// The compare page: filters over every run of every study (rows built by layouts/compare.html),
// an overlay of the picked runs' series (fetched only when picked), window statistics with
// ratios to a base run, and the selection in the URL (#compare.runs=<study>/<run>,...&compare.base=...).
// Runs of different metrics (tps, requests/s, links/s) are never divided by one another: their
// ratio cell says "different metric", and the overlay shows each run relative to its own window
// mean (compare.norm=1; the default when the picked runs' metrics differ).
// The overlay is drawn on a canvas of its own (overlay.js); the statistics table is its text
// equivalent.
import { onSchemeChange } from './theme.js';
import { getState, setState } from './hash.js';
import { windowStats } from './series.js';
import { el, range, fixed } from './chartdom.js';
import { OverlayPlot, plotRun, swatch } from './overlay.js';
import './compare-queries.js'; // the query section: one query across the query studies

const ID = 'compare';
const MAX_RUNS = 30;
// ?points=all draws every point (no per-pixel decimation): the baseline of bench/compare_bench.py.
const ALL_POINTS = new URLSearchParams(window.location.search).get('points') === 'all';
const figure = document.getElementById(ID);
const view = document.getElementById('compare-view');
const summary = document.getElementById('compare-summary');
const statsTable = document.getElementById('compare-stats');
const form = document.getElementById('compare-filters');
const statsNote = document.getElementById('compare-stats-note');
const rows = Array.from(document.querySelectorAll('#compare-runs tbody tr'));
const byKey = new Map(rows.map((r) => [r.dataset.key, r]));
const loaded = new Map(); // key -> a plotRun plus its metric
let picked = [];
let base = null;
let log = false;
let norm = null; // '1' each run relative to its window mean, '0' raw values, null: '1' iff the metrics differ
let zoomed = null; // the visible x range from the URL or the last zoom, or null: every run whole
let plot = null; // the OverlayPlot, once runs are picked
let drawToken = 0;

/** The picked keys from the URL, keeping only runs that exist and have a series. */
function fromHash() {
  const runs = (getState(ID, 'runs') || '').split(',').filter((k) => byKey.get(k) && byKey.get(k).dataset.series);
  picked = Array.from(new Set(runs)).slice(0, MAX_RUNS);
  const b = getState(ID, 'base');
  base = picked.includes(b) ? b : null;
  log = getState(ID, 'log') === '1';
  norm = ['0', '1'].includes(getState(ID, 'norm')) ? getState(ID, 'norm') : null;
  zoomed = range(getState(ID, 'z'));
}

function toHash() {
  setState(ID, 'runs', picked.join(','));
  setState(ID, 'base', base && base !== picked[0] ? base : null);
  setState(ID, 'log', log ? '1' : null);
  setState(ID, 'norm', norm);
  setState(ID, 'z', zoomed ? zoomed.map((x) => Math.round(x)).join('-') : null);
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
    if (ok && data.get('label')) ok = (d.labels || '').split('|').includes(data.get('label')); // exact k=v
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

/** A downsampled run's window statistics as the ingest computed them from the full-resolution
 * series (the row's data-stats: n, mean, p5, p50, p95, cv), or null for a run drawn as printed. */
function fullStats(text) {
  if (!text) return null;
  const [n, mean, p5, p50, p95, cv] = JSON.parse(text);
  return { n, mean, p5, p50, p95, cv };
}

async function load(key) {
  if (loaded.has(key)) return loaded.get(key);
  const row = byKey.get(key);
  const res = await fetch(row.dataset.series);
  if (!res.ok) throw new Error(`${row.dataset.series}: HTTP ${res.status}`);
  const doc = await res.json();
  const metric = row.dataset.metric;
  const [a, b] = (row.dataset.window || '').split(',').map(Number);
  const run = { ...plotRun(key, `${row.dataset.study}: ${row.cells[2].textContent}`, doc.t, doc[metric] || [],
    Number.isFinite(a) && Number.isFinite(b) ? [a, b] : null), metric, weighted: doc.mean === 'time-weighted',
    full: fullStats(row.dataset.stats) };
  const [wa, wb] = run.window || [run.t[0] - 1, run.t[run.t.length - 1]];
  run.stats = run.full || windowStats(run.t, run.v, wa, wb, run.weighted);
  // the run relative to its own window mean (the normalised view): 1 is the run's mean
  const mean = run.stats.mean;
  run.relative = { ...run, v: Float64Array.from(run.v, (x) => (mean ? x / mean : NaN)) };
  loaded.set(key, run);
  return run;
}

/** Whether the overlay shows each run relative to its own window mean: asked for in the URL,
 * or, when not, whenever the picked runs measure different metrics. */
function normalised(runs) {
  return norm === null ? new Set(runs.map((r) => r.metric)).size > 1 : norm === '1';
}

/** The plot (made once), under the log-scale and whole-runs controls. */
function ensurePlot() {
  if (plot) return plot;
  const box = el('input', { type: 'checkbox', name: 'log' });
  box.checked = log;
  box.addEventListener('change', () => { log = box.checked; toHash(); draw(); });
  const rel = el('input', { type: 'checkbox', name: 'norm' });
  rel.addEventListener('change', () => { norm = rel.checked ? '1' : '0'; toHash(); draw(); });
  const whole = el('button', { type: 'button', text: 'Every run whole' });
  whole.addEventListener('click', () => plot.reset());
  view.replaceChildren(el('div', { class: 'chart-controls', role: 'group', 'aria-label': 'Chart controls' },
    el('label', {}, box, ' log scale'), el('label', {}, rel, " each run relative to its window mean"), whole));
  plot = new OverlayPlot(view, figure, { everyPoint: ALL_POINTS, onZoom: (d) => { zoomed = d; toHash(); } });
  return plot;
}

async function draw() {
  const token = ++drawToken;
  filter();
  toHash();
  if (picked.length === 0) {
    if (plot) plot.destroy();
    plot = null;
    zoomed = null;
    view.replaceChildren(el('p', { class: 'compare-empty', text: 'Pick two or more runs below to overlay them.' }));
    statsTable.hidden = true;
    statsNote.hidden = true;
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
  const metrics = Array.from(new Set(runs.map((r) => r.metric)));
  const relative = normalised(runs);
  ensurePlot();
  view.querySelector('input[name=norm]').checked = relative;
  figure.dataset.norm = relative ? '1' : '';
  const yTitle = relative ? "value / the run's window mean (1 = its mean)"
    : metrics.length > 1 ? `${metrics.join(', ')}: different units on one axis` : metrics[0];
  plot.setRuns(relative ? runs.map((r) => r.relative) : runs, { log, domain: zoomed, yTitle, digits: relative ? 3 : 1 });
  stats(runs);
  const studies = new Set(runs.map((r) => r.key.split('/')[0])).size;
  let text = `${runs.length} run${runs.length > 1 ? 's' : ''} from ${studies} stud${studies > 1 ? 'ies' : 'y'}, each from its own start; dashed rules mark each run's steady-state window.`;
  if (metrics.length > 1) {
    text += ` The runs measure different metrics (${metrics.join(', ')}), which one scale cannot compare: ${relative
      ? "each run is drawn relative to its own window mean (1 is its mean), so the lines compare steadiness and trends, not levels"
      : 'their values share one axis only as numbers'}; means are divided only between runs of the same metric.`;
  } else if (relative) {
    text += " Each run is drawn relative to its own window mean (1 is its mean).";
  }
  summary.textContent = `${text} Scroll to zoom, drag to pan.`;
  figure.dataset.state = 'rendered';
}

const fmt = (x, d = 1) => fixed(x, d, 'missing');

function stats(runs) {
  const baseKey = base || picked[0];
  const all = runs.map((r) => {
    const [a, b] = r.window || [r.t[0] - 1, r.t[r.t.length - 1]];
    return { run: r, a, b, s: r.stats };
  });
  const baseRun = all.find((x) => x.run.key === baseKey);
  const baseMean = baseRun.s.mean;
  const baseMetric = baseRun.run.metric;
  const others = all.filter((x) => x.run.metric !== baseMetric).map((x) => x.run.metric);
  const body = statsTable.tBodies[0];
  body.replaceChildren(...all.map(({ run, a, b, s }, k) => {
    const tr = document.createElement('tr');
    tr.dataset.key = run.key;
    const radio = el('input', { type: 'radio', name: 'compare-base' });
    radio.checked = run.key === baseKey;
    radio.setAttribute('aria-label', `Use ${run.name} as the base`);
    radio.addEventListener('change', () => { base = run.key; toHash(); stats(runs); });
    const same = run.metric === baseMetric; // a ratio of two different units means nothing
    const ratio = same && s.mean !== null && baseMean ? s.mean / baseMean : null;
    const cells = [radio, run.name, run.metric, `${a}–${b}`, String(s.n), fmt(s.mean), fmt(s.p5), fmt(s.p50), fmt(s.p95), fmt(s.cv, 3),
      !same ? 'different metric' : ratio === null ? 'missing' : `${ratio.toFixed(2)}x`];
    cells.forEach((c, i) => {
      const td = document.createElement(i === 1 ? 'th' : 'td');
      if (i === 1) { td.scope = 'row'; td.append(swatch(k), ' '); }
      if (i > 3) td.className = c === 'missing' || c === 'different metric' ? 'num missing' : 'num';
      td.append(c);
      tr.append(td);
    });
    tr.lastChild.dataset.ratio = ratio === null ? '' : String(ratio);
    if (!same) tr.lastChild.title = `${run.metric} against the base's ${baseMetric}: not the same quantity`;
    return tr;
  }));
  statsNote.hidden = !others.length;
  statsNote.textContent = others.length ? `Mean / base divides only means of the same metric: the base run measures ${baseMetric}, so the runs measuring ${
    Array.from(new Set(others)).join(' or ')} say "different metric" (choose a base of their metric for their ratios).` : '';
  statsTable.hidden = false;
}

function start() {
  fromHash();
  // the controls and texts that only work with JavaScript are hidden in the HTML
  for (const node of document.querySelectorAll('.compare-page [data-js]')) node.hidden = false;
  for (const row of rows) {
    const box = row.querySelector('input[type=checkbox]');
    if (!box) continue;
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
  onSchemeChange(() => { if (plot) plot.draw(); });
  draw();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
