/**
 * A run's sitemaps across a resume (docs/reference/crawl-rules.md, Sitemaps), on a real run store:
 * a reading that finished is not done again, one cut short starts over without queueing a URL
 * twice, and a URL a link queued first still gets its sitemap's lastmod.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { PageFetchResult } from '../../src/crawler/page-fetch.js';
import { readRunSitemaps } from '../../src/crawler/run-sitemaps.js';
import { CrawlScope } from '../../src/crawler/scope.js';
import { fingerprintOf, identityOf } from '../../src/crawler/url-identity.js';
import { resolveCrawlSettings } from '../../src/domain/index.js';
import { SqliteRunDataStore } from '../../src/run-data/index.js';

const SITE = 'https://docs.example';
const folders: string[] = [];

after(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function openStore(file?: string): Promise<{ store: SqliteRunDataStore; file: string }> {
  if (file === undefined) {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-run-sitemaps-'));
    folders.push(folder);
    file = path.join(folder, 'crawl.db');
  }
  return { store: new SqliteRunDataStore(file), file };
}

const settings = resolveCrawlSettings({ seed_urls: [`${SITE}/`], sitemap_urls: [`${SITE}/sitemap.xml`] });
const SITEMAP = `<urlset><url><loc>${SITE}/a.html</loc><lastmod>2026-11-01</lastmod></url><url><loc>${SITE}/b.html</loc></url></urlset>`;

/** The run's sitemap reading against `store`; `fetched` notes every file asked for. */
function readWith(store: SqliteRunDataStore, fetched: string[], stopAfter = Number.POSITIVE_INFINITY) {
  return readRunSitemaps({
    settings,
    scope: new CrawlScope(settings),
    store,
    robotsFor: () => {
      throw new Error('robots.txt is not read: the setting lists its sitemap and reads no other');
    },
    fetch: async (url): Promise<PageFetchResult> => {
      fetched.push(url);
      return {
        kind: 'response',
        finalUrl: url,
        status: 200,
        headers: { 'content-type': 'application/xml' },
        body: Buffer.from(SITEMAP),
        refusedRedirect: undefined,
      };
    },
    failureReason: () => 'failed',
    added: () => undefined,
    stopped: () => fetched.length > stopAfter,
  });
}

test('a reading cut short starts over on resume; a finished one is not done again', async () => {
  const { store, file } = await openStore();
  const fetched: string[] = [];
  // The run stops while the file is read: nothing is marked finished.
  await readWith(store, fetched, 0);
  assert.equal(store.sitemapOutcomes().finished, false);
  store.close();

  const resumed = (await openStore(file)).store;
  await readWith(resumed, fetched);
  assert.deepEqual(fetched, [`${SITE}/sitemap.xml`, `${SITE}/sitemap.xml`]);
  assert.deepEqual(resumed.sitemapOutcomes(), {
    files: [{ url: `${SITE}/sitemap.xml`, kind: 'urlset', listed: 2, added: 2, problem: null }],
    finished: true,
  });
  resumed.close();

  const again = (await openStore(file)).store;
  await readWith(again, fetched);
  assert.equal(fetched.length, 2, 'a finished reading is not repeated');
  assert.deepEqual(
    again.nextQueued(0, 10).map((entry) => [entry.url, entry.depth, entry.referrer, entry.lastmod]),
    [
      [`${SITE}/a.html`, 1, `${SITE}/sitemap.xml`, '2026-11-01'],
      [`${SITE}/b.html`, 1, `${SITE}/sitemap.xml`, null],
    ],
  );
  again.close();
});

test("a URL a link queued before its sitemap was read gets the sitemap's lastmod", async () => {
  const { store } = await openStore();
  const linked = new URL(`${SITE}/a.html`);
  store.enqueue([
    {
      fingerprint: fingerprintOf(identityOf(linked, settings)),
      url: linked.href,
      depth: 3,
      referrer: `${SITE}/deep/page.html`,
    },
  ]);
  await readWith(store, []);
  const [entry] = store.nextQueued(0, 1);
  assert.deepEqual([entry!.url, entry!.depth, entry!.lastmod], [`${SITE}/a.html`, 3, '2026-11-01']);
  assert.equal(store.sitemapOutcomes().files[0]!.added, 1);
  store.close();
});
