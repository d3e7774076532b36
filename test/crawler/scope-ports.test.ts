/**
 * The default scope through a whole crawl (executeCrawl, real undici fetcher): two fixture sites
 * on two ports of 127.0.0.1, the first linking and redirecting to the second. Another port of the
 * seed's host is another site (docs/api.md, Instant crawl): it gets no request at all.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createUndiciFetcher } from '../../src/crawler/http-fetcher.js';
import { resolveCrawlSettings } from '../../src/domain/index.js';
import { systemClock } from '../../src/util/index.js';
import { executeCrawl } from '../../src/worker/execute-crawl.js';
import { readCsvGz, recordsOf } from '../support/artifact-readers.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';

const LIMITS = {
  timeoutMs: 5000,
  maxRedirects: 10,
  maxBodyBytes: 1024 * 1024,
  retryCount: 0,
  retryBaseDelayMs: 10,
};

interface Site extends LocalServer {
  /** Paths requested, in order. */
  requests: string[];
}

/** A site of `pages` by path; a page `redirect:<url>` answers 302 to that URL, others are 404. */
async function startSite(pages: Record<string, string>): Promise<Site> {
  const requests: string[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const requestPath = request.url ?? '/';
    requests.push(requestPath);
    const body = pages[requestPath];
    if (body === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    } else if (body.startsWith('redirect:')) {
      response.writeHead(302, { location: body.slice('redirect:'.length) }).end();
    } else {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    }
  });
  return { ...(await listenLocally(server)), requests };
}

let other: Site;
let seedSite: Site;
const dirs: string[] = [];

before(async () => {
  other = await startSite({
    '/': '<html><title>Other site</title><a href="/b.html">b</a></html>',
    '/b.html': '<html><title>B</title></html>',
    '/robots.txt': 'User-agent: *\nAllow: /\n',
  });
  seedSite = await startSite({
    '/': `<html><title>Seed site</title>
      <a href="/page.html">same site</a>
      <a href="${other.baseUrl}/">other port</a>
      <a href="${other.baseUrl}/b.html">other port, page</a>
      <a href="/to-other-port">redirect to the other port</a></html>`,
    '/page.html': '<html><title>Page</title></html>',
    '/to-other-port': `redirect:${other.baseUrl}/b.html`,
  });
});

after(async () => {
  await seedSite.close();
  await other.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

for (const robots of [true, false]) {
  test(`a link or redirect to another port of the seed host is not followed (robots_txt ${robots})`, async () => {
    other.requests.length = 0;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-ports-'));
    dirs.push(dir);
    const fetcher = createUndiciFetcher();
    try {
      const execution = await executeCrawl(
        resolveCrawlSettings({ seed_urls: [`${seedSite.baseUrl}/`], robots_txt: robots }),
        { workFolder: path.join(dir, 'work'), artifactFolder: path.join(dir, 'out') },
        { fetcher, clock: systemClock, limits: LIMITS, defaultUserAgent: 'KumoTest/1.0', timezone: 'UTC' },
        { cancelSignal: new AbortController().signal, deadlineMicros: systemClock.nowMicros() + 60_000_000 },
        new Set(['completed', 'limit_reached']),
      );
      assert.equal(execution.outcome, 'completed');
      const rows = recordsOf(readCsvGz(path.join(dir, 'out', 'url_list.csv.gz')));
      assert.deepEqual(rows.map((row) => row.crawl_url).sort(), [
        `${seedSite.baseUrl}/`,
        `${seedSite.baseUrl}/page.html`,
        `${seedSite.baseUrl}/to-other-port`,
      ]);
      const redirect = rows.find((row) => row.crawl_url === `${seedSite.baseUrl}/to-other-port`);
      assert.equal(redirect?.http_status, '302');
      assert.equal(redirect.is_crawl_ok, 'false');
      assert.equal(redirect.last_url, `${other.baseUrl}/b.html`, 'the refused target is the last_url');
      assert.deepEqual(other.requests, [], 'the other port got no request, robots.txt included');
    } finally {
      await fetcher.close();
    }
  });
}
