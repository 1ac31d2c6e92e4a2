// The browser's noise rule (assets/js/noise.js, the versions chart's ratios to the base the
// reader picks) is the ingest's (ingest/derive/noise.py): both are checked against
// tests/fixtures/noise-cases.json (tests/ingest/derive/test_versions.py writes nothing: it
// checks the Python side against the same file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ratioClass, withinNoise } from '../../assets/js/noise.js';

const { edges, cases } = JSON.parse(readFileSync(new URL('../fixtures/noise-cases.json', import.meta.url), 'utf8'));

test('the verdict and the class of every case are the ingest\'s', () => {
  for (const c of cases) {
    const within = withinNoise(c.a, c.b);
    assert.equal(within, c.within, JSON.stringify(c));
    assert.equal(ratioClass(c.ratio, within, edges), c.class, JSON.stringify(c));
  }
});
