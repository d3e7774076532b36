/**
 * The bytes of page bodies a run holds at once (src/crawler/body-budget.ts, docs/design/crawl.md,
 * Bodies in hand): a body is read only once it fits the run's budget, in arrival order, a body
 * larger than the whole budget is read alone, and a crawl of pages larger than its budget still
 * records every one of them.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { BodyBudget, budgetedFetcher } from '../../src/crawler/body-budget.js';
import { createUndiciFetcher } from '../../src/crawler/engine.js';
import { crawlInto } from '../support/engine-crawl.js';
import { listenLocally } from '../support/local-server.js';
import { readCsvGz, recordsOf } from '../support/artifact-readers.js';

/** Whether `promise` has settled once the event loop has turned a few times. */
async function settledSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

test('a body waits until the bytes held before it are released', async () => {
  const budget = new BodyBudget(16);
  const first = budget.hold();
  const second = budget.hold();
  await first.admit(10);
  const waiting = second.admit(10);
  assert.equal(await settledSoon(waiting), false, '10 + 10 bytes exceed a budget of 16');
  assert.equal(budget.heldBytes, 10);
  first.release();
  assert.equal(await settledSoon(waiting), true);
  assert.equal(budget.heldBytes, 10);
  second.release();
  assert.equal(budget.heldBytes, 0);
});

test('a body larger than the whole budget is read alone, and later ones wait behind it', async () => {
  const budget = new BodyBudget(16);
  const large = budget.hold();
  await large.admit(40);
  const small = budget.hold();
  const smallAdmitted = small.admit(1);
  assert.equal(await settledSoon(smallAdmitted), false);
  large.release();
  assert.equal(await settledSoon(smallAdmitted), true);

  // Arrival order: a large body waiting at the head is not overtaken by a small one behind it.
  const large2 = budget.hold();
  const large2Admitted = large2.admit(20);
  const small2 = budget.hold();
  const small2Admitted = small2.admit(1);
  assert.equal(await settledSoon(large2Admitted), false);
  assert.equal(await settledSoon(small2Admitted), false);
  small.release();
  assert.equal(await settledSoon(large2Admitted), true, 'alone once the budget is empty');
  assert.equal(await settledSoon(small2Admitted), false);
  large2.release();
  assert.equal(await settledSoon(small2Admitted), true);
  small2.release();
  assert.equal(budget.heldBytes, 0);
});

test('a body read past its estimate is covered without waiting, and all of it is given back', async () => {
  const budget = new BodyBudget(16);
  const hold = budget.hold();
  await hold.admit(4);
  hold.cover(30);
  assert.equal(budget.heldBytes, 30);
  hold.cover(10);
  assert.equal(budget.heldBytes, 30, 'a share never shrinks before its release');
  hold.release();
  hold.release();
  assert.equal(budget.heldBytes, 0);
});

test('a page given up while it waits hands its admission straight back', async () => {
  const budget = new BodyBudget(16);
  const first = budget.hold();
  await first.admit(16);
  const second = budget.hold();
  const waiting = second.admit(8);
  second.release();
  first.release();
  await waiting;
  assert.equal(budget.heldBytes, 0);
});

test('over sockets, the second body is read only once the first page is done', async (t) => {
  const page = Buffer.alloc(300_000, 'a');
  const server = await listenLocally(
    createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html', 'content-length': String(page.length) });
      response.end(page);
    }),
  );
  const fetcher = createUndiciFetcher();
  t.after(async () => {
    await fetcher.close();
    await server.close();
  });
  const budget = new BodyBudget(400_000);
  const holds = [budget.hold(), budget.hold()];
  const fetchers = holds.map((hold) => budgetedFetcher(fetcher, budget, hold));
  const signal = new AbortController().signal;
  const [firstResponse, secondResponse] = await Promise.all(
    fetchers.map((each, index) => each.fetchHop({ url: `${server.baseUrl}/${index}`, headers: {}, signal })),
  );
  const firstBody = await firstResponse!.readBody(1 << 20);
  assert.equal(firstBody.length, page.length);
  assert.equal(budget.heldBytes, page.length, 'admitted for its Content-Length');
  const secondBody = secondResponse!.readBody(1 << 20);
  assert.equal(await settledSoon(secondBody), false, 'two bodies of 300,000 bytes exceed 400,000');
  holds[0]!.release();
  assert.equal((await secondBody).length, page.length);
  holds[1]!.release();
  assert.equal(budget.heldBytes, 0);
});

test('a crawl whose pages are each larger than its budget records every page', async (t) => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-body-budget-'));
  const filler = 'x'.repeat(200_000);
  const server = await listenLocally(
    createServer((request, response) => {
      const index = Number(request.url?.slice(1) || 0);
      const links = index === 0 ? [1, 2, 3, 4, 5].map((n) => `<a href="/${n}">page ${n}</a>`).join('') : '';
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<html><body><h1>page ${index}</h1>${links}<p>${filler}</p></body></html>`);
    }),
  );
  t.after(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });
  const { execution, out } = await crawlInto(
    folder,
    { seed_urls: [`${server.baseUrl}/0`], base_concurrent_requests: 4 },
    { bodyBudgetBytes: 64 * 1024 },
  );
  assert.equal(execution.outcome, 'completed');
  const rows = recordsOf(readCsvGz(path.join(out, 'url_list.csv.gz')));
  assert.deepEqual(
    rows.map((row) => [new URL(row.crawl_url!).pathname, row.is_crawl_ok]).sort(),
    ['/0', '/1', '/2', '/3', '/4', '/5'].map((pathname) => [pathname, 'true']),
  );
});
