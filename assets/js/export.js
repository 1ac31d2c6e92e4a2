// Export buttons under a chart: PNG and SVG of a Vega view, CSV of what is plotted.

function download(href, name) {
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** One CSV field by the one CSV rule, the ingest's (ingest/write/csvfiles.py, ingest/write/csvsafe.py; both
 * checked against tests/fixtures/csv-fields.json): a number as JSON writes it (-0 keeps its sign),
 * null/undefined/NaN an empty field, text a spreadsheet would run as a formula (=, +, -, @, tab,
 * CR first: OWASP) a leading ' unless it is a plain number, quoted when it holds , " CR or LF. */
export function field(v) {
  if (v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v))) return '';
  let s = Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s) && !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV text from column keys and row objects. */
export function toCsv(columns, rows) {
  return [columns.map(field).join(','), ...rows.map((r) => columns.map((c) => field(r[c])).join(','))].join('\n') + '\n';
}

/**
 * Fills the figure's toolbar (a row the page reserves above the chart, so nothing moves):
 * the chart's own `controls` (elements, optional), then PNG / SVG / CSV buttons. `getView()`
 * returns a Vega view (or a promise of one), `getCsv()` {columns, rows} of what is shown (the
 * values plotted; for a time series every interval of the range shown, not its drawn points);
 * a chart drawn as HTML (the plan view) passes no `getView` and gets the CSV button only.
 */
export function addExportTools(figure, id, getView, getCsv, ...controls) {
  const tools = document.createElement('div');
  tools.className = 'chart-tools';
  tools.setAttribute('role', 'group');
  tools.setAttribute('aria-label', 'Export this chart');
  const add = (label, title, fn) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.title = title;
    b.addEventListener('click', fn);
    tools.appendChild(b);
  };
  if (getView) {
    add('PNG', 'Download the chart as PNG', async () => {
      const view = await getView();
      download(await view.toImageURL('png', 2), `${id}.png`);
    });
    add('SVG', 'Download the chart as SVG', async () => {
      const view = await getView();
      download(await view.toImageURL('svg'), `${id}.svg`);
    });
  }
  add('CSV (as shown)', 'Download the data shown as CSV (a time series: every interval of the runs and range shown, at full resolution)', () => {
    const { columns, rows } = getCsv();
    const url = URL.createObjectURL(new Blob([toCsv(columns, rows)], { type: 'text/csv' }));
    download(url, `${id}-view.csv`);
    window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  const bar = figure.querySelector(':scope > .chart-toolbar');
  bar.append(...controls, tools);
  return tools;
}
