// The compare page's query section (layouts/_partials/compare/queries.html): a picker shows one
// query of one suite across every query study (hash key compare.query, e.g. TPC-H/19), and each
// row's median over the fastest row's (a query that did not finish has none).
import { getState, setState } from './hash.js';

const form = document.getElementById('compare-queries-filters');
const table = document.getElementById('compare-queries');

function show(key) {
  const rows = Array.from(table.tBodies[0].rows);
  const shown = rows.filter((r) => !key || r.dataset.query === key);
  const medians = shown.map((r) => Number(r.dataset.median)).filter((m) => m > 0);
  const fastest = key && medians.length ? Math.min(...medians) : null;
  const ratioHead = table.tHead.rows[0].lastElementChild;
  ratioHead.hidden = !fastest;
  for (const r of rows) {
    r.hidden = !shown.includes(r);
    const cell = r.lastElementChild;
    cell.hidden = !fastest;
    const m = Number(r.dataset.median);
    cell.textContent = fastest && m > 0 ? `${(m / fastest).toFixed(2)}×` : '';
  }
}

if (form && table) {
  form.hidden = false;
  const select = form.elements.query;
  const fromHash = getState('compare', 'query');
  if (fromHash && Array.from(select.options).some((o) => o.value === fromHash)) select.value = fromHash;
  select.addEventListener('change', () => {
    setState('compare', 'query', select.value || null);
    show(select.value);
  });
  show(select.value);
}
