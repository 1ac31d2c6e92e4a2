// The browser's "CSV (as shown)" export writes each field by the one CSV rule, the ingest's
// (ingest/write/csvfiles.py): both are checked against tests/fixtures/csv-fields.json.
// Run: node --test tests/js/  (tests/test_csvfiles.py runs it in `make test`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { field, toCsv } from '../../assets/js/export.js';

const { cases } = JSON.parse(readFileSync(new URL('../fixtures/csv-fields.json', import.meta.url), 'utf8'));
// JSON has no -0: the case's 0 with a minus sign is read as -0 by JSON.parse, as intended

test('every field is written as the ingest writes it', () => {
  for (const [value, want] of cases) assert.equal(field(value), want, JSON.stringify(value));
});

test('a CSV is a header of the keys and one line per row', () => {
  assert.equal(toCsv(['t', 'v'], [{ t: 1, v: 2.5 }, { t: 2, v: null }]), 't,v\n1,2.5\n2,\n');
});
