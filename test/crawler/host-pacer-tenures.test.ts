/**
 * The HostPacer's side of a pace shared by processes (docs/design/scale-out.md, Shared host pace),
 * against tenures kept in memory: it asks for a host only while requests wait for it, keeps the
 * gap the previous holder set, hands a wanted host over once its requests have ended (at once
 * when the host was lost), asks again when the store failed, and gives its hosts back at a stop.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HostPacer } from '../../src/crawler/host-pacer.js';
import type { HostTenures } from '../../src/store/index.js';

/** Tenures in memory: each take is answered by the test, and each give is recorded. */
class ScriptedTenures implements HostTenures {
  readonly takes: {
    host: string;
    signal: AbortSignal;
    resolve(freeAtMs: number): void;
    reject(error: Error): void;
  }[] = [];
  readonly gives: { host: string; freeAtMs: number }[] = [];
  private listener: (host: string, lost: boolean) => void = () => undefined;

  take(host: string, signal: AbortSignal): Promise<number> {
    return new Promise((resolve, reject) => {
      this.takes.push({ host, signal, resolve, reject });
      signal.addEventListener('abort', () => reject(new Error('abandoned')), { once: true });
    });
  }

  give(host: string, freeAtMs: number): void {
    this.gives.push({ host, freeAtMs });
  }

  onYield(listener: (host: string, lost: boolean) => void): void {
    this.listener = listener;
  }

  yieldHost(host: string, lost: boolean): void {
    this.listener(host, lost);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const signal = () => new AbortController().signal;

function pacerWith(tenures: ScriptedTenures, minTenureMs = 0): HostPacer {
  return new HostPacer(4, undefined, { tenures, minTenureMs, idleTenureMs: 50 });
}

test('nothing is sent before the host is held, and the previous holder’s pace is kept', async () => {
  const tenures = new ScriptedTenures();
  const pacer = pacerWith(tenures);
  let granted = false;
  const permit = pacer.acquire('a.test:80', 0, signal()).then((value) => {
    granted = true;
    return value;
  });
  await sleep(20);
  assert.equal(granted, false);
  assert.equal(tenures.takes.length, 1);
  const freeAt = Date.now() + 150;
  tenures.takes[0]!.resolve(freeAt);
  (await permit).release();
  assert.ok(Date.now() >= freeAt - 5, `granted ${freeAt - Date.now()} ms before the host was free`);
});

test('a take nothing waits for any more is abandoned', async () => {
  const tenures = new ScriptedTenures();
  const pacer = pacerWith(tenures);
  const abort = new AbortController();
  const waiting = pacer.acquire('b.test:80', 0, abort.signal);
  await sleep(5);
  abort.abort(new Error('run stopped'));
  await assert.rejects(waiting, /run stopped/);
  assert.equal(tenures.takes[0]!.signal.aborted, true);
});

test('a take the store failed is asked again while requests wait', async () => {
  const tenures = new ScriptedTenures();
  const pacer = pacerWith(tenures);
  const waiting = pacer.acquire('c.test:80', 0, signal());
  await sleep(5);
  tenures.takes[0]!.reject(new Error('connection refused'));
  await sleep(1200);
  assert.equal(tenures.takes.length, 2, 'asked again after a second');
  tenures.takes[1]!.resolve(0);
  (await waiting).release();
});

test('a wanted host is handed over once its requests end, free after the last start and its gap', async () => {
  const tenures = new ScriptedTenures();
  const pacer = pacerWith(tenures);
  const first = pacer.acquire('d.test:80', 100, signal());
  await sleep(5);
  tenures.takes[0]!.resolve(0);
  const permit = await first;
  permit.started();
  const startedAt = Date.now();
  tenures.yieldHost('d.test:80', false);
  await sleep(10);
  assert.equal(tenures.gives.length, 0, 'not while a request is in progress');
  permit.release();
  await sleep(10);
  assert.equal(tenures.gives.length, 1);
  const given = tenures.gives[0]!;
  assert.equal(given.host, 'd.test:80');
  assert.ok(given.freeAtMs >= startedAt + 100 - 5, `free ${given.freeAtMs - startedAt} ms after the start`);
});

test('a host held less than the least tenure is kept when wanted, but given up at once when lost', async () => {
  const tenures = new ScriptedTenures();
  const pacer = pacerWith(tenures, 60_000);
  const first = pacer.acquire('e.test:80', 0, signal());
  await sleep(5);
  tenures.takes[0]!.resolve(0);
  const held = await first;
  // A second request keeps the host busy, so an idle give-back does not blur the test.
  const second = await pacer.acquire('e.test:80', 0, signal());
  held.release();
  tenures.yieldHost('e.test:80', false);
  second.release();
  const third = await pacer.acquire('e.test:80', 0, signal());
  assert.equal(tenures.gives.length, 0, 'kept while held less than a minute');
  tenures.yieldHost('e.test:80', true);
  third.release();
  await sleep(10);
  assert.deepEqual(
    tenures.gives.map((give) => give.host),
    ['e.test:80'],
  );
});

test('an idle host is given back, and so is every held host when the process stops', async () => {
  const tenures = new ScriptedTenures();
  const pacer = new HostPacer(4, undefined, { tenures, idleTenureMs: 60_000 });
  for (const host of ['f.test:80', 'g.test:80']) {
    const waiting = pacer.acquire(host, 0, signal());
    await sleep(5);
    tenures.takes.at(-1)!.resolve(0);
    (await waiting).release();
  }
  assert.equal(tenures.gives.length, 0, 'idle for less than its time');
  pacer.giveBackIdleHosts();
  assert.deepEqual(tenures.gives.map((give) => give.host).sort(), ['f.test:80', 'g.test:80']);
});

test('a request that comes while an abandoned take is still asking is served once that take ends', async () => {
  // Like the store's take: a query under way does not stop when its wait is abandoned.
  const tenures = new ScriptedTenures();
  const slowTenures: HostTenures = {
    take: (host) =>
      new Promise((resolve, reject) => tenures.takes.push({ host, signal: signal(), resolve, reject })),
    give: (host, freeAtMs) => tenures.give(host, freeAtMs),
    onYield: (listener) => tenures.onYield(listener),
  };
  const pacer = new HostPacer(4, undefined, { tenures: slowTenures, idleTenureMs: 50 });
  const abandoned = new AbortController();
  const first = pacer.acquire('h.test:80', 0, abandoned.signal);
  await sleep(5);
  abandoned.abort(new Error('run stopped'));
  await assert.rejects(first, /run stopped/);
  const second = pacer.acquire('h.test:80', 0, signal());
  tenures.takes[0]!.reject(new Error('abandoned'));
  await sleep(5);
  assert.equal(tenures.takes.length, 2, 'asked again at once for the request that came');
  tenures.takes[1]!.resolve(0);
  (await second).release();
});
