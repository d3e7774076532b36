/**
 * Sitemaps in a crawl (docs/reference/crawl-rules.md, Sitemaps), over real sockets on loopback: a
 * robots.txt naming a sitemap index with a gzip child finds a page no link reaches; `/sitemap.xml`
 * is tried when robots.txt names none; listed sitemaps are read on their own; broken, missing and
 * oversized files are reported and the crawl goes on; sitemap fetches are not rows of the URL list.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { InstantCrawlerSetting } from '../../src/domain/schemas.js';
import { resolveCrawlSettings } from '../../src/domain/index.js';
import type { CrawlExecution } from '../../src/worker/execute-crawl.js';
import { sitemapMessageOf } from '../../src/worker/index.js';
import { metaOf, readCsvGz, readTarGz, recordsOf } from '../support/artifact-readers.js';
import { crawlInto } from '../support/engine-crawl.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';

interface Answer {
  status: number;
  type: string;
  body: Buffer;
}

const html = (body: string): Answer => ({
  status: 200,
  type: 'text/html; charset=utf-8',
  body: Buffer.from(`<!doctype html><html><body>${body}</body></html>`),
});
const xml = (body: string): Answer => ({ status: 200, type: 'application/xml', body: Buffer.from(body) });
const urlset = (entries: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`;

/** A site serving `routes` (paths with query), recording every request path. */
async function startSite(
  routes: (origin: string) => Record<string, Answer>,
): Promise<LocalServer & { requests: string[] }> {
  const requests: string[] = [];
  let answers: Record<string, Answer> = {};
  const server = createServer((request, response) => {
    const requestPath = request.url ?? '/';
    requests.push(requestPath);
    const answer = answers[requestPath] ?? {
      status: 404,
      type: 'text/html',
      body: Buffer.from('<title>not found</title>'),
    };
    response.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
  });
  const local = await listenLocally(server);
  answers = routes(local.baseUrl);
  return Object.assign(local, { requests });
}

/** A site whose robots.txt names a sitemap index: a gzip child, a broken file, a missing one. */
let indexed: LocalServer & { requests: string[] };
/** A site without robots.txt whose /sitemap.xml is a text sitemap. */
let guessed: LocalServer & { requests: string[] };
/** A site with neither robots.txt nor /sitemap.xml, answering a page for any path (a soft 404). */
let bare: LocalServer & { requests: string[] };
/** A site whose robots.txt names three sitemaps and a Crawl-delay; it notes when each request came and how many overlapped. */
let paced: LocalServer & {
  requests: string[];
  times: Map<string, number>;
  load: { active: number; most: number };
};
const cleanups: (() => Promise<unknown>)[] = [];

before(async () => {
  indexed = await startSite((origin) => ({
    '/robots.txt': {
      status: 200,
      type: 'text/plain',
      body: Buffer.from(`User-agent: *\nDisallow: /private/\nSitemap: ${origin}/sitemap_index.xml\n`),
    },
    '/': html('<a href="/linked.html">linked</a>'),
    '/linked.html': html('linked page'),
    '/orphan.html': html('only the sitemap knows me'),
    '/private/secret.html': html('robots.txt disallows me'),
    '/sitemap_index.xml': xml(
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
        `<sitemap><loc>${origin}/sitemap-pages.xml.gz</loc></sitemap>` +
        `<sitemap><loc>${origin}/broken.xml</loc></sitemap>` +
        `<sitemap><loc>${origin}/missing.xml</loc></sitemap>` +
        `<sitemap><loc>${origin}/bomb.xml.gz</loc></sitemap>` +
        '</sitemapindex>',
    ),
    '/sitemap-pages.xml.gz': {
      status: 200,
      type: 'application/gzip',
      body: gzipSync(
        urlset([
          `<url><loc>${origin}/orphan.html</loc><lastmod>2026-11-01</lastmod></url>`,
          `<url><loc>${origin}/linked.html</loc></url>`,
          `<url><loc>${origin}/private/secret.html</loc></url>`,
          '<url><loc>http://elsewhere.invalid/page.html</loc></url>',
          '<url><loc>not a url</loc></url>',
        ]),
      ),
    },
    '/broken.xml': html('<h1>Page not found</h1>'),
    // 51 MB of spaces once unpacked, about 50 KB on the wire.
    '/bomb.xml.gz': {
      status: 200,
      type: 'application/gzip',
      body: gzipSync(Buffer.alloc(51 * 1024 * 1024, 0x20), { level: 9 }),
    },
  }));
  guessed = await startSite((origin) => ({
    '/': html('home'),
    '/sitemap.xml': {
      status: 200,
      type: 'text/plain',
      body: Buffer.from(`${origin}/\n${origin}/news.html\n`),
    },
    '/news.html': html('news'),
    '/listed.xml': xml(urlset([`<url><loc>${origin}/listed-only.html</loc></url>`])),
    '/listed-only.html': html('listed'),
  }));
  bare = await startSite(() => ({
    '/': html('<a href="/about.html">about</a>'),
    '/about.html': html('about'),
  }));
});

before(async () => {
  const times = new Map<string, number>();
  const load = { active: 0, most: 0 };
  const requests: string[] = [];
  let origin = '';
  const bodies: Record<string, string> = {
    '/robots.txt': 'User-agent: *\nCrawl-delay: 0.2\nSitemap: /s1.xml\nSitemap: /s2.xml\nSitemap: /s3.xml\n',
    '/': '<title>home</title>',
  };
  for (const n of [1, 2, 3]) {
    bodies[`/s${n}.xml`] = urlset([`<url><loc>ORIGIN/p${n}.html</loc></url>`]);
    bodies[`/p${n}.html`] = `<title>page ${n}</title>`;
  }
  const server = createServer((request, response) => {
    const requestPath = request.url ?? '/';
    requests.push(requestPath);
    times.set(requestPath, performance.now());
    load.active += 1;
    load.most = Math.max(load.most, load.active);
    const body = bodies[requestPath];
    setTimeout(() => {
      load.active -= 1;
      if (body === undefined) response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': 'text/html' }).end(body.replaceAll('ORIGIN', origin));
    }, 20);
  });
  const local = await listenLocally(server);
  origin = local.baseUrl;
  paced = Object.assign(local, { requests, times, load });
});

after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await Promise.all([indexed.close(), guessed.close(), bare.close(), paced.close()]);
});

interface Crawled {
  execution: CrawlExecution;
  urls: string[];
  bundle: Map<string, Buffer>;
}

async function crawl(setting: InstantCrawlerSetting): Promise<Crawled> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-sitemaps-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const { execution, out } = await crawlInto(dir, setting);
  const urls = recordsOf(readCsvGz(path.join(out, 'url_list.csv.gz'))).map((row) => row.crawl_url!);
  return { execution, urls, bundle: await readTarGz(path.join(out, 'crawl_objects.tar.gz')) };
}

const pathsOf = (urls: readonly string[]) => urls.map((url) => new URL(url).pathname).sort();

describe('sitemaps', () => {
  test('robots.txt names an index: its gzip child finds an orphan page, in scope and robots rules', async () => {
    const crawled = await crawl({ seed_urls: [`${indexed.baseUrl}/`], sitemaps: true });
    assert.equal(crawled.execution.outcome, 'completed');
    // The sitemap files are not rows; the disallowed and out-of-site URLs are not crawled.
    assert.deepEqual(pathsOf(crawled.urls), ['/', '/linked.html', '/orphan.html']);
    const meta = metaOf(crawled.bundle, `http/${new URL(indexed.baseUrl).host}/orphan.html-/-/`);
    assert.equal(meta.depth, 1);
    assert.equal(meta.referrer, `${indexed.baseUrl}/sitemap-pages.xml.gz`);
    assert.equal(meta.sitemap_lastmod, '2026-11-01');
    assert.deepEqual(crawled.execution.sitemaps, [
      { url: `${indexed.baseUrl}/sitemap_index.xml`, kind: 'index', listed: 4, added: 0, problem: null },
      {
        url: `${indexed.baseUrl}/sitemap-pages.xml.gz`,
        kind: 'urlset',
        listed: 4,
        // orphan.html and private/secret.html (robots.txt refuses the latter when its turn comes);
        // linked.html may have been found by the seed's link first.
        added: crawled.execution.sitemaps![1]!.added,
        problem: '1 entry without a valid http(s) URL',
      },
      {
        url: `${indexed.baseUrl}/broken.xml`,
        kind: null,
        listed: 0,
        added: 0,
        problem: 'not a sitemap: root element <html>, not <urlset> or <sitemapindex>',
      },
      { url: `${indexed.baseUrl}/missing.xml`, kind: null, listed: 0, added: 0, problem: 'HTTP 404' },
      {
        url: `${indexed.baseUrl}/bomb.xml.gz`,
        kind: null,
        listed: 0,
        added: 0,
        problem: 'larger than 50 MB uncompressed; not read',
      },
    ]);
    assert.ok([2, 3].includes(crawled.execution.sitemaps![1]!.added));
    assert.ok(!crawled.urls.some((url) => url.includes('/private/')));
    assert.match(
      sitemapMessageOf(crawled.execution.sitemaps),
      new RegExp(
        '^sitemaps: 2 of 5 file\\(s\\) read, 4 URL\\(s\\) listed, [23] new to the crawl; sitemap problems: ' +
          `${indexed.baseUrl}/sitemap-pages.xml.gz: 1 entry without a valid http\\(s\\) URL; ` +
          `${indexed.baseUrl}/broken.xml: not a sitemap: `,
      ),
    );
  });

  test('without robots.txt Sitemap lines, /sitemap.xml is read (a text sitemap here)', async () => {
    const crawled = await crawl({ seed_urls: [`${guessed.baseUrl}/`], sitemaps: true });
    assert.deepEqual(pathsOf(crawled.urls), ['/', '/news.html']);
    assert.deepEqual(crawled.execution.sitemaps, [
      { url: `${guessed.baseUrl}/sitemap.xml`, kind: 'text', listed: 2, added: 1, problem: null },
    ]);
  });

  test('a site with no sitemap (its /sitemap.xml is a page) crawls as before and reports nothing', async () => {
    const before = bare.requests.length;
    const crawled = await crawl({ seed_urls: [`${bare.baseUrl}/`], sitemaps: true });
    assert.deepEqual(pathsOf(crawled.urls), ['/', '/about.html']);
    assert.equal(crawled.execution.sitemaps, undefined);
    assert.equal(sitemapMessageOf(crawled.execution.sitemaps), '');
    assert.deepEqual(bare.requests.slice(before).sort(), ['/', '/about.html', '/robots.txt', '/sitemap.xml']);
  });

  test('an instant crawl reads no sitemap unless asked', async () => {
    const before = indexed.requests.length;
    const crawled = await crawl({ seed_urls: [`${indexed.baseUrl}/`] });
    assert.deepEqual(pathsOf(crawled.urls), ['/', '/linked.html']);
    assert.equal(crawled.execution.sitemaps, undefined);
    assert.ok(!indexed.requests.slice(before).some((request) => request.includes('sitemap')));
  });

  test('sitemap_urls are read even with sitemaps off, and only they', async () => {
    const before = guessed.requests.length;
    const crawled = await crawl({
      seed_urls: [`${guessed.baseUrl}/`],
      sitemaps: false,
      sitemap_urls: [`${guessed.baseUrl}/listed.xml`],
    });
    assert.deepEqual(pathsOf(crawled.urls), ['/', '/listed-only.html']);
    assert.ok(!guessed.requests.slice(before).includes('/sitemap.xml'));
  });

  test('depth_limit 0 crawls the seeds only: no sitemap is read', async () => {
    const before = indexed.requests.length;
    const crawled = await crawl({ seed_urls: [`${indexed.baseUrl}/`], sitemaps: true, depth_limit: 0 });
    assert.deepEqual(pathsOf(crawled.urls), ['/']);
    assert.ok(!indexed.requests.slice(before).some((request) => request.includes('sitemap')));
  });

  test("sitemap fetches share the run's concurrency with its pages and keep the host's Crawl-delay", async () => {
    const crawled = await crawl({
      seed_urls: [`${paced.baseUrl}/`],
      sitemaps: true,
      base_concurrent_requests: 1,
    });
    assert.deepEqual(pathsOf(crawled.urls), ['/', '/p1.html', '/p2.html', '/p3.html']);
    assert.equal(paced.load.most, 1, paced.requests.join(' '));
    // The seed does not wait for every sitemap to be read.
    assert.ok(paced.requests.indexOf('/') < paced.requests.indexOf('/s1.xml'), paced.requests.join(' '));
    const starts = paced.requests.map((request) => paced.times.get(request)!);
    for (let index = 1; index < starts.length; index += 1) {
      assert.ok(
        starts[index]! - starts[index - 1]! >= 190,
        `${paced.requests.join(' ')}: ${starts.join(' ')}`,
      );
    }
  });

  test('a scheduled setting feeding a search service reads sitemaps unless it says not to', () => {
    const setting = { seed_urls: ['https://example.com/'] };
    assert.equal(resolveCrawlSettings(setting).readsSitemaps, false);
    assert.equal(resolveCrawlSettings(setting, { feedsSearch: true }).readsSitemaps, true);
    assert.equal(
      resolveCrawlSettings({ ...setting, sitemaps: false }, { feedsSearch: true }).readsSitemaps,
      false,
    );
  });
});
