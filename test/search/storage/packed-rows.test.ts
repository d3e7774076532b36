/**
 * The packed rows of a generation's delta (src/search/storage/packed-rows.ts): every SQLite value
 * a row may hold comes back as it went in, row by row, and bytes that are not packed rows are
 * refused rather than read as values.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { packRows, unpackRows } from '../../../src/search/storage/packed-rows.js';

describe('packed rows', () => {
  test('every kind of value comes back as it went in', () => {
    const rows = [
      [1, 'plain text', Buffer.from([0, 1, 2, 255]), null],
      [-2_147_483_648, 'テキストと絵文字 🍐', Buffer.alloc(0), 2_147_483_647],
      [2 ** 40, '', Buffer.from('blob'), 0.25],
      [-(2 ** 53) + 1, 'x'.repeat(70_000), Buffer.alloc(3, 7), 9_007_199_254_740_993n],
    ];
    const back = [...unpackRows(packRows(rows), 4)].map((row) =>
      row.map((value) => (value instanceof Uint8Array ? Buffer.from(value) : value)),
    );
    assert.deepEqual(back, rows);
  });

  test('no rows pack to no bytes, and bytes that are not packed rows are refused', () => {
    assert.equal(packRows([]).length, 0);
    assert.deepEqual([...unpackRows(Buffer.alloc(0), 3)], []);
    assert.throws(() => [...unpackRows(Buffer.from([9, 0, 0]), 1)], /no value of tag 9 at byte 0/);
    assert.throws(() => packRows([[{ not: 'a value' }]]), /type object cannot be packed/);
  });
});
