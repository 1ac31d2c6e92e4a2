// Long labels (assets/js/labels.js): a name longer than a line breaks after its
// underscores ("Innodb_buffe r_pool_read_ requests" split words), each line fits, and the lines
// put together give the label back. Live charts and build-time SVGs wrap with the same code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrap } from '../../assets/js/labels.js';

for (const [label, chars] of [
  ['Innodb_buffer_pool_read_requests', 12],
  ['Innodb_buffer_pool_read_requests', 14],
  ['Handler_read_rnd_next', 9],
  ['see Innodb_data_reads now', 10],
]) {
  test(`${label} in lines of ${chars} breaks at its underscores`, () => {
    const lines = wrap(label, chars);
    assert.ok(lines.every((line) => line.length <= chars), JSON.stringify(lines));
    assert.equal(lines.join('').replace(/ /g, ''), label.replace(/ /g, ''));
    // every break of a word falls after a separator or between words
    for (const line of lines.slice(0, -1)) {
      assert.ok(line.endsWith('_') || `${label} `.includes(`${line} `), JSON.stringify([line, lines]));
    }
  });
}
