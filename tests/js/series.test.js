// The time-series helpers of the chart bundle (assets/js/series.js): the downsampling keeps
// every bucket's extremes and returns raw points when zoomed in, window statistics use the
// ingest's definitions (nearest-rank percentiles, population CV, interval-weighted mean and cv
// for uneven intervals: ingest/join/stats.py, checked against the same numbers in
// tests/test_js_units.py), and the rolling mean skips missing values instead of counting them as 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { smooth, downsample, windowStats, nearestIndex } from '../../assets/js/series.js';

const N = 3600;
const t = [], v = [];
for (let i = 1; i <= N; i += 1) { t.push(i); v.push(i === 1234 ? 5000 : i === 2345 ? -7 : 100 + (i % 17)); }
v[99] = null;
const points = (x0, x1) => { const out = []; downsample(t, v, x0, x1, 300, (ti, vi) => out.push([ti, vi])); return out; };
const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps * Math.max(1, Math.abs(b)), `${a} != ${b}`);

test('downsampling keeps every spike and is small', () => {
  const all = points(0, N);
  assert.ok(all.length <= 2 * 300 + 2, `${all.length} points`);
  assert.deepEqual(all.filter(([ti]) => ti === 1234 || ti === 2345), [[1234, 5000], [2345, -7]]);
  assert.deepEqual(all.map((p) => p[0]), all.map((p) => p[0]).sort((a, b) => a - b));
});

test('a zoomed-in range is at full resolution', () => {
  // every interval, and the one before the range
  assert.deepEqual(points(3000, 3100).map((p) => p[0]), Array.from({ length: 102 }, (_, i) => 2999 + i));
});

test('window statistics follow the ingest definitions', () => {
  const window = [];
  for (let i = 2001; i <= 3600; i += 1) window.push(i === 2345 ? -7 : 100 + (i % 17));
  window.sort((a, b) => a - b);
  const mean = window.reduce((a, b) => a + b, 0) / window.length;
  const cv = Math.sqrt(window.reduce((a, x) => a + (x - mean) ** 2, 0) / window.length) / mean;
  const s = windowStats(t, v, 2000, 3600);
  assert.equal(s.n, 1600);
  close(s.mean, mean);
  assert.deepEqual([s.p1, s.p50, s.p99], [window[15], window[799], window[1583]]);
  close(s.cv, cv);
});

test('the rolling mean skips missing values', () => {
  assert.deepEqual(smooth([1, null, 3, 5, null, null, 9], 3), [1, null, 4, 4, null, null, 9]);
});

test('uneven intervals weight the mean and cv by interval length, percentiles unweighted', () => {
  // LinkBench: intervals of different lengths; the ingest's numbers for the same series are
  // asserted in tests/test_js_units.py
  const ut = [2, 3, 10, 11], uv = [10, 20, 30, null];
  const weighted = windowStats(ut, uv, 0, 11, true);
  close(weighted.mean, (10 * 2 + 20 * 1 + 30 * 7) / 10);
  const wmean = 25;
  const wcv = Math.sqrt((2 * (10 - wmean) ** 2 + 1 * (20 - wmean) ** 2 + 7 * (30 - wmean) ** 2) / 10) / wmean;
  close(weighted.cv, wcv, 1e-6);
  assert.deepEqual([weighted.n, weighted.p50, weighted.min, weighted.max], [3, 20, 10, 30]);
  close(windowStats(ut, uv, 0, 11).mean, 20);
});

test('nearestIndex takes the closer interval and the later one on a tie', () => {
  // t = [1, 2, 3, 10]; x = 0, 1, 2.4, 2.5 (tie), 2.6, 9.9, 10, 11, 99
  assert.deepEqual([0, 1, 2.4, 2.5, 2.6, 9.9, 10, 11, 99].map((x) => nearestIndex([1, 2, 3, 10], x)),
    [0, 0, 1, 2, 2, 3, 3, 3, 3]);
});
