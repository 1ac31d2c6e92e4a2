// The "bars" and "line" chart kinds: a Vega-Lite spec made by the Hugo partial (chart-parts/xy.html).
// The layout (log y, bars on their side, plot width) is a pure function of the spec and the
// width of the figure, so the build-time SVG (publish/chart_svgs.js) and the live chart agree.
import { renderFitted, withWidth } from './render.js';
import { chartConfig } from './theme.js';
import { getState, setState } from './hash.js';
import { addExportTools } from './export.js';

const unitOf = (spec) => (spec.facet ? spec.spec : spec);

/** Whether the post asked for a log y scale. */
function specLog(spec) {
  return (unitOf(spec).encoding.y.scale || {}).type === 'log';
}

function withLog(spec, log) {
  const unit = unitOf(spec);
  const linear = specLog(spec) ? { zero: (unit.mark.type || unit.mark) === 'bar' } : unit.encoding.y.scale;
  const y = { ...unit.encoding.y, scale: log ? { type: 'log' } : linear };
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

/** On narrow screens, or when their labels are crowded, grouped bars and dot plots lie on
 * their side (categories on y); on narrow screens panel labels go above the panels. */
function transposed(spec, hostWidth) {
  const unit = unitOf(spec);
  const enc = unit.encoding;
  const narrow = hostWidth < 520;
  if (!narrow && !crowded(spec, enc, hostWidth)) return spec;
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

/** The Vega-Lite spec drawn in a figure `hostWidth` px wide, and its plot width (px). */
export function xyLayout(spec, hostWidth, log = specLog(spec)) {
  const drawn = transposed(withLog(spec, log), hostWidth);
  const enc = unitOf(drawn).encoding;
  // room for axes, legend and panel headers, so that one render usually fits
  const reserve = (spec.facet ? 130 : 100) + (enc.yOffset ? 40 : 0);
  return { spec: drawn, width: Math.max(160, Math.floor(hostWidth - reserve)) };
}

export class XYChart {
  /** The initial view (the post's own scale) in a figure `hostWidth` px wide, themed by `read`
   * (a CSS custom property's value), at the layout's plot width or `plotWidth`: what the build
   * draws as the figure's SVG. */
  static initialView(spec, hostWidth, read, { plotWidth } = {}) {
    const { spec: drawn, width } = xyLayout(spec, hostWidth);
    return { spec: withWidth({ ...drawn, config: chartConfig(read) }, plotWidth || width), width: plotWidth || width };
  }

  /** Height (px) the chart will likely take, from its spec (panels x panel height plus axes):
   * the placeholder keeps that room where the build drew no SVG (`hugo server`). */
  static expectedHeight(figure, spec) {
    const facet = spec.facet && (spec.facet.row || spec.facet.column);
    const panels = facet && spec.facet.row ? new Set(spec.data.values.map((r) => r[facet.field])).size : 1;
    return panels * (unitOf(spec).height || 200) + (spec.facet ? 140 : 80);
  }

  constructor(figure, spec) {
    this.figure = figure;
    this.spec = spec;
    this.id = figure.id;
    this.host = figure.querySelector('.chart-view');
    this.specLog = specLog(spec);
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
    addExportTools(figure, this.id, () => this.view, () => this.plottedRows(), label);
  }

  plottedRows() {
    const rows = this.spec.data.values;
    return { columns: Object.keys(rows[0] || {}), rows };
  }

  /** Draws the live chart. The first time, it is drawn hidden over the build-time SVG, which
   * it then replaces: both have the same size, so nothing on the page moves. */
  async draw() {
    const { spec, width } = xyLayout(this.spec, this.host.clientWidth, this.log);
    if (this.view) this.view.finalize();
    const handover = !this.canvas.isConnected;
    if (handover) {
      this.canvas.classList.add('handover');
      this.host.append(this.canvas);
    }
    this.view = (await renderFitted(this.canvas, spec, width)).view;
    if (handover) {
      // keep at least the SVG's height: a live chart a few pixels shorter (text is measured
      // differently at build time) then moves nothing below it
      const svg = Array.from(this.host.querySelectorAll(':scope > svg')).find((e) => e.getBoundingClientRect().height > 0);
      if (svg) this.host.style.minHeight = `${svg.getBoundingClientRect().height}px`;
      this.host.querySelectorAll(':scope > svg').forEach((e) => e.remove());
      this.host.classList.remove('pending');
      this.canvas.classList.remove('handover');
    }
  }
}
