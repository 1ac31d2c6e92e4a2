// The "ratio" chart kind: the heat-table is rendered server-side (chart/ratio-table.html);
// this adds the base picker (hash key `base`), redraws the cells with the same rules, and
// exports: CSV of the ratios shown, PNG/SVG through an off-screen Vega heatmap.
import { compile } from 'vega-lite';
import { parse, View } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { getState, setState } from './hash.js';
import { chartConfig } from './theme.js';
import { addExportTools } from './export.js';

/** |log2 r| edges of the colour classes 1..4 (ratios 1.1, 1.33, 2, 3); beyond is class 5. */
const EDGES = [0.1375, 0.415, 1.0, 1.585];

/** Colour class of a ratio: sign(log2 r) x class of |log2 r|; 0 within noise. */
export function ratioClass(r, noiseA, noiseB) {
  if (noiseA !== undefined && noiseB !== undefined && Math.abs(r - 1) < Math.sqrt(noiseA ** 2 + noiseB ** 2)) return 0;
  const l = Math.log2(r), a = Math.abs(l);
  const i = EDGES.findIndex((e) => a <= e);
  const c = i < 0 ? 5 : i + 1;
  return l < 0 ? -c : c;
}

/** The heat-table's colour of a class, from the page's CSS (--d-5 .. --d5; class 0 uncoloured). */
const CLASSES = [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5];
function classColor(c) {
  return c === 0 ? getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()
    : getComputedStyle(document.documentElement).getPropertyValue(`--d${c}`).trim();
}

const num = (v, d) => v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

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
        within_noise: ok && col !== base ? ratioClass(c.v / b.v, c.n, b.n) === 0 && c.n !== undefined && b.n !== undefined : null });
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
    cells.push(n === null || n === undefined ? { row, col, v } : { row, col, v, n });
  }));
  return { ...spec, cells };
}

export class RatioChart {
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
    label.className = 'chart-controls';
    label.append('Ratios to ', select);
    this.table = figure.querySelector('table.ratio-table');
    this.table.parentElement.before(label);
    addExportTools(figure, this.id, () => this.view(), () => ({
      columns: ['row', 'col', 'value', 'base_value', 'ratio', 'within_noise'], rows: ratioRows(spec, this.base),
    }));
    if (this.base !== spec.base) this.draw();
  }

  /** Redraws header and cells for the current base (same rules as chart/ratio-table.html). */
  draw() {
    const { spec, base } = this;
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
        if (r.ratio === null) { td.classList.add('missing'); td.textContent = 'n/a'; return; }
        const abs = num(r.value, spec.valueDigits);
        if (col === base) { td.classList.add('base'); td.dataset.c = '0'; td.textContent = abs; return; }
        const c = ratioClass(r.ratio, spec.cells.find((x) => x.row === r.row && x.col === col).n, spec.cells.find((x) => x.row === r.row && x.col === base).n);
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
    const n = (row, col) => (this.spec.cells.find((x) => x.row === row && x.col === col) || {}).n;
    const rows = ratioRows(this.spec, this.base).map((r) => ({ ...r, name: this.spec.colNames[this.spec.cols.indexOf(r.col)],
      cls: r.col === this.base || r.within_noise || r.ratio === null ? 0 : ratioClass(r.ratio, n(r.row, r.col), n(r.row, this.base)),
      label: r.ratio === null ? 'n/a' : r.col === this.base ? num(r.value, this.spec.valueDigits) : `${num(r.ratio, this.spec.digits)}×` }));
    const spec = {
      data: { values: rows }, width: 90 * this.spec.cols.length, height: 26 * this.spec.rows.length,
      encoding: { x: { field: 'name', type: 'nominal', sort: this.spec.colNames, title: `${this.spec.colTitle} (base ${this.spec.colNames[this.spec.cols.indexOf(this.base)]})`, axis: { orient: 'top', labelAngle: 0 } },
        y: { field: 'row', type: 'nominal', sort: this.spec.rows, title: this.spec.rowTitles.join(' · ') } },
      layer: [
        { mark: 'rect', encoding: { color: { field: 'cls', type: 'ordinal', scale: { domain: CLASSES, range: CLASSES.map(classColor) }, legend: null } } },
        { mark: { type: 'text', fontSize: 11 }, encoding: { text: { field: 'label' }, color: {
          condition: [{ test: 'datum.cls === 0', value: getComputedStyle(document.documentElement).getPropertyValue('--fg').trim() },
            { test: 'abs(datum.cls) >= 4', value: '#fff' }],
          value: '#1d1f21' } } },
      ],
      config: chartConfig(),
    };
    const runtime = parse(compile(spec).spec, null, { ast: true });
    return new View(runtime, { expr: expressionInterpreter, renderer: 'none' });
  }
}
