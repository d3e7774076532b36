/**
 * Which open search services a process closes (open-service-limits.ts): the idle ones, then the
 * least recently used beyond the limit, never a busy one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ServiceInUse, servicesToClose } from '../../../src/search/serving/open-service-limits.js';

const NOW = 1_000_000;
const limits = { maxOpen: 3, idleMs: 600_000 };
/** Services by id, each used `agoMs` before NOW. */
const openWith = (entries: [number, number, boolean?][]) =>
  new Map<number, ServiceInUse>(
    entries.map(([id, agoMs, busy]) => [id, { lastUsedMs: NOW - agoMs, busy: busy ?? false }]),
  );

describe('servicesToClose', () => {
  test('under the limit, only services idle for the idle time are closed', () => {
    const open = openWith([
      [1, 700_000],
      [2, 100_000],
      [3, 599_999],
    ]);
    assert.deepEqual(servicesToClose(open, limits, NOW), [1]);
  });

  test('making room closes the least recently used, however recently', () => {
    const open = openWith([
      [1, 400],
      [2, 900],
      [3, 500],
    ]);
    // A fourth is being opened: one must go, the one used longest ago.
    assert.deepEqual(servicesToClose(open, limits, NOW, 1), [2]);
    // Over the limit by two (the limit lowered): the two used longest ago.
    assert.deepEqual(servicesToClose(open, { ...limits, maxOpen: 2 }, NOW, 1), [2, 3]);
  });

  test('a busy service stays, even idle and over the limit', () => {
    const open = openWith([
      [1, 900_000, true],
      [2, 10, true],
      [3, 20, true],
    ]);
    // Three open, the limit three, a fourth on its way: nothing may go.
    assert.deepEqual(servicesToClose(open, limits, NOW, 1), []);
    open.set(4, { lastUsedMs: NOW - 5, busy: false });
    assert.deepEqual(servicesToClose(open, limits, NOW, 1), [4]);
  });
});
