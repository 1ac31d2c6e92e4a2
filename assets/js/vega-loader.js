// The Vega bundle (vega-kinds.js: Vega, Vega-Lite and the kinds drawn with them, ~900 KB) is
// a script of its own, fetched only when a chart needs it: a chart of a Vega kind nears the
// viewport, a bars or line chart draws its Vega view (xy.js), or a chart is exported as PNG or
// SVG. A time series or metrics chart (tsplot.js), a plan view, a ratio heat-table and a bars or line chart at
// its own scale go live without it. Its URL and integrity are on the page script's tag
// (data-vega). The page script (chart-loader.js) and the chart bundle each hold a copy of this
// module, so the one fetch in flight is kept on `window`, not in the module.

/** The chart kinds drawn with the Vega bundle (vega-kinds.js); kinds.js has every kind. */
export const VEGA_KINDS = new Set(['queries', 'versions']);

/** Resolves to the Vega bundle's exports (window.benchlogVega), fetching it once. */
export function loadVega() {
  if (window.benchlogVega) return Promise.resolve(window.benchlogVega);
  if (!window.benchlogVegaLoading) {
    window.benchlogVegaLoading = new Promise((resolve, reject) => {
      const tag = document.querySelector('script[data-vega]');
      if (!tag) { reject(new Error('no Vega bundle named on the page script')); return; }
      const script = document.createElement('script');
      script.src = tag.dataset.vega;
      if (tag.dataset.vegaIntegrity) script.integrity = tag.dataset.vegaIntegrity;
      script.addEventListener('load', () => resolve(window.benchlogVega));
      script.addEventListener('error', () => { window.benchlogVegaLoading = null; reject(new Error(`could not load ${script.src}`)); });
      document.head.append(script);
    });
  }
  return window.benchlogVegaLoading;
}
