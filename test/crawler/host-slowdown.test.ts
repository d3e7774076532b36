/**
 * Politeness over time (docs/reference/crawl-rules.md, Slowing down and pausing), over real
 * sockets on loopback: a 429 with Retry-After on one URL holds back the run's other requests to
 * that host and spaces them out; a host whose pages keep answering 500 is paused, probed and
 * finally given up, its remaining URLs listed as not fetched without spending documents_limit.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { FetchLimits } from '../../src/crawler/page-fetch.js';
import type { InstantCrawlerSetting } from '../../src/domain/schemas.js';
import type { CrawlExecution } from '../../src/worker/execute-crawl.js';
import { hostMessageOf } from '../../src/worker/index.js';
import { readCsvGz, recordsOf } from '../support/artifact-readers.js';
import { crawlInto } from '../support/engine-crawl.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';

const cleanups: (() => Promise<unknown>)[] = [];

after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Visit {
  path: string;
  atMs: number;
}

/** A site whose `answer` decides each request's status and headers; every request is noted with its time. */
async function startSite(
  answer: (
    path: string,
    visits: readonly Visit[],
  ) => { status: number; headers?: Record<string, string>; body: string },
  host = '127.0.0.1',
): Promise<LocalServer & { visits: Visit[] }> {
  const visits: Visit[] = [];
  const server = createServer((request, response) => {
    const requestPath = request.url ?? '/';
    visits.push({ path: requestPath, atMs: performance.now() });
    const { status, headers, body } = answer(requestPath, visits);
    response.writeHead(status, { 'content-type': 'text/html', ...headers }).end(body);
  });
  const local = await listenLocally(server, host);
  cleanups.push(() => local.close());
  return Object.assign(local, { visits });
}

async function crawl(
  setting: InstantCrawlerSetting,
  limits: Partial<FetchLimits>,
): Promise<{ execution: CrawlExecution; rows: Record<string, string>[] }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-slowdown-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const { execution, out } = await crawlInto(dir, { robots_txt: false, ...setting }, limits);
  return { execution, rows: recordsOf(readCsvGz(path.join(out, 'url_list.csv.gz'))) };
}

test("a 429 with Retry-After on one URL holds back and spaces out the run's other requests to the host", async () => {
  const pages = ['/b.html', '/c.html', '/d.html'];
  const site = await startSite((requestPath, visits) => {
    if (requestPath === '/') return { status: 200, body: '<a href="/a.html">a</a>' };
    // The first request of /a.html is turned away for a second; its retry finds the page.
    if (requestPath === '/a.html' && visits.filter((visit) => visit.path === '/a.html').length === 1)
      return { status: 429, headers: { 'retry-after': '1' }, body: 'slow down' };
    if (requestPath === '/a.html')
      return { status: 200, body: pages.map((page) => `<a href="${page}">x</a>`).join('') };
    return { status: 200, body: 'page' };
  });
  const { execution, rows } = await crawl(
    { seed_urls: [`${site.baseUrl}/`], base_concurrent_requests: 4 },
    { retryCount: 1 },
  );
  assert.equal(execution.outcome, 'completed');
  assert.equal(rows.length, 5);
  const turnedAway = site.visits.find((visit) => visit.path === '/a.html')!.atMs;
  const later = site.visits.filter((visit) => visit.atMs > turnedAway);
  assert.deepEqual(later.map((visit) => visit.path).sort(), ['/a.html', ...pages]);
  // Nothing reaches the host before Retry-After has passed (the URL turned away first), and
  // then one request a second.
  assert.ok(later[0]!.atMs - turnedAway >= 950, `first after ${later[0]!.atMs - turnedAway} ms`);
  for (let index = 1; index < later.length; index += 1) {
    const gap = later[index]!.atMs - later[index - 1]!.atMs;
    assert.ok(gap >= 950, `${later.map((visit) => visit.path).join(' ')}: gap ${gap} ms`);
  }
  assert.deepEqual(execution.hosts, [
    {
      host: new URL(site.baseUrl).host,
      slowdowns: 1,
      maxGapMs: 1000,
      pauses: 0,
      givenUp: false,
      notFetched: 0,
    },
  ]);
  assert.equal(
    hostMessageOf(execution.hosts),
    `hosts: ${new URL(site.baseUrl).host} answered 429/503 1 time(s), slowed to one request every 1 s`,
  );
});

test('a host that keeps answering 500 is paused, probed, then given up without spending documents_limit', async () => {
  const broken = Array.from({ length: 12 }, (_, index) => `/broken/${index + 1}.html`);
  const site = await startSite((requestPath) =>
    requestPath === '/'
      ? { status: 200, body: broken.map((page) => `<a href="${page}">x</a>`).join('') }
      : { status: 500, body: 'internal error' },
  );
  const { execution, rows } = await crawl(
    { seed_urls: [`${site.baseUrl}/`], base_concurrent_requests: 1, documents_limit: 12 },
    { hostPauseMs: 100 },
  );
  const host = new URL(site.baseUrl).host;
  // The seed, five errors in a row, then one failed probe after each of the four pauses.
  const fetched = site.visits.map((visit) => visit.path);
  assert.deepEqual(fetched, ['/', ...broken.slice(0, 9)]);
  const probes = site.visits.slice(6).map((visit, index) => visit.atMs - site.visits[5 + index]!.atMs);
  for (const [index, waitedMs] of probes.entries()) {
    assert.ok(waitedMs >= 100 * 2 ** index - 10, `probe ${index + 1} came ${waitedMs} ms after the failure`);
  }
  // The run ends normally, not at its limit: the URLs left are rows without an answer, not
  // fetches, so ten of the twelve fetches documents_limit allows were spent.
  assert.equal(execution.outcome, 'completed');
  assert.equal(rows.length, 13);
  const notFetched = rows.filter((row) => row.http_status === '');
  assert.deepEqual(
    notFetched.map((row) => new URL(row.crawl_url!).pathname),
    broken.slice(9),
  );
  assert.deepEqual(execution.hosts, [
    { host, slowdowns: 0, maxGapMs: 0, pauses: 4, givenUp: true, notFetched: 3 },
  ]);
  assert.equal(
    hostMessageOf(execution.hosts),
    `hosts: ${host} paused 4 time(s) after server errors in a row, then given up: 3 URL(s) not fetched`,
  );
});

test('after a pause one probe goes alone; a redirected page counts for the host that answered', async () => {
  const links = (prefix: string) =>
    Array.from({ length: 24 }, (_, index) => `<a href="${prefix}${index + 1}">x</a>`).join('');
  const failing = await startSite((requestPath) =>
    requestPath === '/' ? { status: 200, body: links('/p/') } : { status: 500, body: 'internal error' },
  );
  const { execution } = await crawl(
    { seed_urls: [`${failing.baseUrl}/`], base_concurrent_requests: 8 },
    { hostPauseMs: 250 },
  );
  const failingHost = new URL(failing.baseUrl).host;
  assert.equal(execution.hosts![0]!.givenUp, true, JSON.stringify(execution.hosts));
  // A first burst of up to eight pages at once, then after each pause (250, 500, 1000 and 2000
  // ms) one probe alone: four requests after the first long silence, each long after the last.
  const pages = failing.visits.slice(1);
  const firstPause = pages.findIndex(
    (visit, index) => index > 0 && visit.atMs - pages[index - 1]!.atMs >= 200,
  );
  const probes = pages.slice(firstPause);
  assert.equal(probes.length, 4, pages.map((visit) => Math.round(visit.atMs)).join(' '));
  // Each later probe waits out a pause twice as long, from the failure of the probe before.
  probes.slice(1).forEach((probe, index) => {
    const waited = probe.atMs - probes[index]!.atMs;
    assert.ok(
      waited >= 500 * 2 ** index - 10,
      `probe ${index + 2} came ${Math.round(waited)} ms after the one before`,
    );
  });

  // Pages of a healthy host redirected to the failing one: the failing host is charged.
  const redirecting = await startSite(
    (requestPath) =>
      requestPath === '/'
        ? { status: 200, body: links('/r/') }
        : { status: 302, headers: { location: `${failing.baseUrl}/p${requestPath.slice(2)}` }, body: '' },
    '127.0.0.2',
  );
  const redirected = await crawl(
    {
      seed_urls: [`${redirecting.baseUrl}/`],
      allow_urls_patterns: ['^http://127\\.0\\.0\\.[12]:'],
      base_concurrent_requests: 1,
    },
    { hostPauseMs: 100 },
  );
  assert.deepEqual(
    redirected.execution.hosts?.map((events) => events.host),
    [failingHost],
  );
  assert.ok(redirected.execution.hosts![0]!.pauses > 0);
});
