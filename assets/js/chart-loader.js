// Fetches the chart bundle (charts.js, ~70 KB; Vega is a bundle of its own) only when it is
// needed: when a chart comes near the viewport, when the reader touches one (pointer, focus,
// key), or at once when the URL hash holds a chart's view. Until then each chart is the SVG
// the build drew into it.
import { chartIdsInHash, getState } from './hash.js';
import { loadVega, VEGA_KINDS } from './vega-loader.js';

/** When the charts that come near are all drawn with Vega, the Vega bundle is fetched beside
 * the chart bundle rather than one round trip after it (charts.js asks for it once it runs);
 * a time series among them is drawn first, without Vega, whose parse would hold it up. */
function vegaAlongside(figures) {
  if (figures.length && figures.every((f) => VEGA_KINDS.has(f.dataset.kind))) loadVega().catch(() => null);
}

/** Starts fetching the run files a time series shows first, beside the bundle (they came one
 * round trip after it): `window.benchlogRuns` maps a file's URL to the promise of
 * {ok, status, url, data}, which the chart takes (timeseries.js fetchRun). */
function prefetchRuns(figure) {
  if (figure.dataset.kind !== 'timeseries') return;
  try {
    const spec = JSON.parse(document.getElementById(`${figure.id}-spec`).textContent);
    const known = new Set(spec.runs.map((r) => r.id));
    const listed = (getState(figure.id, 'runs') || '').split(',').filter((id) => known.has(id));
    const runs = window.benchlogRuns || (window.benchlogRuns = new Map());
    for (const id of listed.length ? listed : spec.show) {
      const url = `${spec.series}${id}.json`;
      if (runs.has(url)) continue;
      const got = fetch(url).then(async (res) => ({ ok: res.ok, status: res.status, url: res.url, data: res.ok ? await res.json() : null }));
      got.catch(() => null); // the chart reports a failure when it takes the promise
      runs.set(url, got);
    }
  } catch (err) { /* the chart reports a bad spec */ }
}

/** How far outside the viewport a chart makes the page fetch the bundle: little, since the
 * build's SVG already shows the chart; the bundle only adds interaction (and costs ~1 s of
 * main-thread work on a slow phone, which a first screen without a chart should not pay). */
const NEAR = '20% 0px';

/** Watches the page's charts; `src` and `integrity` are the bundle's (from the main script tag). */
export function loadChartsWhenNeeded(src, integrity) {
  const figures = Array.from(document.querySelectorAll('figure.chart[data-kind]'));
  if (!figures.length || !src) return;
  let observer = null;
  const touches = ['pointerdown', 'focusin', 'keydown'];
  const load = (event) => {
    if (event && event.currentTarget) {
      event.currentTarget.dataset.touched = ''; // charts.js draws it first
      prefetchRuns(event.currentTarget);
    }
    if (!observer) return;
    observer.disconnect();
    observer = null;
    figures.forEach((f) => touches.forEach((t) => f.removeEventListener(t, load)));
    const script = document.createElement('script');
    script.src = src;
    if (integrity) script.integrity = integrity;
    document.head.append(script);
  };
  observer = new IntersectionObserver((entries) => {
    const near = entries.filter((e) => e.isIntersecting);
    near.forEach((e) => prefetchRuns(e.target));
    if (near.length && observer) vegaAlongside(near.map((e) => e.target));
    if (near.length) load(null);
  }, { rootMargin: NEAR });
  figures.forEach((f) => {
    observer.observe(f);
    touches.forEach((t) => f.addEventListener(t, load, { passive: true }));
  });
  const inHash = chartIdsInHash();
  const named = figures.filter((f) => inHash.has(f.id));
  named.forEach(prefetchRuns);
  vegaAlongside(named);
  if (named.length) load(null);
}
