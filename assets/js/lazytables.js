// Tables published as pages of their own (table/page.html: table shortcode lazy="true", ratio
// charts' data tables): the post carries a link marked data-lazy-src inside a details; when the
// reader opens the details, the table is fetched from that page and put before the link,
// sortable like the others. Until it is in, the details carries data-pending. Without
// JavaScript the link opens the page.
import { enhanceSortable } from './tables.js';

async function fill(details, link) {
  details.dataset.pending = '';
  try {
    const res = await fetch(link.dataset.lazySrc);
    if (!res.ok) throw new Error(`${res.status} fetching ${res.url}`);
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    const wrap = doc.querySelector('.table-wrap');
    if (!wrap) throw new Error(`no table in ${res.url}`);
    const table = document.adoptNode(wrap);
    link.before(table);
    table.querySelectorAll('table.sortable').forEach(enhanceSortable);
    delete link.dataset.lazySrc;
  } catch (err) {
    console.error(err);
  } finally {
    delete details.dataset.pending;
  }
}

/** Fills each lazy table the first time its details opens. */
export function enhanceLazyTables(root = document) {
  root.querySelectorAll('details [data-lazy-src]').forEach((link) => {
    const details = link.closest('details');
    const onToggle = () => {
      if (!details.open) return;
      details.removeEventListener('toggle', onToggle);
      fill(details, link);
    };
    details.addEventListener('toggle', onToggle);
    if (details.open) onToggle();
  });
}
