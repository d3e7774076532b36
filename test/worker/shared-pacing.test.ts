/**
 * Per-host pacing over all runs (docs/reference/crawl-rules.md, Pacing): two runs crawling one
 * host share its download_delay, and a robots.txt Crawl-delay paces the first page already.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { startTestService, type TestService } from '../support/service-harness.js';

/**
 * The pace counts from the moment a request's headers are written; the server notes their
 * arrival, which a loaded machine may shift by a few tens of milliseconds.
 */
const SLACK_MS = 100;

interface Hit {
  path: string;
  atMs: number;
}

let kumo: TestService;
let site: LocalServer & { hits: Hit[] };
let robotsText = '';

before(async () => {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push({ path, atMs: performance.now() });
    if (path === '/robots.txt') {
      res.writeHead(robotsText === '' ? 404 : 200, { 'content-type': 'text/plain' }).end(robotsText);
      return;
    }
    // /<run>/0 links to /<run>/1 .. /<run>/3.
    const [, run, page] = path.split('/');
    const links = page === '0' ? [1, 2, 3].map((n) => `<a href="/${run}/${n}">${n}</a>`).join('') : '';
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${links}</body></html>`);
  });
  site = Object.assign(await listenLocally(server), { hits });
  kumo = await startTestService({ overrides: { workerConcurrency: 4 } });
});

after(async () => {
  await kumo?.close();
  await site?.close();
});

function gapsOf(times: number[]): number[] {
  return times.slice(1).map((time, index) => time - times[index]!);
}

test('two runs of different tenants on one host keep its download_delay between all their requests', async () => {
  site.hits.length = 0;
  robotsText = '';
  const other = await kumo.createTenant('other');
  const setting = (run: string) => ({
    seed_urls: [`${site.baseUrl}/${run}/0`],
    download_delay: 1,
    robots_txt: false,
  });
  const first = await kumo.requestCrawl(setting('a'));
  const second = await kumo.requestCrawl(setting('b'), other);
  const histories = await Promise.all([
    kumo.waitForFinished(first, { timeoutMs: 30_000 }),
    kumo.waitForFinished(second, { tenant: other, timeoutMs: 30_000 }),
  ]);
  for (const history of histories) assert.equal(history.crawled_url_count, 4);
  const pages = site.hits.filter((hit) => hit.path !== '/robots.txt');
  assert.equal(pages.length, 8);
  // The runs crawled at the same time: their requests interleave.
  const firstOf = (run: string) => pages.findIndex((hit) => hit.path.startsWith(`/${run}/`));
  const lastOf = (run: string) => pages.findLastIndex((hit) => hit.path.startsWith(`/${run}/`));
  assert.ok(firstOf('a') < lastOf('b') && firstOf('b') < lastOf('a'), pages.map((hit) => hit.path).join(' '));
  const gaps = gapsOf(pages.map((hit) => hit.atMs));
  const shortest = Math.min(...gaps);
  assert.ok(shortest >= 1000 - SLACK_MS, `requests to the host ${Math.round(shortest)} ms apart`);
});

test('robots.txt comes first and its Crawl-delay spaces every page request, the first included', async () => {
  site.hits.length = 0;
  robotsText = 'User-agent: *\nCrawl-delay: 1\n';
  const seeds = [0, 1, 2, 3].map((n) => `${site.baseUrl}/c/${n}`);
  const id = await kumo.requestCrawl({ seed_urls: seeds, robots_txt: true, depth_limit: 0 });
  const history = await kumo.waitForFinished(id, { timeoutMs: 30_000 });
  assert.equal(history.crawl_execution_status_dtype_id, 2030);
  assert.equal(history.crawled_url_count, 4);
  assert.equal(site.hits[0]?.path, '/robots.txt');
  assert.equal(site.hits.filter((hit) => hit.path === '/robots.txt').length, 1);
  assert.equal(site.hits.length, 5);
  const gaps = gapsOf(site.hits.map((hit) => hit.atMs));
  const shortest = Math.min(...gaps);
  assert.ok(shortest >= 1000 - SLACK_MS, `requests to the host ${Math.round(shortest)} ms apart`);
});
