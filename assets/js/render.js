// Rendering a Vega-Lite spec under the page's CSP: vega-embed with Vega's expression
// interpreter (no eval), the page theme and a width that fits the figure.
import embed from 'vega-embed';
import { compile } from 'vega-lite';
import { expressionInterpreter } from 'vega-interpreter';
import { chartConfig } from './theme.js';
import { plotWidth, nextTask, withWidth } from './layout.js';

export { plotWidth, nextTask, withWidth };

export const EMBED_OPTIONS = { ast: true, expr: expressionInterpreter, actions: false, defaultStyle: false, renderer: 'canvas' };



/** Embeds `spec` into `el` with the theme; resolves to the vega-embed result. The Vega-Lite
 * compile and the Vega view run in separate tasks, so neither blocks the page for long. */
export async function render(el, spec, options = {}) {
  const full = { ...spec, config: { ...chartConfig(), ...(spec.config || {}) } };
  const vgSpec = compile(full).spec;
  await nextTask();
  return embed(el, vgSpec, { ...EMBED_OPTIONS, ...options, mode: 'vega' });
}

/**
 * Renders `spec` at plot width `width`; when axes, headers or legends make the chart wider
 * than `el`, renders once more with the plot narrowed by the overflow.
 */
export async function renderFitted(el, spec, width, options = {}) {
  let result = await render(el, withWidth(spec, width), options);
  const drawn = el.querySelector('svg, canvas');
  // vega-embed makes `el` inline-block (it grows with the chart), so measure its parent
  const over = drawn ? Math.ceil(drawn.getBoundingClientRect().width - el.parentElement.clientWidth) : 0;
  if (over > 0) {
    result.view.finalize();
    result = await render(el, withWidth(spec, Math.max(160, width - over - 2)), options);
  }
  return result;
}

/**
 * Draws `spec` into `canvas` (a div of the chart's own) inside the figure's view `host`. The
 * first time, it is drawn hidden over the build-time SVG, which it then replaces: both have the
 * same size, so nothing on the page moves (the host keeps at least the SVG's height: a live
 * chart a few pixels shorter, text being measured differently at build time, moves nothing
 * below it). Resolves to the Vega view.
 */
export async function drawOver(host, canvas, spec, width) {
  const handover = !canvas.isConnected;
  if (handover) {
    canvas.classList.add('handover');
    host.append(canvas);
  }
  const { view } = await renderFitted(canvas, spec, width);
  if (handover) {
    const svg = Array.from(host.querySelectorAll(':scope > svg')).find((e) => e.getBoundingClientRect().height > 0);
    if (svg) host.style.minHeight = `${svg.getBoundingClientRect().height}px`;
    host.querySelectorAll(':scope > svg').forEach((e) => e.remove());
    host.classList.remove('pending');
    canvas.classList.remove('handover');
  }
  return view;
}
