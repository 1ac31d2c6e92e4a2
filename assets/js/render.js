// Rendering a Vega-Lite spec under the page's CSP: vega-embed with Vega's expression
// interpreter (no eval), the page theme and a width that fits the figure.
import embed from 'vega-embed';
import { expressionInterpreter } from 'vega-interpreter';
import { chartConfig } from './theme.js';

export const EMBED_OPTIONS = { ast: true, expr: expressionInterpreter, actions: false, renderer: 'svg' };

/** Plot width for a container: the figure's width less room for axes and legend. */
export function plotWidth(el, reserve = 70) {
  return Math.max(220, Math.floor(el.clientWidth - reserve));
}

/** Sets the plot width on a unit, layer, concat or facet spec (returns a copy). */
export function withWidth(spec, width) {
  const copy = { ...spec };
  if (copy.facet) copy.spec = { ...copy.spec, width };
  else if (copy.vconcat) copy.vconcat = copy.vconcat.map((s) => ({ ...s, width }));
  else copy.width = width;
  return copy;
}

/** Embeds `spec` into `el` with the theme; resolves to the vega-embed result. */
export function render(el, spec, options = {}) {
  const full = { ...spec, config: { ...chartConfig(), ...(spec.config || {}) } };
  return embed(el, full, { ...EMBED_OPTIONS, ...options });
}
