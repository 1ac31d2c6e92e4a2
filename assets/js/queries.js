// The "queries" chart kind: per query (a row), each series' runs as dots, its median as a tick
// and its fastest-to-slowest range as a line, series side by side within the row; a query that
// did not finish is written "did not finish" at the slow end of its row, never drawn as a time.
// The spec comes from layouts/_partials/chart-kinds/queries.html. The layout is a pure function
// of the spec and the figure's width, so the build-time SVG (publish/chart_svgs.js) and the
// live chart agree.
import { drawOver, withWidth } from './render.js';
import { chartConfig, PALETTE } from './theme.js';
import { getState, setState } from './hash.js';
import { addExportTools } from './export.js';
import { legendFor, withParams } from './labels.js';

export const DNF_TEXT = 'did not finish';
const DOT_ROW = 9; // px a series takes within a query's row
const RESERVE = 80; // px left of the plot for the query labels and axis

const DNF_PX = 78; // px the "did not finish" text takes at the slow end of a row

/** The x domain for a plot `width` px wide: from the fastest run to the slowest, and past it
 * room for "did not finish" when a query did not finish (on a log axis, in decades). */
export function domain(spec, log, width) {
  const times = spec.runs.map((r) => r.t).filter((t) => t > 0);
  const lo = Math.min(...times), hi = Math.max(...times);
  const room = spec.cells.some((c) => c.med === null || c.med === undefined) ? DNF_PX / Math.max(width - DNF_PX, 1) : 0.02;
  if (!log) return [0, hi * (1 + room)];
  const from = lo / 1.25, decades = Math.log10(hi / from);
  return [from, hi * 10 ** (decades * room)];
}

/** The rows Vega-Lite draws: runs, per-cell statistics, and a "did not finish" mark. */
export function plotRows(spec, log, width) {
  const name = Object.fromEntries(spec.series.map((s) => [s.key, s.name]));
  const [, hi] = domain(spec, log, width);
  const rows = spec.runs.map((r) => ({ kind: 'run', query: r.q, series: name[r.s], run: r.r, seconds: r.t }));
  for (const c of spec.cells) {
    if (c.med === null || c.med === undefined) {
      rows.push({ kind: 'dnf', query: c.q, series: name[c.s], seconds: hi, label: c.st || DNF_TEXT });
    } else {
      rows.push({ kind: 'stat', query: c.q, series: name[c.s], median: c.med, min: c.min, max: c.max, status: c.st || 'finished' });
    }
  }
  return rows;
}

/** The Vega-Lite spec drawn in a figure `hostWidth` px wide (themed by `read`), and its plot width. */
export function queriesLayout(spec, hostWidth, log = spec.log, read = undefined) {
  const width = Math.max(160, Math.floor(hostWidth - RESERVE));
  const names = spec.series.map((s) => s.name);
  const { props, param } = legendFor(names, width, 'legendLines', spec.seriesTitle);
  const y = { field: 'query', type: 'nominal', sort: spec.queries, title: 'Query', axis: { labelLimit: 0, grid: false } };
  const yOffset = { field: 'series', type: 'nominal', sort: names, scale: { paddingInner: 0.15 } };
  const color = { field: 'series', type: 'nominal', sort: names, scale: { domain: names, range: PALETTE }, title: spec.seriesTitle, legend: { ...props, symbolType: 'circle' } };
  const x = { type: 'quantitative', title: spec.xTitle, scale: { type: log ? 'log' : 'linear', domain: domain(spec, log, width), nice: false, clamp: true },
    axis: { labelOverlap: 'greedy', labelSeparation: 6, ...(log ? { tickCount: 6 } : {}) } };
  const is = (kind) => ({ filter: `datum.kind === '${kind}'` });
  const tip = (fields) => fields.map(([field, title, type]) => ({ field, title, ...(type ? { type } : {}) }));
  const layered = {
    data: { values: plotRows(spec, log, width) },
    height: { step: spec.series.length * DOT_ROW + 8, for: 'position' },
    encoding: { y, yOffset, color },
    layer: [
      { transform: [is('stat')], mark: { type: 'rule', strokeWidth: 1.5, opacity: 0.7 },
        encoding: { x: { ...x, field: 'min' }, x2: { field: 'max' } } },
      { transform: [is('run')], mark: { type: 'point', filled: false, size: 26, strokeWidth: 1.3, opacity: 0.9 },
        encoding: { x: { ...x, field: 'seconds' }, tooltip: tip([['query', 'Query'], ['series', spec.seriesTitle], ['run', 'Run'], ['seconds', 'Seconds', 'quantitative']]) } },
      { transform: [is('stat')], mark: { type: 'tick', thickness: 2.5, size: DOT_ROW + 2 },
        encoding: { x: { ...x, field: 'median' }, tooltip: tip([['query', 'Query'], ['series', spec.seriesTitle], ['median', 'Median s', 'quantitative'], ['min', 'Min s', 'quantitative'], ['max', 'Max s', 'quantitative'], ['status', 'Status']]) } },
      { transform: [is('dnf')], mark: { type: 'text', align: 'right', baseline: 'middle', fontSize: 10, dx: -2 },
        encoding: { x: { ...x, field: 'seconds' }, text: { field: 'label' }, tooltip: tip([['query', 'Query'], ['series', spec.seriesTitle], ['label', 'Status']]) } },
    ],
    ...(read ? { config: chartConfig(read) } : {}),
  };
  return { spec: withParams(layered, [param]), width };
}

export class QueriesChart {
  /** The initial view (the post's scale) for the build's SVG. */
  static initialView(spec, hostWidth, read, { plotWidth } = {}) {
    const { spec: drawn, width } = queriesLayout(spec, hostWidth, spec.log, read);
    return { spec: withWidth(drawn, plotWidth || width), width: plotWidth || width };
  }

  /** Height (px) the chart takes: one row per query, plus axis and legend. */
  static expectedHeight(figure, spec) {
    return spec.queries.length * (spec.series.length * DOT_ROW + 8) + 110;
  }

  constructor(figure, spec) {
    this.figure = figure;
    this.spec = spec;
    this.id = figure.id;
    this.host = figure.querySelector('.chart-view');
    const fromHash = getState(this.id, 'log');
    this.log = fromHash === null ? spec.log : fromHash === '1';
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = this.log;
    box.addEventListener('change', () => {
      this.log = box.checked;
      setState(this.id, 'log', this.log === spec.log ? null : (this.log ? '1' : '0'));
      this.draw();
    });
    const label = document.createElement('label');
    label.append(box, ' log scale');
    this.canvas = document.createElement('div');
    this.canvas.className = 'chart-live';
    addExportTools(figure, this.id, () => this.view, () => {
      const name = Object.fromEntries(spec.series.map((s) => [s.key, s.name]));
      const rows = spec.runs.map((r) => ({ query: r.q, series: name[r.s], run: r.r, seconds: r.t }));
      for (const c of spec.cells) if (c.st) rows.push({ query: c.q, series: name[c.s], run: null, seconds: null, status: c.st });
      return { columns: ['query', 'series', 'run', 'seconds', 'status'], rows };
    }, label);
  }

  /** Draws the live chart, the first time over the build-time SVG (render.js drawOver). */
  async draw() {
    const { spec, width } = queriesLayout(this.spec, this.host.clientWidth, this.log);
    if (this.view) this.view.finalize();
    this.view = await drawOver(this.host, this.canvas, spec, width);
  }
}
