/**
 * Patterns that made JavaScript's backtracking engine run for seconds to hours on some URLs
 * (docs/design/url-patterns.md, URL patterns) are accepted and cost nothing: a `kumo serve` process
 * crawls a site whose links are those URLs, with the patterns as allow, deny and credential
 * patterns, and answers its health check all along. The service runs in its own process so that a
 * stalled service would fail this test by its timeout instead of stalling the test itself.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { rm } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { FINDER_BASE } from '../support/search-fixtures.js';
import { freePort, makeTempDir, sleep } from '../support/service-harness.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { type ServeProcess, startServeProcess } from '../support/serve-process.js';

const SITE = '^http://127\\.0\\.0\\.1:\\d+/';
/** The four patterns, each after the site's address, as a tenant scoping its crawl would write them. */
const ATTACKS = [
  `${SITE}${'a?'.repeat(28)}${'a'.repeat(28)}$`,
  `${SITE}${'a{0,10}'.repeat(40)}$`,
  `${SITE}${'(?:a|b){0,10}'.repeat(12)}!`,
  `${SITE}a*(?:b|)a*(?:b|)a*!`,
];
/**
 * Paths that make each pattern backtrack: 57 a's (5 s for the first), 400 a's and "!" (hours for
 * the second), "ab" 60 times (hours for the third), 3,000 a's (8 s for the fourth).
 */
const PATHS = {
  a57: `/${'a'.repeat(57)}`,
  a400: `/${'a'.repeat(400)}!`,
  ab60: `/${'ab'.repeat(60)}`,
  a3000: `/${'a'.repeat(3000)}`,
};
/** How long the health check may take to answer while the crawl goes on. */
const HEALTH_ANSWER_MS = 2000;

let site: LocalServer;
let dataDir: string;
const cleanups: (() => Promise<unknown>)[] = [];

before(async () => {
  const server = createServer((request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    const links =
      request.url === '/start' ? Object.values(PATHS).map((path) => `<a href="${path}">x</a>`) : [];
    response.end(`<html><head><title>page</title></head><body>${links.join('')}</body></html>`);
  });
  site = await listenLocally(server);
  dataDir = await makeTempDir('kumo-regex-dos-');
});

after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await site.close();
  await rm(dataDir, { recursive: true, force: true });
});

test(
  'a crawl with backtracking-prone patterns completes while the health check keeps answering',
  { timeout: 60_000 },
  async () => {
    const kumo: ServeProcess = await startServeProcess({ dataDir, port: await freePort(), cleanups });
    const requestId = await kumo.requestCrawl({
      seed_urls: [`${site.baseUrl}/start`],
      robots_txt: false,
      // Every link is tested against every deny pattern, then the allow patterns in order.
      allow_urls_patterns: [...ATTACKS, SITE],
      deny_urls_patterns: ATTACKS,
      // Tested on every URL fetched, the seed included.
      authorizations: [{ type: 'BASIC', url_pattern: ATTACKS[3], user: 'u', password: 'p' }],
    });

    let finished = false;
    const answerMs: number[] = [];
    let healthFailure: unknown;
    const watchHealth = (async () => {
      while (!finished) {
        const startMs = performance.now();
        const response = await fetch(`${kumo.url}${FINDER_BASE}/health_check`, {
          signal: AbortSignal.timeout(HEALTH_ANSWER_MS),
        });
        assert.equal(response.status, 200, await response.text());
        answerMs.push(performance.now() - startMs);
        await sleep(20);
      }
    })().catch((error: unknown) => (healthFailure = error));
    try {
      const history = await kumo.waitForFinished(requestId, 30_000);
      assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
      // The seed and the two paths no deny pattern matches: 57 a's match the second pattern and
      // 400 a's then "!" the fourth, as JavaScript's engine would have said, in the end.
      assert.equal(history.crawled_url_count, 3, JSON.stringify(history));
    } finally {
      finished = true;
      await watchHealth;
    }
    assert.equal(
      healthFailure,
      undefined,
      `the health check did not answer in time: ${String(healthFailure)}`,
    );
    assert.ok(answerMs.length > 0);
  },
);
