/**
 * Crash recovery (docs/operations.md "Stopping and restarting"): `kumo serve` runs as a child
 * process and is killed with SIGKILL twice in the middle of an instant crawl of a 300-page local
 * site. After each restart on the same data directory the run resumes; when it has finished, the
 * URL list has exactly one row per page (none twice, none lost) and the bundle is a whole tar.gz
 * archive with one folder per page.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { afterEach, test } from 'node:test';
import { assertEveryPageOnce, startTreeSite } from '../support/tree-site.js';
import {
  DEMO_TENANT,
  downloadArtifact,
  freePort,
  makeTempDir,
  pollUntil,
  TEST_API_KEY,
} from '../support/service-harness.js';
import { startServeProcess } from '../support/serve-process.js';

const PAGE_COUNT = 300;
/** Each page answers after this long: with 4 fetches at a time the crawl takes about 3 s. */
const PAGE_DELAY_MS = 40;
const CONCURRENCY = 4;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Warnings only, and no rate limit: the status polls below are not what this test is about. */
const SERVE_ENV = { KUMO_LOG_LEVEL: 'warn', KUMO_RATE_LIMIT_PER_MINUTE: '0' };

test('SIGKILL twice in the middle of a crawl: the resumed run lists every page once and bundles a whole archive', async () => {
  const site = await startTreeSite(PAGE_COUNT, PAGE_DELAY_MS);
  cleanups.push(() => site.close());
  const dataDir = await makeTempDir('kumo-crash-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;

  let serve = await startServeProcess({ dataDir, port, env: SERVE_ENV, cleanups });
  const id = await serve.requestCrawl({
    seed_urls: [`${site.baseUrl}/p/0`],
    base_concurrent_requests: CONCURRENCY,
  });

  const killWhenCrawled = async (atLeast: number): Promise<number> => {
    const crawled = await pollUntil(
      `${atLeast} pages crawled`,
      async () => {
        const count = (await serve.statusOf(id))?.crawled_url_count;
        assert.ok(count !== undefined, 'the run finished before the kill');
        return count >= atLeast ? count : undefined;
      },
      15_000,
      100,
    );
    assert.deepEqual(await serve.kill(), { code: null, signal: 'SIGKILL' });
    const fetched = [...site.hits.keys()].length;
    assert.ok(fetched > 0 && fetched < PAGE_COUNT, `the kill came in the middle: ${fetched} pages fetched`);
    return crawled;
  };

  const firstKill = await killWhenCrawled(20);
  serve = await startServeProcess({ dataDir, port, env: SERVE_ENV, cleanups });
  await killWhenCrawled(firstKill + 30);
  const fetchedBeforeLastStart = new Map(site.hits);
  serve = await startServeProcess({ dataDir, port, env: SERVE_ENV, cleanups });

  const history = await serve.waitForFinished(id, 20_000);
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  assert.equal(history.crawled_url_count, PAGE_COUNT);

  await assertEveryPageOnce(site, PAGE_COUNT, (file) =>
    downloadArtifact(baseUrl, TEST_API_KEY, DEMO_TENANT, id, file),
  );

  // Only pages in flight at a kill (at most CONCURRENCY each time) were fetched again.
  const refetched = [...site.hits].filter(([, count]) => count > 1);
  assert.ok(refetched.length <= 2 * CONCURRENCY, `fetched more than once: ${JSON.stringify(refetched)}`);
  for (const [url] of refetched) assert.ok(fetchedBeforeLastStart.has(url), url);

  assert.deepEqual(await serve.stop('SIGTERM'), { code: 0, signal: null }, serve.output());
});
