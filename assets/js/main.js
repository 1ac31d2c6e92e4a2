// Page script for every page: marks JS as available, makes data tables sortable (each when it
// nears the viewport: tables.js), and fetches the chart bundle when a chart needs it
// (chart-loader.js; its URL is on this script's tag).
import { sortableWhenNear } from './tables.js';
import { loadChartsWhenNeeded } from './chart-loader.js';
import { enhanceLazyTables } from './lazytables.js';

document.documentElement.classList.add('js');
const me = document.currentScript;
const bundle = me ? { src: me.dataset.charts, integrity: me.dataset.chartsIntegrity } : {};
function start() {
  sortableWhenNear();
  loadChartsWhenNeeded(bundle.src, bundle.integrity);
  enhanceLazyTables();
}
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
