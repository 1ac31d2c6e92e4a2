// The one downsampler (assets/js/series.js `extremes`), as the charts' `downsample` and the
// compare page's plot (M4, assets/js/overlay.js) use it. Run: node --test tests/js/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extremes, downsample } from '../../assets/js/series.js';

const groups = (t, v, columnOf, ok, cut, gap) => {
  const out = [];
  extremes(t, v, 0, t.length, columnOf, ok, (...g) => out.push(g), cut && (() => out.push('cut')), gap);
  return out;
};

test('each column gives its first, lowest, highest and last point', () => {
  const t = [0, 1, 2, 3, 10, 11, 12], v = [5, 1, 9, 4, 7, 7, 3];
  assert.deepEqual(groups(t, v, (x) => Math.floor(x / 10), () => true), [[0, 1, 2, 3], [4, 6, 4, 6]]);
});

test('a missing value is skipped, or cuts the line, and a cut restarts the column', () => {
  const t = [0, 1, 2, 3, 4], v = [5, null, 9, 4, 8], ok = (y) => y !== null, one = () => 0;
  assert.deepEqual(groups(t, v, one, ok), [[0, 3, 2, 4]]);
  assert.deepEqual(groups(t, v, one, ok, true), [[0, 0, 0, 0], 'cut', [2, 3, 2, 4]]);
});

test('a step longer than the gap cuts before its point', () => {
  const t = [0, 1, 50, 51], v = [1, 2, 3, 4];
  assert.deepEqual(groups(t, v, () => 0, () => true, true, 10), [[0, 0, 1, 1], 'cut', [2, 2, 3, 3]]);
});

test('downsample keeps min and max per bucket, in time order', () => {
  const t = Array.from({ length: 100 }, (_, i) => i + 1), v = t.map((x) => (x === 42 ? 1000 : x % 10));
  const got = [];
  downsample(t, v, 0, 100, 10, (ti, vi) => got.push([ti, vi]));
  assert.ok(got.some(([ti, vi]) => ti === 42 && vi === 1000));
  assert.ok(got.length <= 2 * 11 + 2);
  assert.deepEqual(got, [...got].sort((a, b) => a[0] - b[0]));
});
