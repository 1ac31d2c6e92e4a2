// Page script for every page: marks JS as available, makes data tables sortable and wires
// the ratio tables' base picker. Small on purpose; charts live in charts.js.
import { enhanceSortable } from './tables.js';
import { enhanceRatioTables } from './ratio.js';

document.documentElement.classList.add('js');
function start() {
  document.querySelectorAll('table.sortable').forEach(enhanceSortable);
  enhanceRatioTables(document);
}
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
