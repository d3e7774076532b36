/**
 * The decoded postings kept across the indexes of a process (postings-cache.ts): its budget bounds
 * what the entries cost the heap, not only their arrays, so a cache of many small postings (the
 * terms of small services) holds no more than its budget.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { DecodedCache } from '../../src/search/engine/postings-cache.js';
import { StoredTermPostings } from '../../src/search/engine/stored-term-postings.js';

/** A term of one document as a stored segment hands it out: in its body once, positions read on demand. */
const onePosting = (doc: number) =>
  new StoredTermPostings(
    {
      docs: Uint32Array.of(doc),
      fieldCounts: Float32Array.of(0, 0, 0, 1, 0, 0),
      blockStarts: Uint32Array.of(0),
    },
    { bytesOf: () => undefined, bytesFrom: () => [], cache: undefined, key: `1\u0000term${doc}` },
  );

test('a budget of small postings bounds what the heap holds for them', () => {
  const budget = 4 * 1024 * 1024;
  const cache = new DecodedCache<StoredTermPostings>(budget);
  // A full collection before each reading, so the heap holds what is reachable and nothing else.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let n = 0; n < 100_000; n += 1) {
    const postings = onePosting(n % 40);
    cache.set(`${n % 500}\u0000term${n}`, postings, postings.byteLength);
  }
  gc();
  const held = process.memoryUsage().heapUsed - before;
  assert.ok(cache.bytes <= budget);
  // 100,000 entries would take about 80 MB; the budget keeps about 5,000 of them.
  assert.ok(held < 2 * budget, `the heap grew by ${(held / 1048576).toFixed(1)} MB for a 4 MB budget`);
  // The newest are kept, the oldest went first.
  assert.ok(cache.get('499\u0000term99999') !== undefined);
  assert.equal(cache.get('0\u0000term0'), undefined);
});
