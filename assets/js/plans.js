// The "plans" chart kind: for one query, each series' EXPLAIN plan side by side, the cells that
// differ from the base series' plan at the same step marked. Hugo draws the post's query and
// base (layouts/_partials/chart-parts/plan-grid.html); this adds a query picker and a base
// picker (hash keys `q` and `base`) and redraws the tables with the same rules, and exports the
// plans shown as CSV.
import { getState, setState } from './hash.js';
import { addExportTools } from './export.js';
import { decimals, el } from './chartdom.js';

const num = (v, d) => decimals(d).format(Number(v));

/** The plan of `query` for series `key`, or undefined. */
export function planOf(spec, query, key) {
  return spec.plans.find((p) => p.q === query && p.s === key);
}

/** For each step of a series' plan, the set of cells that differ from the base's plan (the
 * ingest wrote them, the partial put them in the spec for every base); none for the base itself. */
export function differences(spec, query, key, base) {
  const mine = planOf(spec, query, key);
  if (!mine) return null;
  const diff = key === base ? [] : (mine.diff[base] || []);
  return mine.steps.map((step, i) => new Set(diff[i] ? diff[i].d : []));
}

/** A select of `options` ([value, text]) labelled `text`, calling `onChange(value)`. */
function picker(text, options, value, onChange) {
  const select = el('select', { 'aria-label': text });
  for (const [v, t] of options) select.append(new Option(t, v));
  select.value = value;
  select.addEventListener('change', () => onChange(select.value));
  return el('label', {}, `${text} `, select);
}

export class PlansChart {
  /** Drawn server-side as tables: no SVG. */
  static initialView() { return null; }

  static expectedHeight() { return null; }

  constructor(figure, spec) {
    this.figure = figure;
    this.spec = spec;
    this.id = figure.id;
    const q = getState(this.id, 'q'), b = getState(this.id, 'base');
    this.query = spec.queries.includes(q) ? q : spec.query;
    this.base = spec.series.some((s) => s.key === b) ? b : spec.base;
    this.drawn = this.query === spec.query && this.base === spec.base;
    const queries = picker('Query', spec.queries.map((x) => [x, x]), this.query, (v) => {
      this.query = v;
      setState(this.id, 'q', v === spec.query ? null : v);
      this.draw();
    });
    const bases = picker('Compared with', spec.series.map((s) => [s.key, s.name]), this.base, (v) => {
      this.base = v;
      setState(this.id, 'base', v === spec.base ? null : v);
      this.draw();
    });
    addExportTools(figure, this.id, null, () => this.rows(), queries, bases);
  }

  /** The plans shown, one row per step and series, with a column saying what differs. */
  rows() {
    const { spec, query, base } = this;
    const out = [];
    for (const s of spec.series) {
      const plan = planOf(spec, query, s.key);
      const diff = differences(spec, query, s.key, base);
      if (!plan) continue;
      plan.steps.forEach((step, i) => {
        const row = { query, [spec.byTitle]: s.name, step: i + 1 };
        spec.columns.forEach((c, k) => { row[c] = step.c[k]; });
        row.differs = spec.columns.filter((c, k) => diff[i].has(k)).join(' ');
        out.push(row);
      });
    }
    return { columns: ['query', spec.byTitle, 'step', ...spec.columns, 'differs'], rows: out };
  }

  /** Redraws the tables for the current query and base (the server drew the post's own). */
  draw() {
    if (this.drawn) { this.drawn = false; return; }
    const { spec, query, base } = this;
    const baseName = spec.series.find((s) => s.key === base).name;
    const grid = el('div', { class: 'plan-grid', 'data-query': query, 'data-base': base });
    const none = [];
    spec.series.forEach((s, k) => {
      const plan = planOf(spec, query, s.key);
      if (!plan) { none.push(s.name); return; }
      const hid = `${this.id}-plan-${k}`;
      const section = el('section', { class: 'plan', 'aria-labelledby': hid },
        el('h3', { class: 'plan-title', id: hid }, `${s.name} `,
          el('span', { class: 'plan-note', text: s.key === base ? '(base)' : `against ${baseName}` })),
        this.table(plan, differences(spec, query, s.key, base), baseName, hid));
      if (plan.more) section.append(el('p', { class: 'plan-note', text: `Runs ${plan.runs}; another plan in other runs (in the CSV).` }));
      grid.append(section);
    });
    const old = this.figure.querySelector('.plan-grid');
    const note = old.nextElementSibling && old.nextElementSibling.classList.contains('plan-none') ? old.nextElementSibling : null;
    if (note) note.remove();
    old.replaceWith(grid);
    if (none.length) {
      const names = none.length > 1 ? `${none.slice(0, -1).join(', ')} and ${none[none.length - 1]}` : none[0];
      grid.after(el('p', { class: 'plan-none', text: `No plan of query ${query} for ${names} (none in the data).` }));
    }
  }

  table(plan, diff, baseName, hid) {
    const { spec } = this;
    const head = el('tr', {}, el('th', { scope: 'col', text: 'Step' }), ...spec.headings.map((h) => el('th', { scope: 'col', text: h })));
    const body = el('tbody');
    plan.steps.forEach((step, i) => {
      const tr = el('tr', {}, el('th', { scope: 'row', text: String(i + 1) }));
      step.c.forEach((v, c) => {
        const d = spec.digits[c];
        const text = v === null || v === undefined ? '' : d >= 0 ? num(v, d) : String(v);
        const td = el('td', d >= 0 ? { class: 'number' } : {});
        if (diff[i].has(c)) td.append(el('mark', { text: text || 'none' }), el('span', { class: 'visually-hidden', text: ` (differs from ${baseName})` }));
        else td.textContent = text;
        tr.append(td);
      });
      body.append(tr);
    });
    return el('div', { class: 'table-wrap', role: 'region', tabindex: '0', 'aria-labelledby': hid },
      el('table', { class: 'data plan-table' }, el('thead', {}, head), body));
  }
}
