// The "ratio" chart kind: the heat-table is rendered server-side (chart-parts/ratio-table.html);
// this adds the base picker (hash key `base`), redraws the cells with the same rules, and
// exports: CSV of the ratios shown, PNG/SVG through an off-screen Vega heatmap (the same
// heatmap is the build's SVG of the chart, for previews). The class edges come in the spec
// (`edges`, from chart-parts/ratio-edges.html); the class colours are the page's --d-5 .. --d5.
import { compile } from 'vega-lite';
import { parse, View } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { getState, setState } from './hash.js';
import { chartConfig, cssVar } from './theme.js';
import { addExportTools } from './export.js';
import { decimals } from './chartdom.js';

/** Colour class of a ratio: sign(log2 r) x class of |log2 r| (`edges`: the |log2 r| edges of
 * classes 1..4; beyond is class 5); 0 within noise. */
export function ratioClass(r, noiseA, noiseB, edges) {
  if (noiseA !== undefined && noiseB !== undefined && Math.abs(r - 1) < Math.sqrt(noiseA ** 2 + noiseB ** 2)) return 0;
  const l = Math.log2(r), a = Math.abs(l);
  const i = edges.findIndex((e) => a <= e);
  const c = i < 0 ? 5 : i + 1;
  return l < 0 ? -c : c;
}

/** The heat-table's colour of a class, from the page's CSS (--d-5 .. --d5; class 0 uncoloured). */
const CLASSES = [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5];

const num = (v, d) => decimals(d).format(v);

/** Ratio rows {row, col, value, base_value, ratio, noise} for base column `base`. */
export function ratioRows(spec, base) {
  const cell = (row, col) => spec.cells.find((c) => c.row === row && c.col === col);
  const out = [];
  for (const row of spec.rows) {
    const b = cell(row, base);
    for (const col of spec.cols) {
      const c = cell(row, col);
      const ok = c && b && c.v !== null && b.v !== null && b.v !== 0;
      out.push({ row, col, value: c ? c.v : null, base_value: b ? b.v : null, ratio: ok ? c.v / b.v : null,
        within_noise: ok && col !== base ? ratioClass(c.v / b.v, c.n, b.n, spec.edges) === 0 && c.n !== undefined && b.n !== undefined : null });
    }
  }
  return out;
}

/** The page's spec carries `values` (and `noise`, if any) as {row: [one per column]}; this
 * returns the spec with the {row, col, v, n} cells the rest of this module works on. */
export function withCells(spec) {
  if (spec.cells) return spec;
  const cells = [];
  spec.rows.forEach((row) => spec.cols.forEach((col, ci) => {
    const v = (spec.values[row] || [])[ci];
    if (v === undefined) return;
    const n = spec.noise ? spec.noise[row][ci] : null;
    const t = spec.texts ? spec.texts[row][ci] : null; // a missing value's note: "did not finish"
    const cell = n === null || n === undefined ? { row, col, v } : { row, col, v, n };
    cells.push(t ? { ...cell, t } : cell);
  }));
  return { ...spec, cells };
}

/** The heat-table as a Vega-Lite heatmap for base column `base`, coloured by `read` (a CSS
 * custom property's value). */
function heatmapSpec(spec, base, read) {
  const n = (row, col) => (spec.cells.find((x) => x.row === row && x.col === col) || {}).n;
  const rows = ratioRows(spec, base).map((r) => ({ ...r, name: spec.colNames[spec.cols.indexOf(r.col)],
    cls: r.col === base || r.within_noise || r.ratio === null ? 0 : ratioClass(r.ratio, n(r.row, r.col), n(r.row, base), spec.edges),
    label: r.ratio === null ? ((r.value === null && (spec.cells.find((x) => x.row === r.row && x.col === r.col) || {}).t) || 'n/a') : r.col === base ? num(r.value, spec.valueDigits) : `${num(r.ratio, spec.digits)}×` }));
  return {
    data: { values: rows }, width: 90 * spec.cols.length, height: 26 * spec.rows.length,
    encoding: { x: { field: 'name', type: 'nominal', sort: spec.colNames, title: `${spec.colTitle} (base ${spec.colNames[spec.cols.indexOf(base)]})`, axis: { orient: 'top', labelAngle: 0 } },
      y: { field: 'row', type: 'nominal', sort: spec.rows, title: spec.rowTitles.join(' · ') } },
    layer: [
      { mark: 'rect', encoding: { color: { field: 'cls', type: 'ordinal', scale: { domain: CLASSES, range: CLASSES.map((c) => read(c === 0 ? '--bg' : `--d${c}`)) }, legend: null } } },
      { mark: { type: 'text', fontSize: 11 }, encoding: { text: { field: 'label' }, color: {
        condition: [{ test: 'datum.cls === 0', value: read('--fg') }, { test: 'abs(datum.cls) >= 4', value: '#fff' }],
        value: '#1d1f21' } } },
    ],
    config: chartConfig(read),
  };
}

export class RatioChart {
  /** The heatmap of the post's base, for the build's SVG of the chart (previews); the page
   * itself shows the server-side heat-table, so nothing is drawn into the figure. */
  static initialView(pageSpec, hostWidth, read) {
    return { spec: heatmapSpec(withCells(pageSpec), pageSpec.base, read), inline: false };
  }

  /** Drawn server-side: no placeholder to size. */
  static expectedHeight() { return null; }

  constructor(figure, pageSpec) {
    const spec = withCells(pageSpec);
    this.figure = figure;
    this.spec = spec;
    this.id = figure.id;
    const fromHash = getState(this.id, 'base');
    this.base = spec.cols.includes(fromHash) ? fromHash : spec.base;
    const select = document.createElement('select');
    select.setAttribute('aria-label', 'Base column');
    spec.cols.forEach((c, i) => select.append(new Option(spec.colNames[i], c)));
    select.value = this.base;
    select.addEventListener('change', () => {
      this.base = select.value;
      setState(this.id, 'base', this.base === spec.base ? null : this.base);
      this.draw();
    });
    const label = document.createElement('label');
    label.append('Ratios to ', select);
    this.table = figure.querySelector('table.ratio-table');
    addExportTools(figure, this.id, () => this.view(), () => ({
      columns: ['row', 'col', 'value', 'base_value', 'ratio', 'within_noise'], rows: ratioRows(spec, this.base),
    }), label);
  }

  /** Redraws header and cells for the current base (same rules as chart-parts/ratio-table.html). */
  draw() {
    const { spec, base } = this;
    if (!this.drawn && base === spec.base) { this.drawn = true; return; } // as the server drew it
    this.drawn = true;
    const heads = this.table.tHead.rows[0].cells;
    spec.cols.forEach((c, i) => { heads[spec.rowKeys.length + i].textContent = `${spec.colNames[i]}${c === base ? ' (base)' : ''}`; });
    const rows = ratioRows(spec, base);
    Array.from(this.table.tBodies[0].rows).forEach((tr, ri) => {
      spec.cols.forEach((col, ci) => {
        const r = rows[ri * spec.cols.length + ci];
        const td = tr.cells[spec.rowKeys.length + ci];
        td.className = 'r';
        td.removeAttribute('title');
        td.removeAttribute('data-c');
        if (r.ratio === null) {
          const own = spec.cells.find((x) => x.row === r.row && x.col === col);
          td.classList.add('missing');
          td.textContent = (r.value === null && own && own.t) || 'n/a';
          return;
        }
        const abs = num(r.value, spec.valueDigits);
        if (col === base) { td.classList.add('base'); td.dataset.c = '0'; td.textContent = abs; return; }
        const c = ratioClass(r.ratio, spec.cells.find((x) => x.row === r.row && x.col === col).n, spec.cells.find((x) => x.row === r.row && x.col === base).n, spec.edges);
        td.dataset.c = String(r.within_noise ? 0 : c);
        td.title = abs + (r.within_noise ? ', within noise' : '');
        td.textContent = `${num(r.ratio, spec.digits)}×`;
        if (r.within_noise) {
          td.classList.add('noise');
          const s = document.createElement('small');
          s.textContent = '(noise)';
          td.append(' ', s);
        }
      });
    });
  }

  /** An off-screen Vega view of the heat-table, for PNG/SVG export. */
  view() {
    const runtime = parse(compile(heatmapSpec(this.spec, this.base, cssVar)).spec, null, { ast: true });
    return new View(runtime, { expr: expressionInterpreter, renderer: 'none' });
  }
}
