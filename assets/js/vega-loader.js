// The Vega bundle (vega-kinds.js: Vega, Vega-Lite and the kinds drawn with them, ~900 KB) is
// a script of its own, fetched only when a chart needs it: a chart of a Vega kind nears the
// viewport, or a time series is exported. A time series (tsplot.js) and a plan view go live
// without it. Its URL and integrity are on the page script's tag (data-vega).

let loading = null;

/** Resolves to the Vega bundle's exports (window.benchlogVega), fetching it once. */
export function loadVega() {
  if (window.benchlogVega) return Promise.resolve(window.benchlogVega);
  if (!loading) {
    loading = new Promise((resolve, reject) => {
      const tag = document.querySelector('script[data-vega]');
      if (!tag) { reject(new Error('no Vega bundle named on the page script')); return; }
      const script = document.createElement('script');
      script.src = tag.dataset.vega;
      if (tag.dataset.vegaIntegrity) script.integrity = tag.dataset.vegaIntegrity;
      script.addEventListener('load', () => resolve(window.benchlogVega));
      script.addEventListener('error', () => { loading = null; reject(new Error(`could not load ${script.src}`)); });
      document.head.append(script);
    });
  }
  return loading;
}
