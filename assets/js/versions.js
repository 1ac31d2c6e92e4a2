// The "versions" chart kind: many server versions at once (layouts/_partials/chart-kinds/versions.html,
// from the ingest's `versions:` view, ingest/derive/versions.py). Small multiples, a panel per
// facet, a line per version over X; the reader switches the metric (hash key `m`), values or
// ratios to a base version (`v=ratio`, `base`), and each panel's own y scale or one shared
// (`y=shared`). A ratio is drawn filled when it differs from the base beyond the two cells'
// spreads (ingest/derive/noise.py: spreads that do not overlap), hollow when within noise or
// when a spread is unknown. Under the chart the largest regressions and gains against the
// base, each linked to its run on the compare page (its time series and monitors). The cells
// are a JSON file of their own (`spec.data`); the build's SVG reads it through `load`. Every
// word a reader sees is the page's (`spec.words`: i18n/en.toml by chart-parts/versions-words.html).
import { drawOver } from './render.js';
import { chartConfig, cssVar, PALETTE } from './theme.js';
import { getState, setState } from './hash.js';
import { addExportTools } from './export.js';
import { decimals } from './chartdom.js';
import { ratioClass, roundRatio, withinNoise } from './noise.js';
import { CHAR_PX, legendFor, linesLabel, withParams, wrap } from './labels.js';

const PANEL_H = 150; // px of a panel's plot
const PANEL_MIN_W = 220; // px a panel takes at least (plot and its axis)
const PAD = 6; // px inside each plot's edges: the live chart's points stay within the build's drawing
const DASHES = [[], [6, 3], [2, 2], [6, 2, 2, 2]]; // past the palette's colours, versions get a dash
const AXIS_W = 70; // px left of a plot: its y axis' labels and title (the legend starts there too)
// Heights (px) as Vega lays them out, measured on drawings of 1-11 legend rows and 1-3 title lines
const HEADER_LINE = 16; // a panel title's line past its first (11 px text and the title's padding)
const ROW_EXTRA = 73; // a row of panels besides its plots: its x axis and title, a title line, the gap
const HEADER_OVER = 30; // px a panel title may pass its plot by (half each side, over its axis and the gap)
const LEGEND_TITLE = 15; // the legend's title (12 px) and its gap
const LEGEND_ROW = 13; // a legend row (11 px labels)
const PADDING = 5; // the drawing's padding, top and bottom

/** Columns of panels, and each panel's plot width, for a figure `hostWidth` px wide. */
export function grid(spec, hostWidth) {
  const cols = Math.max(1, Math.min(spec.panels, Math.floor((hostWidth - 20) / PANEL_MIN_W)));
  const width = Math.max(120, Math.floor((hostWidth - 20) / cols) - AXIS_W);
  return { cols, width, rows: Math.ceil(spec.panels / cols) };
}

/** What fits a figure `hostWidth` px wide besides the panels: the legend in as many columns of
 * whole version names as the width holds (rows of them under each other, or one column of
 * wrapped names), and each panel's title in lines of its own width (its facets' parts on lines
 * of their own when the whole does not fit). Widths are labels.js' upper bound of a letter,
 * Vega's own estimate where it has no canvas (the build), so what fits there fits the page.
 * Computed from the spec alone, so the build's drawing, the live chart and the room kept for
 * them agree. */
export function fit(spec, hostWidth, facets = spec.facets || [], plotWidth = null) {
  const g = grid(spec, hostWidth);
  if (plotWidth) g.width = plotWidth;
  const names = spec.versions.map((v) => spec.versionNames[v] || v);
  const legend = legendFor(names, hostWidth - AXIS_W, 'legendLines', spec.versionTitle);
  const wrapped = legend.param ? legend.param.value : {};
  const perRow = (names.length ? Math.max(...names.map((n) => (wrapped[n] || [n]).length)) : 1);
  const legendRows = Math.ceil(names.length / legend.props.columns) * perRow;
  const titleRows = Array.isArray(legend.props.title) ? legend.props.title.length : 1;
  const chars = Math.max(8, Math.floor((g.width + HEADER_OVER) / CHAR_PX));
  const lines = {};
  for (const f of facets) {
    const text = String(f);
    if (text.length > chars) lines[text] = text.split(' · ').flatMap((part) => wrap(part, chars));
  }
  const header = linesLabel('headerLines', Object.keys(lines).length ? lines : null);
  // a row of panels is as tall as its panel of most title lines
  const count = facets.length ? facets.map((f) => (lines[String(f)] || [f]).length) : Array(spec.panels).fill(1);
  const rowLines = Array.from({ length: Math.ceil(count.length / g.cols) }, (_, r) => Math.max(...count.slice(r * g.cols, (r + 1) * g.cols)));
  return {
    ...g, legend, header, rowLines,
    legendHeight: (titleRows - 1) * LEGEND_ROW + LEGEND_TITLE + legendRows * LEGEND_ROW,
  };
}

/** The published JSON (flat lists: four items a cell, three a value) as a list per cell. */
export function unpack(flat) {
  const chunks = (list, n) => Array.from({ length: Math.floor(list.length / n) }, (_, i) => list.slice(i * n, i * n + n));
  const values = {};
  for (const [k, list] of Object.entries(flat.values)) values[k] = chunks(list, 3);
  return { ...flat, cells: chunks(flat.cells, 4), values };
}

/** A sentence of `spec.words` with its `{name}`s filled from `fill`. */
export function say(spec, key, fill = {}) {
  return Object.entries(fill).reduce((text, [k, v]) => text.split(`{${k}}`).join(String(v)), spec.words[key]);
}

/** One row per cell of `metric`, with its ratio to `base` and the ratio's verdict (`verdict`:
 * the ingest's, with dashes for spaces; `noise`: in the reader's words) and class. */
export function cellRows(spec, data, metric, base) {
  const vals = data.values[metric];
  const bi = data.versions.indexOf(base);
  const baseOf = new Map();
  data.cells.forEach((c, i) => { if (c[1] === bi) baseOf.set(`${c[0]}|${c[2]}`, vals[i]); });
  return data.cells.map((c, i) => {
    const [mean, lo, hi] = vals[i];
    const b = baseOf.get(`${c[0]}|${c[2]}`);
    const isBase = c[1] === bi;
    const ratio = mean !== null && b && b[0] ? roundRatio(mean / b[0]) : null;
    const noise = isBase || ratio === null ? null : withinNoise([lo, hi], [b[1], b[2]]);
    const verdict = isBase || ratio === null ? null : VERDICTS[String(noise)];
    return {
      facet: data.facets[c[0]], version: spec.versionNames[data.versions[c[1]]] || data.versions[c[1]],
      key: data.versions[c[1]], x: data.xs[c[2]], run: c[3], value: mean, lo, hi, ratio,
      verdict, noise: verdict && spec.words.verdicts[verdict],
      cls: isBase ? null : ratioClass(ratio, noise, spec.edges),
      fill: !isBase && noise === false ? 'filled' : 'hollow',
    };
  });
}

/** The ingest's noise verdicts (ingest/derive/versions.py), dashed, by withinNoise's answer. */
const VERDICTS = { true: 'within-noise', false: 'beyond-noise', null: 'unknown' };

/** The `top` largest regressions (ratios below 1, smallest first) and gains (largest first)
 * against the base, beyond noise or of unknown noise: the ingest's `-extremes` rule. */
export function extremes(rows, base, top) {
  const moved = rows.filter((r) => r.key !== base && r.ratio !== null && r.ratio !== 1 && r.verdict !== VERDICTS.true);
  return {
    regression: moved.filter((r) => r.ratio < 1).sort((a, b) => a.ratio - b.ratio).slice(0, top),
    gain: moved.filter((r) => r.ratio > 1).sort((a, b) => b.ratio - a.ratio).slice(0, top),
  };
}

/** The Vega-Lite spec of the panels (`live`: points link their run's compare page), at the
 * grid's plot width or `plotWidth`. */
export function versionsLayout(spec, data, state, hostWidth, read = cssVar, live = false, plotWidth = null) {
  const { cols, width, legend, header } = fit(spec, hostWidth, spec.facets || data.facets, plotWidth);
  const rows = cellRows(spec, data, state.metric, state.base);
  const names = data.versions.map((v) => spec.versionNames[v] || v);
  const ratio = state.view === 'ratio';
  const metric = spec.metrics.find((m) => m.key === state.metric);
  const y = ratio ? 'ratio' : 'value';
  const xs = data.xs.filter((x) => typeof x === 'number' && x > 0);
  const xlog = spec.xNumbers && xs.length === data.xs.length && Math.max(...xs) / Math.min(...xs) >= 16;
  const x = spec.xNumbers
    ? { field: 'x', type: 'quantitative', title: spec.xTitle, scale: xlog ? { type: 'log', base: 2, padding: PAD } : { zero: false, padding: PAD },
      axis: { values: data.xs, format: 'd', labelOverlap: 'greedy', labelSeparation: 4 } }
    : { field: 'x', type: 'ordinal', sort: data.xs, title: spec.xTitle };
  const title = ratio ? `${metric.label} / ${spec.versionNames[state.base] || state.base}` : metric.label;
  const yEnc = { field: y, type: 'quantitative', title, scale: { zero: false, padding: PAD }, axis: { labelOverlap: 'greedy', format: '~s' } };
  const color = { field: 'version', type: 'nominal', sort: names, title: spec.versionTitle,
    scale: { domain: names, range: names.map((_, i) => PALETTE[i % PALETTE.length]) }, legend: { ...legend.props, symbolOpacity: 1, symbolType: 'stroke' } };
  // one legend for both channels (a legend on one and none on the other conflict in Vega-Lite)
  const strokeDash = { field: 'version', type: 'nominal', sort: names, title: spec.versionTitle, legend: color.legend,
    scale: { domain: names, range: names.map((_, i) => DASHES[Math.floor(i / PALETTE.length) % DASHES.length]) } };
  const tip = [
    { field: 'facet', title: spec.facetTitle || say(spec, 'panel') }, { field: 'version', title: spec.versionTitle },
    { field: 'x', title: spec.xTitle }, { field: 'value', title: metric.label, format: ',.2f' },
    { field: 'ratio', title: say(spec, 'ratioTo', { base: spec.versionNames[state.base] || state.base }), format: '.3f' },
    { field: 'noise', title: say(spec, 'noise') }, ...(spec.runs ? [{ field: 'run', title: say(spec, 'run') }] : []),
  ];
  const drawn = rows.filter((r) => r[y] !== null).map((r) => (live && r.run ? { ...r, href: `${spec.compare}${encodeURIComponent(r.run)}` } : r));
  const link = live ? { href: { field: 'href' } } : {};
  // the build's drawing has the lines and spreads only: a point per cell of a thousand runs
  // would be most of the page's elements; the live chart adds them, with their tooltips
  const layer = [{ mark: { type: 'line', strokeWidth: 1.5 }, encoding: { x, y: yEnc, color, strokeDash } }];
  // a layer only where it has data: an empty layer's scales have an infinite extent (a warning)
  if (!ratio && drawn.some((r) => r.lo !== null)) layer.push({ mark: { type: 'area', opacity: 0.18 }, transform: [{ filter: 'datum.lo !== null' }], encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color } });
  if (live) {
    layer.push({ mark: { type: 'point', size: 30, strokeWidth: 1.4, filled: false }, encoding: { x, y: yEnc, color, tooltip: tip, ...link } });
    // beyond the noise of the base: filled
    if (drawn.some((r) => r.fill === 'filled')) layer.push({ mark: { type: 'point', size: 30, filled: true }, transform: [{ filter: "datum.fill === 'filled'" }], encoding: { x, y: yEnc, color, tooltip: tip, ...link } });
  }
  if (ratio) layer.push({ mark: { type: 'rule', strokeDash: [3, 3], color: read('--muted') }, encoding: { y: { datum: 1 } } });
  const vl = withParams({
    data: { values: drawn },
    columns: cols,
    facet: { field: 'facet', type: 'nominal', sort: data.facets, title: null, header: { labelLimit: 0, labelOrient: 'top', labelFontSize: 11, ...header.props } },
    spec: { width, height: PANEL_H, layer },
    resolve: { scale: { y: state.shared ? 'shared' : 'independent' }, axis: { x: 'independent' } },
    config: chartConfig(read),
  }, [legend.param, header.param]);
  return { spec: vl, width, rows };
}


export class VersionsChart {
  /** The first view (the post's metric, base and view) for the build's SVG. */
  static initialView(spec, hostWidth, read, { load, plotWidth } = {}) {
    if (!load) return null;
    const data = unpack(load(spec.data));
    const state = { metric: spec.metric, base: spec.base, view: spec.ratio ? 'ratio' : 'values', shared: false };
    // narrowed by publish/chart_svgs.js when axes make the drawing wider than the figure
    const { spec: vl, width } = versionsLayout(spec, data, state, hostWidth, read, false, plotWidth);
    return { spec: vl, width };
  }

  /** Room kept while nothing is drawn: the panels' rows with their titles' lines, and the legend. */
  static expectedHeight(figure, spec) {
    const { rowLines, legendHeight } = fit(spec, figure.clientWidth || 792);
    const rows = rowLines.reduce((sum, n) => sum + PANEL_H + ROW_EXTRA + (n - 1) * HEADER_LINE, 0);
    return 2 * PADDING + legendHeight + rows;
  }

  constructor(figure, spec) {
    this.figure = figure;
    this.spec = spec;
    this.id = figure.id;
    this.host = figure.querySelector('.chart-view');
    const pick = (key, ok, fallback) => { const v = getState(this.id, key); return v !== null && ok(v) ? v : fallback; };
    this.state = {
      metric: pick('m', (v) => spec.metrics.some((m) => m.key === v), spec.metric),
      base: pick('base', (v) => spec.versions.includes(v), spec.base),
      view: pick('v', (v) => v === 'ratio' || v === 'values', spec.ratio ? 'ratio' : 'values'),
      shared: getState(this.id, 'y') === 'shared',
    };
    const controls = [];
    const select = (label, options, value, onChange) => {
      const s = document.createElement('select');
      s.setAttribute('aria-label', label);
      for (const [v, text] of options) s.append(new Option(text, v));
      s.value = value;
      s.addEventListener('change', () => onChange(s.value));
      const l = document.createElement('label');
      l.append(`${label} `, s);
      controls.push(l);
      return s;
    };
    if (spec.metrics.length > 1) {
      select(say(spec, 'metric'), spec.metrics.map((m) => [m.key, m.label]), this.state.metric, (v) => this.set('metric', 'm', v, spec.metric));
    }
    select(say(spec, 'show'), [['values', say(spec, 'showValues')], ['ratio', say(spec, 'showRatios')]], this.state.view, (v) => this.set('view', 'v', v, spec.ratio ? 'ratio' : 'values'));
    this.baseSelect = select(say(spec, 'base'), spec.versions.map((v) => [v, spec.versionNames[v] || v]), this.state.base, (v) => this.set('base', 'base', v, spec.base));
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = this.state.shared;
    box.addEventListener('change', () => this.set('shared', 'y', box.checked, false, box.checked ? 'shared' : null));
    const l = document.createElement('label');
    l.append(box, ` ${say(spec, 'shared')}`);
    controls.push(l);
    this.canvas = document.createElement('div');
    this.canvas.className = 'chart-live';
    addExportTools(figure, this.id, () => this.view, () => ({
      columns: ['facet', 'version', 'x', 'value', 'lo', 'hi', 'ratio', 'noise', 'run'], rows: this.rows || [],
    }), ...controls);
  }

  /** Sets a state field and its hash key (left out at its default), then redraws. */
  set(field, key, value, fallback, hashValue = value) {
    this.state[field] = value;
    setState(this.id, key, value === fallback ? null : hashValue);
    this.draw();
  }

  async draw() {
    if (!this.data) {
      const res = await fetch(this.spec.data);
      this.data = unpack(await res.json());
    }
    const { spec, width, rows } = versionsLayout(this.spec, this.data, this.state, this.host.clientWidth, cssVar, true);
    this.rows = rows;
    if (this.view) this.view.finalize();
    this.view = await drawOver(this.host, this.canvas, spec, width);
    this.fillExtremes(rows);
    this.figure.dataset.base = this.state.base;
    this.figure.dataset.metric = this.state.metric;
  }

  /** Redraws the table of extremes (chart-parts/versions-extremes-table.html's markup: its
   * heading cells say which are the facets, the metric and the run, `data-col`). */
  fillExtremes(rows) {
    const table = this.figure.querySelector(`#${CSS.escape(this.id)}-extremes-table`);
    if (!table) return;
    const { spec, state } = this;
    const metric = spec.metrics.find((m) => m.key === state.metric);
    const head = table.tHead.rows[0];
    table.caption.textContent = say(spec, 'caption', { metric: metric.label, base: spec.versionNames[state.base] || state.base });
    head.querySelector('[data-col=metric]').textContent = metric.label;
    const facets = head.querySelectorAll('[data-col=facet]').length;
    const runs = Boolean(head.querySelector('[data-col=run]'));
    const num = (v, d) => (v === null || v === undefined ? say(spec, 'missing') : decimals(d).format(v));
    const body = table.tBodies[0];
    body.replaceChildren();
    const { regression, gain } = extremes(rows, state.base, spec.top);
    const cell = (tag, text, cls) => { const c = document.createElement(tag); c.textContent = text; if (cls) c.className = cls; return c; };
    for (const [dir, list] of [['regression', regression], ['gain', gain]]) {
      list.forEach((r, i) => {
        const tr = document.createElement('tr');
        tr.dataset.dir = dir;
        const th = cell('th', say(spec, dir, { rank: i + 1 }));
        th.scope = 'row';
        tr.append(th);
        const parts = r.facet.split(' · ');
        for (let f = 0; f < facets; f += 1) tr.append(cell('td', parts[f] ?? ''));
        tr.append(cell('td', r.version), cell('td', String(r.x), 'number'), cell('td', `${num(r.ratio, 2)}×`, 'ratio'),
          cell('td', num(r.value, 2), 'number'), cell('td', r.noise || ''));
        if (runs) {
          const link = cell('td', '');
          if (r.run) {
            const a = document.createElement('a');
            a.href = `${spec.compare}${encodeURIComponent(r.run)}`;
            a.textContent = r.run;
            link.append(a);
          }
          tr.append(link);
        }
        body.append(tr);
      });
    }
    if (!body.rows.length) {
      const tr = document.createElement('tr');
      const td = cell('td', say(spec, 'extremesNone'));
      td.colSpan = head.cells.length;
      tr.append(td);
      body.append(tr);
    }
  }
}
