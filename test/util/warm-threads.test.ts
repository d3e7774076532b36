/**
 * WarmThreads (docs/design/crawl.md, Threads kept warm between runs): how many threads wait, for
 * how long, for how many runs, and that a stopping service ends them all.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { WarmThreads } from '../../src/util/warm-threads.js';

const started: Worker[] = [];
after(() => Promise.all(started.map((thread) => thread.terminate())));

/** A thread that stays up until ended; resolves once it runs. */
async function idleThread(): Promise<Worker> {
  const thread = new Worker('setInterval(() => {}, 1000)', { eval: true });
  started.push(thread);
  await once(thread, 'online');
  return thread;
}

/** Resolves when the thread has stopped (threadId is -1 then); its error, if any, is left to others. */
async function ended(thread: Worker): Promise<void> {
  if (thread.threadId !== -1) await new Promise((resolve) => thread.on('exit', resolve));
}

test('at most `keep` threads wait; the one given over that is ended', async () => {
  const warm = new WarmThreads(1);
  const [first, second] = await Promise.all([idleThread(), idleThread()]);
  warm.give(first);
  warm.give(second);
  await ended(second);
  assert.equal(warm.take(), first);
  assert.equal(warm.take(), undefined);
});

test('a thread that served `maxRuns` runs is ended instead of kept', async () => {
  const warm = new WarmThreads(1, 60_000, 2);
  const thread = await idleThread();
  warm.give(thread);
  assert.equal(warm.take(), thread);
  warm.give(thread);
  await ended(thread);
  assert.equal(warm.take(), undefined);
});

test('a thread left waiting past `idleMs` is ended and forgotten', async () => {
  const warm = new WarmThreads(1, 50);
  const thread = await idleThread();
  warm.give(thread);
  await ended(thread);
  assert.equal(warm.take(), undefined);
});

test('a thread that dies while waiting is forgotten, its error raised nowhere', async () => {
  const warm = new WarmThreads(1);
  const thread = new Worker(
    "require('node:worker_threads').parentPort.once('message', () => { throw new Error('gone') })",
    { eval: true },
  );
  started.push(thread);
  await once(thread, 'online');
  warm.give(thread);
  thread.postMessage('die');
  await ended(thread);
  assert.equal(warm.take(), undefined);
});

test('close ends the waiting threads and every thread given after it', async () => {
  const warm = new WarmThreads(2);
  const [waiting, late] = await Promise.all([idleThread(), idleThread()]);
  warm.give(waiting);
  await warm.close();
  await ended(waiting);
  warm.give(late);
  await ended(late);
  assert.equal(warm.take(), undefined);
});
