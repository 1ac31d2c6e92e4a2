// Sortable data tables: each header becomes a button; numeric columns sort by data-sort, or by
// their text when it is the exact number (missing values always last), text columns by their text.

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
