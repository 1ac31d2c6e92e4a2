// The bars/line spec builder (assets/js/xyspec.js): what chart-parts/xy.html emits becomes the
// Vega-Lite spec the build draws and the live chart shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { xySpec } from '../../assets/js/xyspec.js';
import { PALETTE } from '../../assets/js/theme.js';

const columns = [
  { key: 'server', label: 'Server', kind: 'label' },
  { key: 'tps', label: 'TPS', kind: 'number', digits: 0 },
  { key: 'basis', label: 'Figure', kind: 'label' },
  { key: 'cache', label: 'Cache GB', kind: 'number', digits: 0 },
];
const rows = [
  { server: 'B', tps: 5, basis: 'estimate', cache: 27 },
  { server: 'A', tps: 2, basis: 'published', cache: 3 },
  { server: 'A', tps: 3, basis: 'published', cache: 27 },
];
const bars = { mark: 'bar', x: 'server', y: 'tps', xType: 'nominal', rows, columns, log: false, xlog: false };

test('keys are sorted at every depth, as Hugo writes a dict', () => {
  const text = JSON.stringify(xySpec(bars));
  const keys = (o) => (o && typeof o === 'object' && !Array.isArray(o) ? [Object.keys(o), ...Object.values(o).flatMap((v) => keys(v))] : Array.isArray(o) ? o.flatMap(keys) : []);
  for (const k of keys(JSON.parse(text))) assert.deepEqual(k, [...k].sort());
  assert.deepEqual(Object.keys(xySpec(bars)), ['$schema', 'data', 'encoding', 'height', 'mark']);
});

test('tooltips format numbers by their digits; y starts at zero for bars only', () => {
  const spec = xySpec(bars);
  assert.deepEqual(spec.encoding.tooltip[1], { field: 'tps', format: ',.0f', title: 'TPS', type: 'quantitative' });
  assert.deepEqual(spec.encoding.tooltip[0], { field: 'server', title: 'Server' });
  assert.deepEqual(spec.encoding.y.scale, { zero: true });
  assert.deepEqual(xySpec({ ...bars, mark: 'line' }).encoding.y.scale, { zero: false });
  assert.deepEqual(xySpec({ ...bars, log: true }).encoding.y.scale, { type: 'log' });
  assert.deepEqual(xySpec(bars).data.values, rows);
});

test('estimates are hollow and dashed, outlined in the palette\'s first colour without a colour', () => {
  const spec = xySpec({ ...bars, basis: 'basis' });
  assert.deepEqual(spec.encoding.fillOpacity.scale, { domain: ['published', 'estimate'], range: [1, 0.2], type: 'ordinal' });
  assert.deepEqual(spec.encoding.strokeDash.scale.range, [[1, 0], [5, 3]]);
  assert.equal(spec.encoding.fillOpacity.title, 'Figure');
  assert.deepEqual(spec.mark, { stroke: PALETTE[0], strokeWidth: 2, tooltip: true, type: 'bar' });
});

test('a colour channel: grouped side by side with a legend, or by x without one', () => {
  const color = { field: 'basis', byX: false, domain: ['estimate', 'published'], range: ['#111', '#222'] };
  const grouped = xySpec({ ...bars, color });
  assert.deepEqual(grouped.encoding.color, { field: 'basis', scale: { domain: color.domain, range: color.range }, sort: null, title: 'Figure', type: 'nominal' });
  assert.deepEqual(grouped.encoding.xOffset, { field: 'basis', sort: null });
  const byX = xySpec({ ...bars, color: { ...color, field: 'server', byX: true } });
  assert.deepEqual(byX.encoding.color.legend, { disable: true });
  assert.equal(byX.encoding.xOffset, undefined);
  const stroked = xySpec({ ...bars, color, basis: 'basis' });
  assert.deepEqual(stroked.encoding.stroke, { ...grouped.encoding.color, legend: null });
  assert.equal(stroked.mark.stroke, undefined);
});

test('a number x: whole numbers, or a log axis at the given values; a post\'s order', () => {
  const line = { ...bars, mark: 'line', x: 'cache', xType: 'quantitative' };
  assert.deepEqual(xySpec(line).encoding.x.axis, { format: 'd', labelAngle: 0, tickMinStep: 1 });
  assert.deepEqual(xySpec(line).encoding.x.scale, { nice: false, type: 'linear', zero: false });
  const log = xySpec({ ...line, xlog: true, xValues: [3, 27] }).encoding.x;
  assert.deepEqual(log.axis, { labelAngle: 0, values: [3, 27] });
  assert.deepEqual(log.scale, { nice: false, type: 'log' });
  assert.deepEqual(xySpec(line).mark, { point: true, tooltip: true, type: 'line' });
  assert.deepEqual(xySpec({ ...bars, order: ['B', 'A'] }).encoding.x.sort, ['B', 'A']);
});

test('panels in the rows\' order, lower for a faceted chart', () => {
  const spec = xySpec({ ...bars, facet: 'cache' });
  assert.deepEqual(spec.facet, { row: { field: 'cache', sort: [27, 3], title: 'Cache GB', type: 'nominal' } });
  assert.equal(spec.spec.height, 170);
  assert.equal(xySpec(bars).height, 260);
});
