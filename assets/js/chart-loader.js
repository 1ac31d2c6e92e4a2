// Fetches the chart bundle (charts.js + Vega, ~900 KB) only when it is needed: when a chart
// comes near the viewport, when the reader touches one (pointer, focus, key), or at once when
// the URL hash holds a chart's view. Until then each chart is the SVG the build drew into it.
import { chartIdsInHash } from './hash.js';

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
    if (event && event.currentTarget) event.currentTarget.dataset.touched = ''; // charts.js draws it first
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
    if (entries.some((e) => e.isIntersecting)) load(null);
  }, { rootMargin: NEAR });
  figures.forEach((f) => {
    observer.observe(f);
    touches.forEach((t) => f.addEventListener(t, load, { passive: true }));
  });
  const inHash = chartIdsInHash();
  if (figures.some((f) => inHash.has(f.id))) load(null);
}
