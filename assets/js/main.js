// Page script for every page: marks JS as available and makes data tables sortable.
// Small on purpose; charts live in charts.js, loaded only on pages with charts.
import { enhanceSortable } from './tables.js';

document.documentElement.classList.add('js');
function start() {
  document.querySelectorAll('table.sortable').forEach(enhanceSortable);
}
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
