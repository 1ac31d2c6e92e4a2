// The charts' number format (assets/js/chartdom.js `decimals`, `fixed`) writes what
// Intl.NumberFormat('en-US') with exactly d decimals writes, without Intl (whose first use in
// a page loads the locale data): same digits, rounding, grouping and signs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decimals, fixed } from '../../assets/js/chartdom.js';

const FORMATS = new Map([0, 1, 2, 3, 6].map((d) => [d, new Intl.NumberFormat('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })]));
const EDGES = [0, -0, 0.5, 2.5, -2.5, 1.005, 1.45, 4.35, 8.345, 9.99, 99.95, 999.95, 9999.5, 0.1 + 0.2,
  0.0005, 1e-7, 1.5e-7, 5e-7, 5e-324, -0.04, 123456789.25, -1234567.891, 1e21, 1.2345e22,
  Number.MAX_VALUE, NaN, Infinity, -Infinity];

/** Deterministic values over 16 decades, many of them exact ties at the rounded place. */
function values(n) {
  let seed = 12345;
  const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const out = [];
  for (let i = 0; i < n; i++) {
    let v = (rnd() - 0.3) * 10 ** (Math.floor(rnd() * 16) - 8);
    if (i % 3 === 0) v = Math.round(v * 1000) / 1000 + (i % 2 ? 0.0005 : 0.005);
    out.push(v);
  }
  return out;
}

test('decimals(d) formats as Intl.NumberFormat en-US does', () => {
  for (const v of [...EDGES, ...values(20000)]) {
    for (const d of FORMATS.keys()) assert.equal(decimals(d).format(v), FORMATS.get(d).format(v), `${v} with ${d} decimals`);
  }
});

test('fixed writes the missing mark for no value', () => {
  assert.equal(fixed(null), 'n/a');
  assert.equal(fixed(NaN, 1, '–'), '–');
  assert.equal(fixed(1234.56, 1), '1,234.6');
});
