// Sortable data tables: each header becomes a button; numeric columns sort by data-sort, or by
// their text when it is the exact number (missing values always last), text columns by their text.
// A long post has a hundred or more tables, most of them far below the first screen or in closed
// details: turning every header into a button at load was one long task (restyle and layout of
// every table), so a table is made sortable when it comes near the viewport, or when it takes the
// keyboard focus first.

/** Makes each table.sortable under `root` sortable when it nears the viewport (a screen ahead)
 * or when focus enters it, whichever comes first. Never before the first paint: the sort mark
 * is the header's own and the button inline text (main.css), so a header keeps its size and
 * nothing shifts, and reading the tables' positions at load forced a layout of the whole page
 * before it could paint (~20 ms of the cloud post's first paint, bench/render_bench.py). */
export function sortableWhenNear(root = document) {
  const tables = Array.from(root.querySelectorAll('table.sortable'));
  const ready = new WeakSet();
  const enhance = (table) => {
    if (ready.has(table)) return;
    ready.add(table);
    observer?.unobserve(table);
    enhanceSortable(table);
  };
  const observer = 'IntersectionObserver' in window
    ? new IntersectionObserver((entries) => entries.forEach((e) => e.isIntersecting && enhance(e.target)),
      { rootMargin: '100% 0px' })
    : null;
  tables.forEach((table) => {
    if (observer) observer.observe(table);
    else enhance(table);
    table.closest('.table-wrap')?.addEventListener('focusin', () => enhance(table), { once: true });
  });
}

/** Makes one <table class="sortable"> sortable by clicking (or Enter/Space on) its headers. */
export function enhanceSortable(table) {
  const headers = Array.from(table.tHead ? table.tHead.rows[0].cells : []);
  headers.forEach((th, col) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = th.textContent;
    th.textContent = '';
    th.appendChild(button);
    button.addEventListener('click', () => {
      const dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
      headers.forEach((h) => h.removeAttribute('aria-sort'));
      th.setAttribute('aria-sort', dir);
      sortBody(table.tBodies[0], col, dir === 'ascending' ? 1 : -1);
    });
  });
}

function sortKey(cell) {
  if (cell.hasAttribute('data-sort')) {
    const raw = cell.getAttribute('data-sort');
    return raw === '' ? null : Number(raw);
  }
  // a number cell printed exactly (no rounding) has no data-sort: its text, without grouping and ×
  if (cell.classList.contains('number') || cell.classList.contains('ratio')) return Number(cell.textContent.replace(/[,×]/g, ''));
  return cell.textContent.trim();
}

function sortBody(tbody, col, sign) {
  const rows = Array.from(tbody.rows);
  const keyed = rows.map((row, i) => ({ row, i, key: sortKey(row.cells[col]) }));
  keyed.sort((a, b) => {
    if (a.key === null || b.key === null) return (a.key === null) - (b.key === null) || a.i - b.i;
    const c = typeof a.key === 'number' ? a.key - b.key : String(a.key).localeCompare(String(b.key), undefined, { numeric: true });
    return sign * c || a.i - b.i;
  });
  keyed.forEach(({ row }) => tbody.appendChild(row));
}
