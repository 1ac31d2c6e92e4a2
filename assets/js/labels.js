// Long labels (40 characters and more): legend entries and category axis labels are wrapped
// into lines that fit, never cut off or drawn over each other. The layout is computed from the
// data and the figure's width only, so the live chart and the build-time SVG
// (publish/chart_svgs.js) wrap the same way. Widths are Vega's own estimate of text without a
// canvas (0.8 x font size a character): an upper bound of the page's font, so what fits by this
// measure fits in the browser too.

const LABEL_FONT = 11; // px, the theme's axis and legend label size (theme.js)
export const CHAR_PX = 0.8 * LABEL_FONT;
const SYMBOL_PX = 30; // a legend entry's symbol, its gap and the space to the next column
const TITLE_FONT = 12; // px, the legend title's size (theme.js), drawn bold
const BOLD = 1.1; // bold letters are wider than the estimate's

/** `word`, longer than `max`, as lines: broken after its underscores, hyphens, dots and slashes
 * (Innodb_buffer_pool_read_requests -> Innodb_buffer_ / pool_read_ / requests), a part still
 * longer than a line cut. */
function breakWord(word, max) {
  const lines = [];
  let line = '';
  for (let part of word.split(/(?<=[_\-./])/)) {
    while (part.length > max) {
      if (line) { lines.push(line); line = ''; }
      lines.push(part.slice(0, max));
      part = part.slice(max);
    }
    if (line.length + part.length > max) { lines.push(line); line = part; }
    else line += part;
  }
  if (line) lines.push(line);
  return lines;
}

/** `text` as lines of at most `chars` characters, broken at spaces; a word longer than a line
 * gets lines of its own, broken at its underscores and other separators (breakWord). */
export function wrap(text, chars) {
  const max = Math.max(4, chars);
  const lines = [];
  let line = '';
  for (let word of String(text).split(/\s+/).filter(Boolean)) {
    if (word.length > max) {
      if (line) { lines.push(line); line = ''; }
      const parts = breakWord(word, max);
      word = parts.pop();
      lines.push(...parts);
    }
    if (line && line.length + 1 + word.length > max) { lines.push(line); line = word; }
    else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

/** The lines of each label of `values` longer than `chars` (wrapped), or null when none is. */
export function wrapped(values, chars) {
  const map = {};
  for (const v of new Set(values.map(String))) if (v.length > chars) map[v] = wrap(v, chars);
  return Object.keys(map).length ? map : null;
}

/** Label properties that draw the labels of `map` (label -> lines) on several lines. The map
 * is a Vega-Lite parameter `name` (a signal's value, JSON data): labels, which come from the
 * data, never become part of an expression's text. Add `param` to the spec's `params`. The
 * second `datum.label` is in brackets: in a facet header Vega-Lite puts a conditional
 * expression in its place, which without them would take the whole `||` as its test (and
 * every header would show its label unwrapped). */
export function linesLabel(name, map) {
  if (!map) return { props: {}, param: null };
  return { props: { labelExpr: `${name}[datum.label] || (datum.label)` }, param: { name, value: map } };
}

/** `spec` with `params` added (null ones skipped). */
export function withParams(spec, params) {
  const add = params.filter(Boolean);
  return add.length ? { ...spec, params: [...(spec.params || []), ...add] } : spec;
}

/** Legend properties for labels `values` in a chart `width` px wide: as many columns as
 * whole labels fit side by side (wrapping onto rows), else one column with the labels
 * wrapped to the width; no label limit (nothing is cut with an ellipsis). A `title` (the
 * column's heading) longer than the width is wrapped too, as lines (Vega draws a list of
 * strings as lines). Returns { props, param } (see linesLabel; `name` names the parameter). */
export function legendFor(values, width, name, title) {
  const labels = Array.from(new Set(values.map(String)));
  const longest = Math.max(1, ...labels.map((l) => l.length));
  const entry = longest * CHAR_PX + SYMBOL_PX;
  const columns = Math.max(1, Math.min(labels.length, Math.floor(width / entry)));
  const { props, param } = linesLabel(name, wrapped(labels, Math.floor((width - SYMBOL_PX) / CHAR_PX)));
  const titled = typeof title === 'string' ? { title: titleLines(title, width), titleLimit: 0 } : {};
  return { props: { columns, labelLimit: 0, direction: 'horizontal', ...titled, ...props }, param };
}

/** A legend title in lines that fit `width` px (12 px bold: ~1.2 x a label's letter), a plain
 * string when it fits on one. */
export function titleLines(title, width) {
  const lines = wrap(title, Math.floor(width / (CHAR_PX * TITLE_FONT / LABEL_FONT) / BOLD));
  return lines.length > 1 ? lines : title;
}

/** An axis title (12 px bold) in lines that fit `px` along its axis, a plain string when it
 * fits on one. Measured with a bold letter's typical width (0.65 x the size), not the upper
 * bound the legends use: a title that fits on one line in the browser stays on one. */
export function axisTitleLines(title, px) {
  const lines = wrap(title, Math.floor(px / (TITLE_FONT * 0.65)));
  return lines.length > 1 ? lines : title;
}

/** Axis properties for category labels `values` given `px` of room each (the band across,
 * or the room beside a vertical axis): wrapped to fit, no ellipsis, and labels that would
 * still overlap dropped as a last resort. Returns { props, param }. */
export function categoryAxis(values, px, name) {
  const { props, param } = linesLabel(name, wrapped(values, Math.floor(px / CHAR_PX)));
  return { props: { labelLimit: 0, labelOverlap: 'greedy', ...props }, param };
}
