// The "bars" and "line" chart kinds: a Vega-Lite spec built here (xySpec) from what the Hugo
// partial chart-parts/xy.html emits (the params, columns, rows shown and colours).
// The layout (log y, bars on their side, plot width) is a pure function of the spec and the
// width of the figure, so the build-time SVG (publish/chart_svgs.js) and the live chart agree.
// The kind is in the main chart bundle: at the post's own scale the build's SVG is the chart
// (its log-scale box and CSV export work on it), so it goes live without Vega; the Vega view
// (tooltips, another scale, PNG/SVG export) is drawn over it from the Vega bundle when the
// reader points at or focuses the chart, changes its scale, or once the page's charts are
// live, in idle time (charts.js). Fetching and parsing Vega, then a Vega-Lite compile and a
// view per chart, held up every chart of a post while it was scrolled through.
import { withWidth } from './layout.js';
import { loadVega } from './vega-loader.js';
import { chartConfig } from './theme.js';
import { xySpec } from './xyspec.js';
import { getState, setState } from './hash.js';
import { addExportTools } from './export.js';
import { CHAR_PX, axisTitleLines, categoryAxis, legendFor, linesLabel, withParams, wrap } from './labels.js';

const unitOf = (spec) => (spec.facet ? spec.spec : spec);

/** Whether the post asked for a log y scale. */
function specLog(spec) {
  return (unitOf(spec).encoding.y.scale || {}).type === 'log';
}

function withLog(spec, log) {
  const unit = unitOf(spec);
  const linear = specLog(spec) ? { zero: (unit.mark.type || unit.mark) === 'bar' } : unit.encoding.y.scale;
  // bars on a log scale are not stacked: a stack's baseline of 0 has no place on a log axis
  // (Vega warns "Log scale domain includes zero"); they rise from the axis' lowest value
  const y = { ...unit.encoding.y, scale: log ? { type: 'log' } : linear, ...(log ? { stack: null } : {}) };
  const patched = { ...unit, encoding: { ...unit.encoding, y } };
  return spec.facet ? { ...spec, spec: patched } : patched;
}

/** Whether the category labels would not fit side by side under the plot (~7 px a letter). */
function crowded(spec, enc, hostWidth) {
  if (enc.x.type !== 'nominal') return false;
  const labels = new Set(spec.data.values.map((r) => String(r[enc.x.field])));
  const letters = Array.from(labels).reduce((n, l) => n + l.length + 2, 0);
  return letters * 7 > hostWidth - 100;
}

/** Room (px) beside a vertical category axis for its labels (wrapped to fit). */
const categoryRoom = (narrow) => (narrow ? 110 : 240);

/** Room (px) left of and beside the plot for the axes, when panel headers are on top (or none). */
const ON_TOP_RESERVE = 100;

/** On narrow screens, or when their labels are crowded, grouped bars and dot plots lie on
 * their side (categories on y); panel labels go above the panels, upright, "heading: value",
 * wrapped to the width (written along a panel's side they were read sideways, and a long one
 * ran into the next panel). */
function transposed(spec, hostWidth) {
  const unit = unitOf(spec);
  const enc = unit.encoding;
  const narrow = hostWidth < 520;
  const onTop = Boolean(spec.facet);
  if (!narrow && !crowded(spec, enc, hostWidth) && !onTop) return spec;
  let patched = unit;
  if (enc.x.type === 'nominal' && (narrow || crowded(spec, enc, hostWidth))) {
    const { x, y, xOffset, ...rest } = enc;
    patched = { ...unit, encoding: { ...rest, y: { ...x, title: null, axis: { labelLimit: categoryRoom(narrow) } }, x: y, ...(xOffset ? { yOffset: xOffset } : {}) } };
  }
  if (!onTop) return spec.facet ? { ...spec, spec: patched } : patched;
  // panel labels above each panel ("Cache GB: 27") instead of a column on the left
  const row = spec.facet.row;
  // a header starts where its panel does, right of the y axis: its room is the plot's width
  // (xyLayout's reserve for the axes when the headers are on top); headers are 12 px
  const chars = Math.floor((hostWidth - ON_TOP_RESERVE) / (CHAR_PX * 12 / 11));
  const lines = {};
  for (const v of new Set(spec.data.values.map((r) => String(r[row.field])))) lines[v] = wrap(`${row.title}: ${v}`, chars);
  const { props, param } = linesLabel('headerLines', lines);
  const header = { title: null, labelOrient: 'top', labelAnchor: 'start', labelAngle: 0, labelFontWeight: 600, labelLimit: 0, ...props };
  return withParams({ ...spec, facet: { ...spec.facet, row: { ...row, header } }, spec: patched }, [param]);
}

const onTopOf = (spec) => Boolean(spec.facet && spec.facet.row.header && spec.facet.row.header.labelOrient === 'top');

/** Long labels (labels.js): the colour legend in columns of whole labels or wrapped (its
 * title too), category axis labels (nominal, or the ordinal x of a line over named values)
 * wrapped to their room, number axes' titles wrapped to their length and their labels thinned
 * where they would touch. */
function labelled(spec, hostWidth, plotWidth) {
  const unit = unitOf(spec);
  const enc = { ...unit.encoding };
  const values = (field) => spec.data.values.map((r) => r[field]).filter((v) => v !== null && v !== undefined);
  const narrow = hostWidth < 520;
  const params = [];
  if (enc.color && enc.color.type === 'nominal') {
    // the legend starts where the plot does: its room is the plot's, right of the y axis labels
    const left = enc.y.type === 'nominal' ? categoryRoom(narrow) + 30 : 70;
    const room = Math.min(plotWidth, hostWidth - left - (spec.facet && !onTopOf(spec) ? 40 : 0));
    const { props, param } = legendFor(values(enc.color.field), room, 'legendLines', enc.color.title);
    enc.color = { ...enc.color, legend: { ...(enc.color.legend || {}), ...props } };
    params.push(param);
  }
  for (const ch of ['x', 'y']) {
    const e = enc[ch];
    if (!e) continue;
    if (e.type === 'nominal' || e.type === 'ordinal') {
      const cats = values(e.field);
      const room = ch === 'y' ? categoryRoom(narrow) : plotWidth / Math.max(1, new Set(cats.map(String)).size) - 6;
      const { props, param } = categoryAxis(cats, room, `${ch}Lines`);
      enc[ch] = { ...e, axis: { ...(e.axis || {}), ...props } };
      params.push(param);
    } else {
      // a number axis' title (the column's heading) in lines that fit along its axis: the
      // plot's width; a y title only beside the panels of a faceted chart, where the next
      // panel's title starts a panel's height, the spacing (20 px) and, with the panel
      // labels on top, at least one line of them (15 px) further on
      const along = ch === 'x' ? plotWidth : spec.facet ? (unit.height || 200) + 20 + (onTopOf(spec) ? 15 : 0) : null;
      const title = typeof e.title === 'string' && along ? { title: axisTitleLines(e.title, along) } : {};
      const axis = ch === 'x' ? { axis: { ...(e.axis || {}), labelOverlap: 'greedy', labelSeparation: 6 } } : {};
      enc[ch] = { ...e, ...title, ...axis };
    }
  }
  const cats = enc.y && enc.y.type === 'nominal' ? values(enc.y.field) : [];
  const patched = { ...unit, encoding: enc, ...categoryHeight(unit, cats, narrow) };
  return withParams(spec.facet ? { ...spec, spec: patched } : patched, params);
}

const LINE_PX = 13; // a wrapped category label's line (11 px text)

/** A chart with its categories down the y axis is tall enough for each category's wrapped
 * label: every band holds the longest label's lines (labels that do not fit their band are
 * dropped as overlapping: ICP's Innodb_buffer_pool_reads at 375 px). */
function categoryHeight(unit, values, narrow) {
  const cats = Array.from(new Set(values.map(String)));
  if (!cats.length) return {};
  const chars = Math.floor(categoryRoom(narrow) / CHAR_PX);
  const most = Math.max(...cats.map((c) => wrap(c, chars).length));
  const need = cats.length * (most * LINE_PX + 8);
  return need > (unit.height || 200) ? { height: need } : {};
}

/** The Vega-Lite spec drawn in a figure `hostWidth` px wide, and its plot width (px). */
export function xyLayout(spec, hostWidth, log = specLog(spec)) {
  const drawn = transposed(withLog(spec, log), hostWidth);
  const enc = unitOf(drawn).encoding;
  // room for axes, legend and panel headers, so that one render usually fits
  const reserve = (spec.facet && !onTopOf(drawn) ? 130 : ON_TOP_RESERVE) + (enc.yOffset ? 40 : 0);
  const width = Math.max(160, Math.floor(hostWidth - reserve));
  return { spec: labelled(drawn, hostWidth, width), width };
}

export class XYChart {
  /** The initial view (the post's own scale) in a figure `hostWidth` px wide, themed by `read`
   * (a CSS custom property's value), at the layout's plot width or `plotWidth`: what the build
   * draws as the figure's SVG. */
  static initialView(inputs, hostWidth, read, { plotWidth } = {}) {
    const { spec: drawn, width } = xyLayout(xySpec(inputs), hostWidth);
    return { spec: withWidth({ ...drawn, config: chartConfig(read) }, plotWidth || width), width: plotWidth || width };
  }

  /** Height (px) the chart will likely take, from its spec (panels x panel height plus axes):
   * the placeholder keeps that room where the build drew no SVG (`hugo server`). */
  static expectedHeight(figure, inputs) {
    const spec = xySpec(inputs);
    const facet = spec.facet && (spec.facet.row || spec.facet.column);
    const panels = facet && spec.facet.row ? new Set(spec.data.values.map((r) => r[facet.field])).size : 1;
    return panels * (unitOf(spec).height || 200) + (spec.facet ? 140 : 80);
  }

  constructor(figure, inputs) {
    this.figure = figure;
    this.spec = xySpec(inputs);
    this.id = figure.id;
    this.host = figure.querySelector('.chart-view');
    this.specLog = specLog(this.spec);
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
    label.append(box, ' log scale');
    this.canvas = document.createElement('div');
    this.canvas.className = 'chart-live';
    addExportTools(figure, this.id, async () => { await this.upgrade(); return this.view; }, () => this.plottedRows(), label);
    for (const type of ['pointerenter', 'focusin']) {
      figure.addEventListener(type, () => this.upgrade().catch((err) => console.error(`chart ${this.id}:`, err)), { once: true, passive: true });
    }
  }

  /** Draws the Vega view over the build's SVG, once; resolves when it is drawn (a failure,
   * e.g. the Vega bundle not fetched, leaves the SVG and lets a later call try again). */
  upgrade() {
    if (!this.upgrading) this.upgrading = this.drawView().catch((err) => { this.upgrading = null; throw err; });
    return this.upgrading;
  }

  plottedRows() {
    const rows = this.spec.data.values;
    return { columns: Object.keys(rows[0] || {}), rows };
  }

  /** Makes the chart live: at the post's own scale, on the build's SVG as it is; else (or once
   * drawn with Vega) the Vega view (render.js drawOver), the first time over the SVG. */
  async draw() {
    if (!this.upgrading) {
      if (this.log === this.specLog && this.host.querySelector(':scope > svg.chart-svg')) return;
      await this.upgrade();
      return;
    }
    await this.upgrading;
    await this.drawView(); // a new scale, colour scheme or width
  }

  async drawView() {
    const { drawOver } = await loadVega();
    const { spec, width } = xyLayout(this.spec, this.host.clientWidth, this.log);
    if (this.view) this.view.finalize();
    this.view = await drawOver(this.host, this.canvas, spec, width);
  }
}
