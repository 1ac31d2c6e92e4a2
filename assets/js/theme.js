// Chart theme from the page's CSS custom properties, so charts follow light/dark mode, and the
// colour-blind-safe categorical palette (Okabe-Ito, black replaced by grey for dark mode),
// kept in palette.json: the Hugo partials read it too (chart-parts/colors.html gives each
// value one colour in every chart of a post).
import palette from './palette.json' with { type: 'json' };

export const PALETTE = palette;

/** The page's value of a CSS custom property (e.g. `--fg`). */
export function cssVar(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** Vega-Lite config for the current colour scheme; `read` gives a CSS custom property's value
 * (the page's by default; the build-time SVG renderer passes the light theme's from main.css). */
export function chartConfig(read = cssVar) {
  const fg = read('--fg'), muted = read('--muted'), rule = read('--rule');
  const font = read('--font') || 'sans-serif';
  const guide = { labelColor: muted, titleColor: fg, labelFont: font, titleFont: font };
  return {
    background: read('--bg'), // the page's own: invisible on the page, readable in exports
    font,
    view: { stroke: null },
    axis: { ...guide, gridColor: rule, domainColor: rule, tickColor: rule, labelFontSize: 11, titleFontSize: 12, titleFontWeight: 600 },
    legend: { ...guide, orient: 'top', labelFontSize: 11, titleFontSize: 12 },
    // panel labels name what each panel is: read like titles, in the text colour
    header: { ...guide, labelColor: fg, labelFontSize: 12, titleFontSize: 12 },
    title: { color: fg, font },
    range: { category: PALETTE },
    // a chart of one colour (no colour field) draws in the palette's first colour, not Vega's
    // default #4c78a8
    bar: { color: PALETTE[0] }, line: { color: PALETTE[0] }, point: { color: PALETTE[0] },
    text: { color: fg },
  };
}

/** Calls `fn` when the OS colour scheme changes. */
export function onSchemeChange(fn) {
  const mq = window.matchMedia('(prefers-color-scheme: dark)');
  mq.addEventListener('change', fn);
}
