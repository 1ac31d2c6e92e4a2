// The build's inline drawings (publish/chart_svgs.js): a line mark's long path bypasses SVGO
// and is written by compactLine; it must draw the same points SVGO's own path would, in the
// place SVGO's folding of group transforms puts it, and leave shorter paths to SVGO.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { optimize } from 'svgo';
import { SVGO, compactLine, inlineSvg } from '../../publish/chart_svgs.js';

/** The absolute vertices of SVG path data made of moves and straight lines (any case). */
function vertices(d) {
  const out = [];
  let x = 0, y = 0, cmd = '';
  for (const [, c, args] of d.matchAll(/([MmLlHhVv])([^MmLlHhVvZz]*)/g)) {
    const nums = (args.match(/-?(?:\d+(?:\.\d*)?|\.\d+)/g) || []).map(Number);
    cmd = c;
    const arity = 'HhVv'.includes(c) ? 1 : 2;
    for (let i = 0; i < nums.length; i += arity) {
      const k = i === 0 ? cmd : cmd === 'M' ? 'L' : cmd === 'm' ? 'l' : cmd;
      if (k === 'M' || k === 'L') [x, y] = [nums[i], nums[i + 1]];
      else if (k === 'm' || k === 'l') [x, y] = [x + nums[i], y + nums[i + 1]];
      else if (k === 'H') x = nums[i]; else if (k === 'h') x += nums[i];
      else if (k === 'V') y = nums[i]; else y += nums[i];
      out.push([k.toUpperCase() === 'M' ? 'M' : 'L', Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
    }
  }
  return out;
}

/** A polyline of `n` points with steps, flat runs and a break, as Vega writes a line mark. */
function vegaLine(n) {
  const pts = [];
  for (let i = 0; i < n; i += 1) {
    const y = i % 10 < 3 ? 50 : 50 + ((i * 37) % 23) * 1.237 - (i % 7) * 0.311;
    pts.push(`${i === n / 2 ? 'M' : 'L'}${(i * 1.0437).toFixed(3)},${y.toFixed(3)}`);
  }
  return `M${pts.join('').slice(1)}`;
}

test('compactLine writes relative steps at a tenth, merging flat runs and dropping no-ops', () => {
  assert.equal(compactLine('M0,0L1,0L2,0L2,-1L2,-3L1,-3L1,-3L1.5,2.25M5,5L6,5', 0, 0), 'M0 0h2v-3h-1l.5 5.3M5 5h1');
  assert.equal(compactLine('M1.04,2L1.08,2.5L-3,-4', 10, 0.5), 'M11 2.5l.1.5-4.1-6.5');
});

test('a long line drawn by compactLine passes through every vertex SVGO gives it, where SVGO puts it', () => {
  const d = vegaLine(200);
  const page = (path) => '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">'
    + `<g transform="translate(73.5,79)"><g transform="translate(0,12)"><path d="${path}" stroke="#123456" stroke-width="1.1" fill="none"/></g></g></svg>`;
  const ours = inlineSvg(page(d), 'wide', 'sans-serif', 'c', optimize);
  // the same points with spaces for commas are no match for the bypass: SVGO draws them
  const svgos = inlineSvg(page(d.replace(/,/g, ' ')), 'wide', 'sans-serif', 'c', optimize);
  assert.doesNotMatch(ours, /data-line/);
  assert.notEqual(ours, svgos);
  const [got, want] = [ours, svgos].map((svg) => vertices(/ d="([^"]*)"/.exec(svg)[1]));
  const near = (p, q) => p[0] === q[0] && Math.abs(p[1] - q[1]) <= 0.11 && Math.abs(p[2] - q[2]) <= 0.11;
  for (const p of want) assert.ok(got.some((q) => near(p, q)), `SVGO's ${p} not drawn`);
  assert.ok(got.length <= 200, `${got.length} vertices`);
});

test('a shorter path, and one that is no polyline, stay SVGO\'s (and are matched at once)', () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">'
    + `<path d="${vegaLine(40)}" stroke="#123456"/><path d="${vegaLine(2000)}Z" stroke="#654321"/></svg>`;
  const out = inlineSvg(svg, 'wide', 'sans-serif', 'c', optimize);
  assert.doesNotMatch(out, /data-line/);
  // SVGO writes a step absolute where that is shorter (`L`); compactLine never does
  for (const colour of ['#123456', '#654321']) assert.match(out, new RegExp(`stroke="${colour}" d="M0 50[^"]*L`));
});

/** An x axis as Vega draws one: ticks, labels (the last one hidden by Vega, opacity 0, as it
 * hides overlapping labels; one of two lines), a two-line title; an empty area in its clip. */
function vegaAxis() {
  const ticks = [0, 50, 100, 150].map((x) => `<line transform="translate(${x},0)" x2="0" y2="5" stroke="#d9dce1" stroke-width="1"/>`).join('');
  const label = (x, text, hidden) => `<text text-anchor="middle" transform="translate(${x},16)" font-size="11px" fill="#5a6270"${hidden ? ' opacity="0"' : ''}>${text}</text>`;
  return '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="80" viewBox="0 0 300 80">'
    + '<defs><clipPath id="clip1"><rect x="0" y="0" width="150" height="40"/></clipPath></defs>'
    + '<g transform="translate(20,5)"><g clip-path="url(#clip1)"><path d="M0,0" fill="#333" fill-opacity="0.1"/></g>'
    + `<g transform="translate(0,40)"><g>${ticks}</g><g>${label(0, '0')}${label(50, '10')}${label(100, '20', true)}`
    + '<text text-anchor="end" transform="translate(150,16)" font-size="11px" fill="#5a6270" opacity="0"><tspan>30</tspan><tspan x="0" dy="12">s</tspan></text></g>'
    + '<g><text text-anchor="middle" transform="translate(75,31)" font-size="12px" fill="#1d1f21"><tspan>Time</tspan><tspan x="0" dy="14">(s)</tspan></text></g></g></g></svg>';
}

test('the first SVGO pass gets no hidden label and every pass together gives the whole preset\'s bytes', () => {
  const firsts = [];
  const ours = inlineSvg(vegaAxis(), 'wide', 'sans-serif', 'c', (svg, config) => {
    if (!firsts.length) firsts.push(svg);
    return optimize(svg, config);
  });
  const whole = inlineSvg(vegaAxis(), 'wide', 'sans-serif', 'c', (svg) => optimize(svg, SVGO));
  assert.doesNotMatch(firsts[0], /opacity="0"/);
  assert.match(firsts[0], />10<\/text>/);
  assert.equal(ours, whole);
  assert.doesNotMatch(ours, />(?:20|30)</);
  assert.match(ours, /<tspan[^>]*>\(s\)<\/tspan>/);
});
