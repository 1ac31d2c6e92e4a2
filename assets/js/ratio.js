// The "ratio" chart kind: the heat-table is rendered server-side (chart-parts/ratio-table.html);
// this adds the base picker (hash key `base`), redraws the cells with the same rules, and
// exports: CSV of the ratios shown, PNG/SVG through an off-screen Vega heatmap (the same
// heatmap is the build's SVG of the chart, for previews). Each cell's colour class and noise
// verdict are the ingest's (ingest/derive/ratios.py): the spec carries the post's base's
// (`classes`, `noise`), the file at `basesUrl` every base's; this only shows them. The class
// colours are the page's --d-5 .. --d5. The table needs no Vega: the kind is in the main chart
// bundle, and the Vega bundle is fetched for a PNG or SVG export only (vega-loader.js).
import { loadVega } from './vega-loader.js';
import { getState, setState } from './hash.js';
import { chartConfig, cssVar } from './theme.js';
import { addExportTools } from './export.js';
import { decimals } from './chartdom.js';

/** The heat-table's colour of a class, from the page's CSS (--d-5 .. --d5; class 0 uncoloured). */
const CLASSES = [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5];

const num = (v, d) => decimals(d).format(v);

/** Ratio rows {row, col, value, base_value, ratio, within_noise, cls} for base column `base`,
 * whose classes and verdicts are `given` ({classes, noise}: one list, row by row, a cell per
 * column; the spec's own for its base): as given, null where there is none. */
export function ratioRows(spec, base, given = spec) {
  const cell = (row, col) => spec.cells.find((c) => c.row === row && c.col === col);
  const out = [];
  spec.rows.forEach((row, ri) => {
    const b = cell(row, base);
    spec.cols.forEach((col, ci) => {
      const c = cell(row, col);
      const ok = c && b && c.v !== null && b.v !== null && b.v !== 0;
      const cls = given.classes[ri * spec.cols.length + ci];
      const noise = given.noise ? given.noise[ri * spec.cols.length + ci] : null;
      out.push({ row, col, value: c ? c.v : null, base_value: b ? b.v : null, ratio: ok ? c.v / b.v : null,
        within_noise: ok && col !== base && noise !== undefined ? noise : null, cls: cls === undefined ? null : cls });
    });
  });
  return out;
}

/** The page's spec carries `values` (and `texts`, if any) as {row: [one per column]}; this
 * returns the spec with the {row, col, v, t} cells the rest of this module works on. */
export function withCells(spec) {
  if (spec.cells) return spec;
  const cells = [];
  spec.rows.forEach((row) => spec.cols.forEach((col, ci) => {
    const v = (spec.values[row] || [])[ci];
    if (v === undefined) return;
    const t = spec.texts ? spec.texts[row][ci] : null; // a missing value's note: "did not finish"
    cells.push(t ? { row, col, v, t } : { row, col, v });
  }));
  return { ...spec, cells };
}

/** The heat-table as a Vega-Lite heatmap for base column `base` (its classes `given`), coloured
 * by `read` (a CSS custom property's value). */
function heatmapSpec(spec, base, read, given = spec) {
  const rows = ratioRows(spec, base, given).map((r) => ({ ...r, name: spec.colNames[spec.cols.indexOf(r.col)],
    cls: r.col === base || r.ratio === null ? 0 : r.cls,
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
    this.select = select;
    const label = document.createElement('label');
    label.append('Ratios to ', select);
    this.table = figure.querySelector('table.ratio-table');
    addExportTools(figure, this.id, () => this.view(), () => ({
      columns: ['row', 'col', 'value', 'base_value', 'ratio', 'within_noise'], rows: ratioRows(spec, this.base, this.given()),
    }), label);
  }

  /** The classes and verdicts of the current base: the spec's, or the fetched file's. */
  given() {
    return this.base === this.spec.base ? this.spec : this.bases[this.base];
  }

  /** Redraws header and cells for the current base (as chart-parts/ratio-table.html draws them),
   * once every base's classes are fetched. */
  async draw() {
    const { spec } = this;
    if (!this.drawn && this.base === spec.base) { this.drawn = true; return; } // as the server drew it
    this.drawn = true;
    if (this.base !== spec.base && !this.bases) {
      this.select.disabled = true;
      try {
        const res = await fetch(spec.basesUrl);
        if (!res.ok) throw new Error(`${res.status}`);
        this.bases = await res.json();
      } catch {
        this.base = spec.base; // what the server drew stays true
        this.select.value = spec.base;
        return;
      } finally {
        this.select.disabled = false;
      }
    }
    const { base } = this;
    const heads = this.table.tHead.rows[0].cells;
    spec.cols.forEach((c, i) => { heads[spec.rowKeys.length + i].textContent = `${spec.colNames[i]}${c === base ? ' (base)' : ''}`; });
    const rows = ratioRows(spec, base, this.given());
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
        td.dataset.c = String(r.cls);
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

  /** An off-screen Vega view of the heat-table, for PNG/SVG export (the Vega bundle's). */
  async view() {
    return (await loadVega()).headlessView(heatmapSpec(this.spec, this.base, cssVar, this.given()));
  }
}
