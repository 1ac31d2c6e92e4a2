// The drawer of the build-time chart SVGs: `node publish/chart_svgs.js SITE_DIR` with every chart
// of the built site on stdin, run by the publish pipeline's charts step (publish/charts.py,
// which reads the pages and puts the drawings in place). Input: JSON {theme: the light theme's
// custom properties (publish/theme.py), charts: [{page, id, kind, spec (its JSON text)}]}.
// Output: JSON {drawings: [{svg, inline}] in the same order, hits: how many came from the cache
// (null without one)}; publish/charts.py may run several drawers at once, each over a share. For each chart it asks the
// kind's module (assets/js/kinds.js) for the initial view (a time series reads its runs' JSON
// files from the site), renders it with the page's own Vega and Vega-Lite (node_modules, the
// versions of package.json) through Vega's headless SVG renderer and returns
//  - `inline`: the figure's drawing, once for a desktop-wide figure and once for a phone-wide
//    one (main.css shows the one that fits), so the chart is there at first paint, in print and
//    without JavaScript; the chart bundle later replaces it in place (null for a kind whose
//    view is not inlined, e.g. ratio);
//  - `svg`: the desktop one as Vega wrote it (the previews' source, publish/previews.py); both
//    null for a kind with no initial view.
// Colours are the light theme's; main.css maps them to the page's custom properties, so the
// inline SVG follows dark mode. Text is escaped by Vega's renderer; the result is checked for
// markup that could run (script, event handlers). A chart drawn before with the same inputs is
// not drawn again: see `Cache` below. An error is one line on stderr (the page and chart), exit 1.
import { readFileSync, writeFileSync, readdirSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The drawing code (Vega, Vega-Lite, SVGO and the chart kinds' modules), loaded when the first
 * chart not in the cache is drawn: a build whose charts all come from the cache needs none of
 * it (~0.45 s of CPU to load). */
let drawing = null;
async function drawingCode() {
  if (!drawing) {
    const [vega, { compile }, { optimize }] = await Promise.all(
      [import('vega'), import('vega-lite'), import('svgo')]);
    // the chart modules read the URL hash when loaded (a page without one); then no window
    // again, so that Vega's headless views listen to no events (Vega is loaded before: no window)
    globalThis.window = { location: { hash: '', pathname: '/', search: '' } };
    const { KINDS } = await import('../assets/js/kinds.js');
    delete globalThis.window;
    drawing = { vega, compile, optimize, KINDS };
  }
  return drawing;
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Widths (px) of a chart's figure: desktop (main is 52rem less 2 x 1.25rem padding) and a
 * 375 px phone (less 2 x .9rem), as main.css lays them out; the phone one shows below 560 px. */
export const WIDTHS = { wide: 792, narrow: 346 };

/** Renders a Vega-Lite spec to an SVG string with the page's Vega and Vega-Lite. Vega numbers
 * clip paths from a counter global to the process: reset per drawing, so a chart's ids (and
 * bytes) do not depend on which charts were drawn before it (e.g. on what the cache held).
 * Two differences from the page, neither visible in the drawing (the same bytes once inlined:
 * docs/performance.md): Vega's expressions are compiled to functions (the page interprets
 * them, its CSP has no `unsafe-eval`; the build is no page, and the interpreter cost a third of
 * the dataflow), and no ARIA (`aria: false`): Vega-Lite otherwise formats a description of every
 * point of a line, which the inline form drops (the figure has its own label and table). */
async function toSvg(spec) {
  const { vega, compile } = await drawingCode();
  vega.resetSVGDefIds();
  const quiet = { ...spec, config: { ...spec.config, aria: false } };
  const view = new vega.View(vega.parse(compiled(quiet, compile, vega)), { renderer: 'none' });
  try { return await view.toSVG(); } finally { view.finalize(); }
}

/** Vega specs compiled from Vega-Lite, by shape: the Vega-Lite spec with its named datasets
 * empty, as JSON. Vega-Lite copies and walks every row of a dataset it is given (thousands in
 * a time series) and compiles each drawing's expressions again; here a shape is compiled once
 * (a chart's phone and desktop drawings differ in shape, charts made from one template by
 * the same runs share it) and each drawing gets its own rows, copied (Vega marks the rows it
 * ingests), in place of the empty datasets. The same Vega spec as compiling the whole. */
const COMPILED = new Map();
function compiled(spec, compile, vega) {
  const { datasets = {}, ...rest } = spec;
  const shape = JSON.stringify({ ...rest, datasets: Object.fromEntries(Object.keys(datasets).map((name) => [name, []])) });
  let text = COMPILED.get(shape);
  if (text === undefined) {
    text = JSON.stringify(compile(JSON.parse(shape), { logger: vega.logger(vega.None) }).spec);
    COMPILED.set(shape, text);
  }
  const out = JSON.parse(text);
  for (const data of out.data || []) {
    if (Object.hasOwn(datasets, data.name) && Array.isArray(data.values) && !data.values.length) {
      data.values = datasets[data.name].map((row) => ({ ...row }));
    }
  }
  return out;
}

const size = (svg) => {
  const m = /^<svg[^>]* width="([\d.]+)" height="([\d.]+)"/.exec(svg);
  return { width: Number(m[1]), height: Number(m[2]) };
};

/** The SVG of a kind's initial view in a figure `hostWidth` px wide; like the page's
 * renderFitted, narrows the plot once when axes and legend make it wider than the figure. */
async function render(Kind, spec, hostWidth, read, load) {
  const initial = Kind.initialView(spec, hostWidth, read, { load });
  if (!initial) return null;
  let svg = await toSvg(initial.spec);
  const over = Math.ceil(size(svg).width - hostWidth);
  if (initial.width && over > 0) {
    const plotWidth = Math.max(160, initial.width - over - 2);
    svg = await toSvg(Kind.initialView(spec, hostWidth, read, { load, plotWidth }).spec);
  }
  return { svg, inline: initial.inline !== false };
}

/** Whether an SVG has markup that could run or load something: an element other than
 * drawing ones, an event handler or a link. Text is escaped, so every `<` starts a tag. */
function unsafe(svg) {
  for (const [tag] of svg.matchAll(/<[a-zA-Z][^>]*>/g)) {
    const name = /^<([a-zA-Z]+)/.exec(tag)[1];
    const attrs = tag.replace(/"[^"]*"/g, '""');
    if (!DRAWING.has(name) || /\s(?:on\w+|href|xlink:href|style)\s*=/i.test(attrs)) return tag.slice(0, 80);
  }
  return null;
}
const DRAWING = new Set(['svg', 'g', 'path', 'rect', 'line', 'text', 'tspan', 'title', 'defs', 'clipPath']);

/** SVGO (pinned in package.json) over the inline form: Vega's nested groups collapsed, runs of
 * axis ticks and grid lines merged into one path, shared attributes moved to a group,
 * coordinates to 1 decimal. A chart's picture keeps its look with a third of the elements and
 * half the bytes (docs/lighthouse.md). Colours are kept as written (main.css maps the light
 * theme's to the page's custom properties by value) and so are ids (already unique in the page).
 * Three passes (SVGO_PASSES): SVGO's `multipass` gave the same output on every chart of the site
 * but ran a fourth pass on the large ones only to find nothing left to do (docs/performance.md). */
const SVGO_PASSES = 3;
export const SVGO = { floatPrecision: 1,
  plugins: [{ name: 'preset-default', params: { overrides: { cleanupIds: false, convertColors: false,
    // Less CPU, the same bytes (docs/performance.md, 2026-11-25): off, the preset's plugins for
    // what Vega's SVG never has (doctype, comments, styles, metadata, namespaces, ellipses, ...),
    // and convertPathData's curve and arc work (Vega draws lines, rects and symbols; no
    // change on any chart of the site). The output of every chart was compared byte for byte.
    ...Object.fromEntries(['removeDoctype', 'removeXMLProcInst', 'removeComments', 'removeDeprecatedAttrs',
      'removeMetadata', 'removeEditorsNSData', 'mergeStyles', 'inlineStyles', 'minifyStyles', 'removeUselessDefs',
      'cleanupEnableBackground', 'convertEllipseToCircle', 'removeUnusedNS', 'sortDefsChildren', 'removeDesc',
      'removeNonInheritableGroupAttrs', 'removeEmptyAttrs'].map((name) => [name, false])),
    convertPathData: { makeArcs: false, straightCurves: false, convertToQ: false, curveSmoothShorthands: false,
      smartArcRounding: false } } } }] };
/** The first pass without removeHiddenElems: it computes every element's style up its
 * ancestors twice, a third of the pass's CPU, where Vega's SVG hides nothing but the axis labels
 * it set to opacity 0 (overlapping ones), which inlineSvg drops first (HIDDEN_TEXT); what later
 * passes would find hidden (e.g. a path merged down to a lone move) they still remove. The same
 * bytes on every chart of the site (docs/performance.md, 2026-11-29). */
const SVGO_FIRST = { ...SVGO, plugins: [{ ...SVGO.plugins[0], params: { overrides: {
  ...SVGO.plugins[0].params.overrides, removeHiddenElems: false } } }] };
const HIDDEN_TEXT = /<text\b[^>]* opacity="0"[^>]*>(?:[^<]|<tspan\b[^>]*>[^<]*<\/tspan>)*<\/text>/g;

/** The inline form: no namespace declarations, no ARIA of Vega's marks (the figure has its
 * own label, summary and data table: the SVG is hidden from assistive technology), text in the
 * page's font (main.css: .chart-svg) rather than repeated per text element, coordinates
 * to 1 decimal, no empty paths, ids prefixed with `prefix` (unique in the page); drawn from
 * the top left when the figure is narrower; then optimised by SVGO (the root element as set
 * here). */
export function inlineSvg(svg, variant, font, prefix, optimize) {
  const { width, height } = size(svg);
  const round = (v) => v.replace(/-?\d+\.\d{2,}/g, (n) => String(Number(Number(n).toFixed(1))));
  const body = svg.replace(/^<svg[^>]*>/, '')
    .replace(/ (?:role|aria-roledescription|aria-label|aria-hidden|class)="[^"]*"/g, '')
    .replace(/ (?:opacity="1"|pointer-events="none")/g, '')
    .replace(new RegExp(` font-family="${font.replace(/"/g, '&quot;').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`, 'g'), '')
    .replace(/ (d|transform)="([^"]*)"/g, (m, name, v) => ` ${name}="${round(v)}"`)
    .replace(/<path d="(?:M0,0h0v0h0Z)?"(?: pointer-events="none")?(?: display="none")?\/>/g, '')
    .replace(/<(?:line|path|rect)\b[^>]* opacity="0"[^>]*\/>/g, '') // invisible (e.g. hover rules)
    .replace(HIDDEN_TEXT, '') // labels Vega hid (overlapping ones)
    // ids (Vega's clip paths) are unique in the page, not only in one SVG
    .replace(/ id="([\w-]+)"/g, ` id="${prefix}-$1"`).replace(/url\(#([\w-]+)\)/g, `url(#${prefix}-$1)`);
  const root = `<svg class="chart-svg ${variant}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" `
    + 'preserveAspectRatio="xMinYMin meet" aria-hidden="true" focusable="false">';
  const lines = [];
  let out = root + body.replace(LINE, (m, d) => ` d="M0 0h1" data-line="${lines.push(d) - 1}"`);
  for (let pass = 0; pass < SVGO_PASSES; pass += 1) out = optimize(out, pass ? SVGO : SVGO_FIRST).data;
  return placeLines(out, lines).replace(/^<svg[^>]*>/, root);
}

/** A line mark's path as Vega writes it (absolute moves and lines, e.g. a time series' run of
 * ~700 points): at least LINE_POINTS points. SVGO spent most of its time on these (parsing,
 * relative coordinates, rounding, three passes over thousands of numbers: ~70% of a time
 * series' SVGO CPU), so they go through it as a one-segment placeholder and are written by
 * `compactLine` instead, which does the same for this simple shape in one walk. */
const LINE_POINTS = 64;
// one way only to match a number: a pattern with two (e.g. `\d+\.?\d*`) backtracks
// exponentially over a path with fewer points, which is not matched
const NUM = String.raw`-?(?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?`;
const LINE = new RegExp(String.raw` d="(M${NUM},${NUM}(?:[LM]${NUM},${NUM}){${LINE_POINTS - 1},})"`, 'g');

/** The SVG with each placeholder (data-line="i") given its line, `lines[i]`, moved by where
 * SVGO put the placeholder's start (the translation of the groups it folded into the path). */
function placeLines(svg, lines) {
  return svg.replace(/<path\b[^>]*>/g, (tag) => {
    const ref = / data-line="(\d+)"/.exec(tag);
    if (!ref) return tag;
    return tag.replace(ref[0], '').replace(/ d="([^"]*)"/, (m, d) => {
      const [x, y] = d.match(/-?(?:\d+\.?\d*|\.\d+)/g).map(Number);
      return ` d="${compactLine(lines[Number(ref[1])], x, y)}"`;
    });
  });
}

/** Path data of the polyline `d` (Vega's `M x,y L x,y ...`, moves where the line breaks)
 * shifted by (dx, dy), as SVGO writes it at 1 decimal: each subpath's start absolute, then
 * relative steps (h or v when one coordinate stays, one for a run of them the same way), no
 * zero-length step, no repeated command letter, no separator a sign or second decimal point
 * makes needless. Positions are rounded to tenths first and the steps taken between the
 * rounded ones, so rounding never adds up. */
export function compactLine(d, dx = 0, dy = 0) {
  const steps = []; // [command, tenths...]
  let x = 0, y = 0;
  for (const [, c, xs, ys] of d.matchAll(/([ML])([^,LM]+),([^LM]+)/g)) {
    const nx = Math.round((Number(xs) + dx) * 10), ny = Math.round((Number(ys) + dy) * 10);
    const prev = steps[steps.length - 1];
    if (c === 'M') steps.push(['M', nx, ny]);
    else if (nx === x && ny === y) continue;
    else if (ny === y || nx === x) {
      const [c1, by] = ny === y ? ['h', nx - x] : ['v', ny - y];
      if (prev && prev[0] === c1 && Math.sign(prev[1]) === Math.sign(by)) prev[1] += by;
      else steps.push([c1, by]);
    } else steps.push(['l', nx - x, ny - y]);
    x = nx;
    y = ny;
  }
  const out = [];
  let cmd = '', last = '', dot = false;
  for (const [c, ...values] of steps) {
    if (c !== cmd || c === 'M') { out.push(c); cmd = c; last = ''; }
    for (const tenths of values) {
      const a = Math.abs(tenths), i = Math.floor(a / 10), f = a % 10;
      const text = (tenths < 0 ? '-' : '') + (f ? `${i || ''}.${f}` : String(i));
      if (last && !(text[0] === '-' || (text[0] === '.' && dot))) out.push(' ');
      out.push(text);
      last = text;
      dot = text.includes('.');
    }
  }
  return out.join('');
}

/** Reads a file of the site by its URL (root-relative, under the site's base path). */
function siteFile(site, url) {
  const parts = decodeURIComponent(url.split(/[?#]/)[0]).split('/').filter(Boolean);
  if (parts.includes('..')) throw new Error(`${url}: not a file of the site`);
  for (let i = 0; i < parts.length; i += 1) {
    const path = join(site, ...parts.slice(i));
    if (existsSync(path)) return readFileSync(path, 'utf8');
  }
  throw new Error(`${url}: no such file in ${site}`);
}

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/** What this script, the chart modules, the theme, the pinned Vega/Vega-Lite/SVGO and the SVGO
 * settings draw with: any change to one of them and no cached drawing is reused. */
function codeKey() {
  const files = [fileURLToPath(import.meta.url), join(ROOT, 'package-lock.json'), join(ROOT, 'assets/css/main.css')];
  const js = (dir) => readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? js(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : []));
  const h = createHash('sha256').update(JSON.stringify({ WIDTHS, SVGO, SVGO_FIRST, SVGO_PASSES, node: process.versions.node }));
  for (const f of [...files, ...js(join(ROOT, 'assets/js'))]) h.update(`${f.slice(ROOT.length)}\0`).update(readFileSync(f)).update('\0');
  return h.digest('hex');
}

/** Drawings of earlier builds, one JSON file per chart in .cache/chart-svgs/<code key>/ (gitignored;
 * CHART_SVG_CACHE=DIR elsewhere, CHART_SVG_CACHE=off for none): keyed by the code key, the
 * chart's id and kind and its spec's text; an entry holds the site files the drawing read (a
 * time series' run JSON, by URL and sha256) and is reused only while each still has those
 * bytes. Then the output is the same as drawing again (the drawing is a function of these). */
class Cache {
  constructor(root) {
    this.hits = 0;
    this.dir = null;
    if (!root) return;
    this.code = codeKey();
    // one subdirectory per code key; those of other code keys can never be used again, so a
    // change of the chart code does not leave the old drawings behind
    const sub = this.code.slice(0, 16);
    mkdirSync(join(root, sub), { recursive: true });
    for (const e of readdirSync(root, { withFileTypes: true })) {
      if (e.isDirectory() && /^[0-9a-f]{16}$/.test(e.name) && e.name !== sub) rmSync(join(root, e.name), { recursive: true, force: true });
    }
    this.dir = join(root, sub);
  }

  key(kind, id, specText) { return this.dir && sha256(JSON.stringify([this.code, kind, id, specText])); }

  get(key, site) {
    if (!this.dir) return null;
    const entry = this.#valid(key, site);
    if (entry) this.hits += 1;
    return entry;
  }

  #valid(key, site) {
    let entry;
    try { entry = JSON.parse(readFileSync(join(this.dir, `${key}.json`), 'utf8')); } catch { return null; }
    for (const [url, hash] of Object.entries(entry.reads)) {
      let text;
      try { text = siteFile(site, url); } catch { return null; }
      if (sha256(text) !== hash) return null;
    }
    return entry;
  }

  put(key, entry) {
    if (!this.dir) return;
    const tmp = join(this.dir, `${key}.${process.pid}.tmp`);   // whole files only, for parallel builds
    writeFileSync(tmp, JSON.stringify(entry));
    renameSync(tmp, join(this.dir, `${key}.json`));
  }
}

/** A chart's drawings, from the cache or drawn now: `svg`, the desktop one as Vega wrote it
 * (null when the kind has no initial view), and `inline`, the desktop and phone ones in their
 * inline form for the figure (null when the kind's view is not inlined). */
async function drawChart(kind, id, specText, read, site, cache, file) {
  const key = cache.key(kind, id, specText);
  const hit = cache.get(key, site);
  if (hit) return hit;
  const { KINDS, optimize } = await drawingCode();
  const Kind = KINDS[kind];
  if (!Kind) throw new Error(`${file}: chart ${id}: no kind module for ${kind}`);
  const reads = {};
  const load = (url) => {
    const text = siteFile(site, url);
    reads[url] = sha256(text);
    return JSON.parse(text);
  };
  const spec = JSON.parse(specText);
  // the phone width only for an inlined view (a file-only one, e.g. ratio, uses the desktop drawing alone)
  const views = {};
  for (const [variant, width] of Object.entries(WIDTHS)) {
    if (variant !== 'wide' && !views.wide?.inline) break;
    views[variant] = await render(Kind, spec, width, read, load);
  }
  let entry = { reads, svg: null, inline: null };
  if (views.wide) {
    for (const v of Object.values(views)) if (unsafe(v.svg)) throw new Error(`${file}: chart ${id}: unsafe SVG (${unsafe(v.svg)})`);
    const inline = views.wide.inline
      ? Object.entries(views).map(([variant, v]) => inlineSvg(v.svg, variant, read('--font'), `${id}-${variant}`, optimize)).join('')
      : null;
    entry = { reads, svg: views.wide.svg, inline };
  }
  cache.put(key, entry);
  return entry;
}

async function main(site, input) {
  const { theme, charts } = JSON.parse(input);
  const read = (name) => theme[name] || '';
  const dir = process.env.CHART_SVG_CACHE ?? join(ROOT, '.cache', 'chart-svgs');
  const cache = new Cache(dir === 'off' ? null : dir);
  const drawings = [];
  for (const { page, id, kind, spec } of charts) {
    const { svg, inline } = await drawChart(kind, id, spec, read, site, cache, page);
    drawings.push({ svg, inline });
  }
  process.stdout.write(JSON.stringify({ drawings, hits: cache.dir ? cache.hits : null }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.length !== 3) {
    console.error('usage: node publish/chart_svgs.js SITE_DIR < charts.json (publish/charts.py)');
    process.exit(2);
  }
  main(process.argv[2], readFileSync(0, 'utf8')).catch((err) => { console.error(err.message); process.exit(1); });
}
