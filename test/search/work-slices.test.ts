/**
 * Work run in slices (docs/design/search-engine.md, Suggest) gives way to the searches the process
 * is answering: while one is under way a slice runs at most every GIVE_WAY_MS, and the work goes
 * on at full pace once it ends; a page of many headings is no single long step.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { decodeDocumentPhrases, encodeDocumentPhrases } from '../../src/search/site/document-phrases.js';
import {
  GIVE_WAY_MS,
  ITEMS_PER_PAUSE,
  runInSlices,
  runNow,
  whileSearching,
  type Work,
} from '../../src/search/site/work-slices.js';

const STEPS = 400;

function* counted(progress: { steps: number }): Work<number> {
  for (let step = 0; step < STEPS; step += 1) {
    progress.steps += 1;
    yield;
  }
  return progress.steps;
}

test('work in slices waits while a search is under way, then finishes', async () => {
  let endSearch: () => void = () => undefined;
  const search = whileSearching(() => new Promise<void>((resolve) => (endSearch = resolve)));
  const progress = { steps: 0 };
  // One step per slice.
  const work = runInSlices(counted(progress), () => false, 0);
  const heldMs = 4 * GIVE_WAY_MS;
  await sleep(heldMs);
  // At most a slice per GIVE_WAY_MS while the search runs (the first one included).
  assert.ok(progress.steps <= heldMs / GIVE_WAY_MS + 2, `${progress.steps} steps during the search`);
  endSearch();
  await search;
  assert.equal(await work, STEPS);
});

test('without a search under way the slices follow each other', async () => {
  const progress = { steps: 0 };
  const started = performance.now();
  assert.equal(await runInSlices(counted(progress), () => false, 0), STEPS);
  // Far below the STEPS * GIVE_WAY_MS a search under way would make it take.
  assert.ok(performance.now() - started < (STEPS * GIVE_WAY_MS) / 4);
});

test('a search that fails still lets the work go on', async () => {
  await assert.rejects(
    whileSearching(() => Promise.reject(new Error('index closed'))),
    /index closed/,
  );
  const progress = { steps: 0 };
  const started = performance.now();
  assert.equal(await runInSlices(counted(progress), () => false, 0), STEPS);
  assert.ok(performance.now() - started < (STEPS * GIVE_WAY_MS) / 4);
});

test('a page of thousands of headings is decoded in many slices, to the same phrases', () => {
  // As an API index page: one heading per class.
  const headings = Array.from({ length: 3000 }, (_, n) => `Class${n} in package p${n % 40}`).join('\n');
  const data = encodeDocumentPhrases('Index - All Classes', headings);
  const decoding = decodeDocumentPhrases(data);
  let pauses = 0;
  let step = decoding.next();
  for (; step.done !== true; step = decoding.next()) pauses += 1;
  const decoded = step.value;
  assert.equal(decoded.units.length, 3000 + 2);
  assert.deepEqual(decoded.units[2]!.phrases.slice(0, 1), ['class0']);
  assert.ok(pauses >= Math.floor(3000 / ITEMS_PER_PAUSE), `${pauses} pauses`);
  assert.deepEqual(runNow(decodeDocumentPhrases(data)), decoded);
});
