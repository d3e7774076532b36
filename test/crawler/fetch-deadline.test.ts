/**
 * The signal of one page fetch (src/crawler/fetch-deadline.ts): it aborts on the run's stop or on
 * the page's timeout, with a reason the fetcher reads as a timeout, and once released it holds
 * neither a timer nor a listener on the run, so a long crawl does not keep every finished fetch's
 * deadline alive (docs/design/crawl.md, Memory of a long crawl).
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { test } from 'node:test';
import { FetchDeadline } from '../../src/crawler/fetch-deadline.js';

test('a fetch past its time is aborted as a timeout', async () => {
  const run = new AbortController();
  const deadline = new FetchDeadline(run.signal, 20);
  await delay(60);
  assert.equal(deadline.signal.aborted, true);
  assert.equal((deadline.signal.reason as Error).name, 'TimeoutError');
  deadline.release();
});

test("the run's stop aborts a fetch in progress with the run's reason", () => {
  const run = new AbortController();
  const deadline = new FetchDeadline(run.signal, 10_000);
  run.abort(new Error('run cancelled'));
  assert.equal(deadline.signal.aborted, true);
  assert.equal((deadline.signal.reason as Error).message, 'run cancelled');
  deadline.release();
});

test('a fetch started after the run stopped is aborted at once', () => {
  const run = new AbortController();
  run.abort(new Error('stopped'));
  const deadline = new FetchDeadline(run.signal, 10_000);
  assert.equal(deadline.signal.aborted, true);
  deadline.release();
});

test('a released deadline keeps no timer and no listener on the run', async () => {
  const run = new AbortController();
  const deadlines = Array.from({ length: 1000 }, () => new FetchDeadline(run.signal, 20));
  for (const deadline of deadlines) deadline.release();
  await delay(60);
  run.abort(new Error('later'));
  assert.equal(
    deadlines.filter((deadline) => deadline.signal.aborted).length,
    0,
    'neither the timeout nor the run reached a released deadline',
  );
});
