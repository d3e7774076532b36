/**
 * The crawl engine end to end through executeCrawl: a real undici fetcher against the trap server
 * (test/support/trap-server.ts), artifacts read back from disk. Each test checks one rule of
 * docs/reference/crawl-settings.md, docs/reference/crawl-rules.md or docs/reference/artifacts.md.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { CrawlOutcome } from '../../src/crawler/crawl-engine.js';
import type { CrawlControl } from '../../src/crawler/crawl-engine-deps.js';
import { createUndiciFetcher, type HttpFetcher } from '../../src/crawler/http-fetcher.js';
import type { FetchLimits } from '../../src/crawler/page-fetch.js';
import type { InstantCrawlerSetting } from '../../src/domain/schemas.js';
import { resolveCrawlSettings } from '../../src/domain/index.js';
import { systemClock } from '../../src/util/index.js';
import { type CrawlExecution, executeCrawl } from '../../src/worker/execute-crawl.js';
import { type CsvFile, metaOf, readCsvGz, readTarGz, recordsOf } from '../support/artifact-readers.js';
import { startTrapServer, type TrapServer, type TrapServerOptions } from '../support/trap-server.js';

const LIMITS: FetchLimits = {
  timeoutMs: 2000,
  maxRedirects: 10,
  maxBodyBytes: 1024 * 1024,
  retryCount: 2,
  retryBaseDelayMs: 50,
};
const USER_AGENT = 'KumoTest/1.0';
const URL_LIST_HEADER = [
  'crawl_url',
  'last_url',
  'is_crawl_ok',
  'crawl_datetime',
  'http_status',
  'last_modified',
  'content_type',
  'content_length',
];
const DEFAULT_PACKAGES_ON: ReadonlySet<CrawlOutcome> = new Set(['completed', 'limit_reached']);
const CSV_DATETIME_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+0000$/;

let trap: TrapServer;
let fetcher: HttpFetcher;
const cleanups: (() => Promise<unknown>)[] = [];

beforeEach(async () => {
  trap = await startTrapServer();
  fetcher = createUndiciFetcher();
  const own = { trap, fetcher };
  cleanups.push(
    () => own.trap.close(),
    () => own.fetcher.close(),
  );
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A trap server of its own (robots variants, other listen address), closed after the test. */
async function extraTrap(options: TrapServerOptions): Promise<TrapServer> {
  const server = await startTrapServer(options);
  cleanups.push(() => server.close());
  return server;
}

interface CrawlOptions {
  limits?: Partial<FetchLimits>;
  control?: Partial<CrawlControl>;
  packagesOn?: ReadonlySet<CrawlOutcome>;
  /** Reuse a work folder (resume); a fresh one by default. */
  workFolder?: string;
}

interface CrawlRun {
  execution: CrawlExecution;
  artifactFolder: string;
  workFolder: string;
  elapsedMs: number;
}

async function crawl(setting: InstantCrawlerSetting, options: CrawlOptions = {}): Promise<CrawlRun> {
  const workFolder = options.workFolder ?? (await tempDir('kumo-engine-work-'));
  const artifactFolder = path.join(await tempDir('kumo-engine-out-'), 'artifacts');
  const started = performance.now();
  const execution = await executeCrawl(
    resolveCrawlSettings(setting),
    { workFolder, artifactFolder },
    {
      fetcher,
      clock: systemClock,
      limits: { ...LIMITS, ...options.limits },
      defaultUserAgent: USER_AGENT,
      timezone: 'UTC',
    },
    {
      cancelSignal: new AbortController().signal,
      deadlineMicros: systemClock.nowMicros() + 60_000_000,
      ...options.control,
    },
    options.packagesOn ?? DEFAULT_PACKAGES_ON,
  );
  return { execution, artifactFolder, workFolder, elapsedMs: performance.now() - started };
}

const urlOf = (pathAndQuery: string, server: TrapServer = trap): string => `${server.baseUrl}${pathAndQuery}`;

function urlList(run: CrawlRun): CsvFile {
  const csv = readCsvGz(path.join(run.artifactFolder, 'url_list.csv.gz'));
  assert.deepEqual(csv.header, URL_LIST_HEADER);
  assert.ok(csv.text.endsWith('\r\n'), 'records end with CRLF');
  return csv;
}

/** url_list.csv.gz rows as objects. */
function rowsOf(run: CrawlRun): Record<string, string>[] {
  return recordsOf(urlList(run));
}

/** The row of one URL; fails when there is none or more than one. */
function rowOf(run: CrawlRun, url: string): Record<string, string> {
  const rows = rowsOf(run).filter((row) => row.crawl_url === url);
  assert.equal(rows.length, 1, `exactly one row for ${url}; rows: ${JSON.stringify(rowsOf(run))}`);
  return rows[0]!;
}

/** crawl_url of each row with the server's base URL removed. */
function crawledPaths(run: CrawlRun, server: TrapServer = trap): string[] {
  return rowsOf(run).map((row) => {
    const url = row.crawl_url!;
    assert.ok(url.startsWith(server.baseUrl), `${url} is on ${server.baseUrl}`);
    return url.slice(server.baseUrl.length);
  });
}

const sorted = (values: Iterable<string>): string[] => [...values].sort();

function bundle(run: CrawlRun): Promise<Map<string, Buffer>> {
  return readTarGz(path.join(run.artifactFolder, 'crawl_objects.tar.gz'));
}

/** The bundle folder of a page of the trap server without query or fragment. */
const folderOf = (pagePath: string, server: TrapServer = trap): string =>
  `http/127.0.0.1:${server.port}${pagePath}-/-/`;

const hitsOf = (pathAndQuery: string, server: TrapServer = trap): number =>
  server.hits.get(pathAndQuery) ?? 0;

/** Resolves when `predicate` holds, polling every 10 ms (at most `timeoutMs`). */
async function waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Links of the trap home page that a default crawl follows (depth 1 from `/`). */
const HOME_FOLLOWED = [
  '/',
  '/a.html',
  '/b/',
  '/depth/1',
  '/redirect/chain/1',
  '/sjis.html',
  '/eucjp.html',
  '/query?b=2&a=1',
  '/frag.html',
  '/gzip.html',
  '/nolength.html',
  '/base/index.html',
];

describe('url list rows', () => {
  test('depth_limit 0 fetches only the seed; the row carries every column', async () => {
    const run = await crawl({ seed_urls: [urlOf('/')], depth_limit: 0 });
    assert.equal(run.execution.outcome, 'completed');
    assert.deepEqual(
      run.execution.artifacts.map((artifact) => artifact.name),
      ['url_list.csv.gz', 'crawl_objects.tar.gz'],
    );
    assert.deepEqual(crawledPaths(run), ['/']);
    const entries = await bundle(run);
    const source = entries.get(`${folderOf('/')}source.html`);
    assert.ok(source, 'source.html of the seed is bundled');
    const row = rowOf(run, urlOf('/'));
    assert.equal(row.last_url, '');
    assert.equal(row.is_crawl_ok, 'true');
    assert.match(row.crawl_datetime!, CSV_DATETIME_UTC);
    assert.equal(row.http_status, '200');
    assert.equal(row.last_modified, '');
    assert.equal(row.content_type, 'text/html; charset=utf-8');
    assert.equal(row.content_length, String(source.length));
    assert.deepEqual(run.execution.progress, { crawled: 1, total: 1 });
    // Only the robots.txt and the seed were requested.
    assert.deepEqual(sorted(trap.hits.keys()), ['/', '/robots.txt']);
  });

  test('last_modified and a setting time zone are written', async () => {
    const run = await crawl({ seed_urls: [urlOf('/last-modified.html')], timezone: 'Asia/Tokyo' });
    const row = rowOf(run, urlOf('/last-modified.html'));
    assert.equal(row.last_modified, 'Wed, 21 Oct 2015 07:28:00 GMT');
    assert.match(row.crawl_datetime!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+0900$/);
    const meta = metaOf(await bundle(run), folderOf('/last-modified.html'));
    assert.match(String(meta.crawl_datetime), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+09:00$/);
  });
});

describe('robots.txt', () => {
  test('a disallowed path is neither fetched nor listed', async () => {
    const run = await crawl({ seed_urls: [urlOf('/')], depth_limit: 1 });
    assert.equal(hitsOf('/private/secret.html'), 0);
    assert.ok(!crawledPaths(run).some((p) => p.startsWith('/private/')));
    assert.deepEqual(sorted(crawledPaths(run)), sorted(HOME_FOLLOWED));
    assert.equal(hitsOf('/robots.txt'), 1, 'robots.txt is fetched once per host per run');
  });

  test('a disallowed seed is not fetched: its row and meta.json say why', async () => {
    const run = await crawl({ seed_urls: [urlOf('/private/secret.html')] });
    assert.equal(run.execution.outcome, 'completed');
    const row = rowOf(run, urlOf('/private/secret.html'));
    assert.equal(row.is_crawl_ok, 'false');
    assert.equal(row.http_status, '');
    assert.equal(hitsOf('/private/secret.html'), 0);
    const meta = metaOf(await bundle(run), folderOf('/private/secret.html'));
    assert.equal(meta.fetch_error, 'disallowed by robots.txt');
    assert.equal(meta.http_status, null);
    assert.deepEqual(run.execution.seeds, {
      seeds: 1,
      unanswered: [{ url: urlOf('/private/secret.html'), reason: 'disallowed by robots.txt' }],
    });
  });

  test('a disallowed seed is not a fetched document: documents_limit leaves room for the next', async () => {
    const run = await crawl({
      seed_urls: [urlOf('/private/secret.html'), urlOf('/a.html')],
      documents_limit: 1,
      base_concurrent_requests: 1,
    });
    assert.equal(rowOf(run, urlOf('/private/secret.html')).http_status, '');
    assert.equal(rowOf(run, urlOf('/a.html')).http_status, '200');
  });

  test('robots.txt 404 allows everything', async () => {
    const server = await extraTrap({ robots: '404' });
    const run = await crawl({ seed_urls: [urlOf('/private/secret.html', server)], depth_limit: 0 });
    const row = rowOf(run, urlOf('/private/secret.html', server));
    assert.equal(row.http_status, '200');
    assert.equal(row.is_crawl_ok, 'true');
    assert.equal(hitsOf('/robots.txt', server), 1);
  });

  test('robots.txt 500 disallows the whole host for the run: the seeds are rows saying so', async () => {
    const server = await extraTrap({ robots: '500' });
    const run = await crawl({ seed_urls: [urlOf('/', server), urlOf('/a.html', server)] });
    assert.equal(run.execution.outcome, 'completed');
    const rows = rowsOf(run).map((row) => [row.crawl_url, row.is_crawl_ok, row.http_status]);
    assert.deepEqual(rows.sort(), [
      [urlOf('/', server), 'false', ''],
      [urlOf('/a.html', server), 'false', ''],
    ]);
    const meta = metaOf(await bundle(run), folderOf('/a.html', server));
    assert.equal(meta.fetch_error, 'robots.txt unreachable: HTTP 500');
    assert.equal(run.execution.seeds.unanswered.length, 2);
    assert.deepEqual(
      server.requests.filter((request) => request.path !== '/robots.txt').map((request) => request.path),
      [],
      'nothing but robots.txt is requested',
    );
  });

  test('robots_txt false ignores robots.txt', async () => {
    const run = await crawl({ seed_urls: [urlOf('/private/secret.html')], robots_txt: false });
    assert.equal(rowOf(run, urlOf('/private/secret.html')).http_status, '200');
    assert.equal(hitsOf('/robots.txt'), 0, 'robots.txt is not even fetched');
  });
});

describe('limits', () => {
  test('depth_limit follows the link chain that many hops', async () => {
    const run = await crawl({ seed_urls: [urlOf('/depth/1')], depth_limit: 3 });
    assert.deepEqual(crawledPaths(run), ['/depth/1', '/depth/2', '/depth/3', '/depth/4']);
    assert.equal(hitsOf('/depth/5'), 0);
    const meta = metaOf(await bundle(run), folderOf('/depth/4'));
    assert.equal(meta.depth, 3);
    assert.equal(meta.referrer, urlOf('/depth/3'));
  });

  test('documents_limit stops after exactly that many fetches', async () => {
    const run = await crawl({ seed_urls: [urlOf('/many/0')], documents_limit: 7 });
    assert.equal(run.execution.outcome, 'limit_reached');
    assert.equal(rowsOf(run).length, 7);
    const manyHits = [...trap.hits.keys()].filter((key) => key.startsWith('/many/'));
    assert.equal(manyHits.length, 7, `fetched ${manyHits.join(' ')}`);
    assert.equal(run.execution.progress.crawled, 7);
  });

  test('an endless calendar is bounded by depth_limit', async () => {
    const run = await crawl({ seed_urls: [urlOf('/calendar/2026-01')], depth_limit: 3 });
    assert.equal(run.execution.outcome, 'completed');
    assert.deepEqual(
      sorted(crawledPaths(run)),
      sorted([
        '/calendar/2025-10',
        '/calendar/2025-11',
        '/calendar/2025-12',
        '/calendar/2026-01',
        '/calendar/2026-02',
        '/calendar/2026-03',
        '/calendar/2026-04',
      ]),
    );
  });
});

describe('redirects', () => {
  test('a redirect chain is one row with last_url', async () => {
    const run = await crawl({ seed_urls: [urlOf('/redirect/chain/1')] });
    const row = rowOf(run, urlOf('/redirect/chain/1'));
    assert.equal(row.last_url, urlOf('/redirect/chain/3'));
    assert.equal(row.is_crawl_ok, 'true');
    assert.equal(row.http_status, '200');
    assert.equal(rowsOf(run).length, 1, 'redirect hops are not rows');
    const meta = metaOf(await bundle(run), folderOf('/redirect/chain/1'));
    assert.equal(meta.title, 'Chain End');
    assert.equal(meta.last_url, urlOf('/redirect/chain/3'));
  });

  test('a redirect loop fails after max redirects', async () => {
    const run = await crawl({ seed_urls: [urlOf('/redirect/loop')] });
    const row = rowOf(run, urlOf('/redirect/loop'));
    assert.equal(row.is_crawl_ok, 'false');
    assert.equal(row.http_status, '302');
    assert.equal(hitsOf('/redirect/loop'), LIMITS.maxRedirects + 1);
  });

  test('an off-scope redirect is not followed: 3xx row with the refused target', async () => {
    const run = await crawl({ seed_urls: [urlOf('/redirect/offsite')] });
    const row = rowOf(run, urlOf('/redirect/offsite'));
    assert.equal(row.http_status, '302');
    assert.equal(row.is_crawl_ok, 'false');
    assert.equal(row.last_url, 'http://offsite.invalid/x');
    assert.equal(rowsOf(run).length, 1);
  });
});

describe('content', () => {
  for (const [page, charset] of [
    ['/sjis.html', 'Shift_JIS'],
    ['/eucjp.html', 'EUC-JP'],
  ] as const) {
    test(`${charset} page is decoded`, async () => {
      const run = await crawl({ seed_urls: [urlOf(page)], depth_limit: 0 });
      const entries = await bundle(run);
      const meta = metaOf(entries, folderOf(page));
      assert.equal(meta.title, '日本語のページ');
      assert.equal(meta.charset, charset);
      assert.equal(meta.http_status, 200);
      assert.equal(meta.depth, 0);
      assert.equal(meta.referrer, null);
      assert.equal(meta.last_url, null);
      // source.html holds the bytes as received, not re-encoded.
      const source = entries.get(`${folderOf(page)}source.html`);
      assert.ok(source);
      assert.equal(source.toString('utf8').includes('日本語'), false);
    });
  }

  test('a gzip body is decoded', async () => {
    const run = await crawl({ seed_urls: [urlOf('/gzip.html')] });
    const source = (await bundle(run)).get(`${folderOf('/gzip.html')}source.html`);
    assert.ok(source);
    assert.match(source.toString('utf8'), /<title>Gzipped<\/title>/);
    assert.equal(rowOf(run, urlOf('/gzip.html')).is_crawl_ok, 'true');
  });

  test('without Content-Length, content_length is the body size', async () => {
    const run = await crawl({ seed_urls: [urlOf('/nolength.html')] });
    const entries = await bundle(run);
    const source = entries.get(`${folderOf('/nolength.html')}source.html`);
    assert.ok(source);
    assert.match(source.toString('utf8'), /streamed without a length/);
    const meta = metaOf(entries, folderOf('/nolength.html'));
    assert.equal((meta.headers as Record<string, string>)['content-length'], undefined);
    assert.equal(rowOf(run, urlOf('/nolength.html')).content_length, String(source.length));
  });

  test('<base href> resolves relative links', async () => {
    const run = await crawl({ seed_urls: [urlOf('/base/index.html')], depth_limit: 1 });
    assert.deepEqual(crawledPaths(run), ['/base/index.html', '/elsewhere/target.html']);
    assert.equal(hitsOf('/base/target.html'), 0);
  });

  test('a body over maxBodyBytes is a failed row', async () => {
    const run = await crawl({ seed_urls: [urlOf('/big')] });
    const row = rowOf(run, urlOf('/big'));
    assert.equal(row.is_crawl_ok, 'false');
    assert.equal(row.http_status, '200');
    assert.equal(hitsOf('/big'), 1, 'a too large body is not retried');
    assert.equal((await bundle(run)).size, 0, 'nothing of it is bundled');
  });
});

describe('authorization', () => {
  const CREDENTIALS = { user: 'kumo', password: 's3cret' };
  const BASIC = `Basic ${Buffer.from('kumo:s3cret').toString('base64')}`;

  test('credentials are sent to the seed host', async () => {
    const run = await crawl({ seed_urls: [urlOf('/auth/')], depth_limit: 1, authorizations: [CREDENTIALS] });
    assert.equal(rowOf(run, urlOf('/auth/')).http_status, '200');
    assert.equal(rowOf(run, urlOf('/auth/inner.html')).http_status, '200');
  });

  test('url_pattern limits where credentials go', async () => {
    const run = await crawl({
      seed_urls: [urlOf('/auth/')],
      depth_limit: 1,
      authorizations: [{ ...CREDENTIALS, url_pattern: '/auth/$' }],
    });
    assert.equal(rowOf(run, urlOf('/auth/')).http_status, '200');
    const inner = rowOf(run, urlOf('/auth/inner.html'));
    assert.equal(inner.http_status, '401');
    assert.equal(inner.is_crawl_ok, 'false');
  });

  test('credentials are never sent to another host', async () => {
    // Listening on every address, the server is also 127.0.0.2:<port>, which the home page links to.
    const server = await extraTrap({ host: '0.0.0.0' });
    const otherHost = `127.0.0.2:${server.port}`;
    const run = await crawl({
      seed_urls: [urlOf('/', server)],
      depth_limit: 1,
      allow_urls_patterns: [`^http://127\\.0\\.0\\.[12]:${server.port}/(other-host\\.html)?$`],
      authorizations: [CREDENTIALS],
    });
    assert.equal(rowOf(run, `http://${otherHost}/other-host.html`).http_status, '200');
    const toOtherHost = server.requests.filter((request) => request.headers.host === otherHost);
    assert.ok(
      toOtherHost.some((request) => request.path === '/other-host.html'),
      'the other host was crawled',
    );
    for (const request of toOtherHost) {
      assert.equal(request.headers.authorization, undefined, `no credentials on ${otherHost}${request.path}`);
    }
    const home = server.requests.find(
      (request) => request.path === '/' && request.headers.host !== otherHost,
    );
    assert.equal(home?.headers.authorization, BASIC, 'the seed host gets the credentials');
  });
});

describe('URL identity', () => {
  test('query variants in another order are one URL (keep_query 1)', async () => {
    const run = await crawl({ seed_urls: [urlOf('/')], depth_limit: 1 });
    const queryRows = crawledPaths(run).filter((p) => p.startsWith('/query'));
    assert.deepEqual(queryRows, ['/query?b=2&a=1'], 'the first variant seen is fetched');
    assert.equal(hitsOf('/query?b=2&a=1') + hitsOf('/query?a=1&b=2'), 1);
  });

  test('keep_query 1 keeps different queries apart', async () => {
    const run = await crawl({ seed_urls: [urlOf('/query?x=1'), urlOf('/query?x=2')] });
    assert.deepEqual(sorted(crawledPaths(run)), ['/query?x=1', '/query?x=2']);
  });

  test('keep_query 0 makes URLs differing only in the query one URL', async () => {
    const run = await crawl({
      seed_urls: [urlOf('/query?x=1'), urlOf('/query?x=2')],
      request_fingerprint: { keep_query: 0 },
    });
    assert.deepEqual(crawledPaths(run), ['/query?x=1']);
    assert.equal(hitsOf('/query?x=2'), 0);
  });

  test('keep_fragment 0: fragments are one URL', async () => {
    const run = await crawl({ seed_urls: [urlOf('/')], depth_limit: 1 });
    assert.deepEqual(
      crawledPaths(run).filter((p) => p.startsWith('/frag.html')),
      ['/frag.html'],
    );
    assert.equal(hitsOf('/frag.html'), 1);
  });

  test('keep_fragment 1: each fragment is its own URL, fetched without the fragment', async () => {
    const run = await crawl({
      seed_urls: [urlOf('/')],
      depth_limit: 1,
      request_fingerprint: { keep_fragment: 1 },
    });
    const fragRows = crawledPaths(run).filter((p) => p.startsWith('/frag.html'));
    assert.deepEqual(sorted(fragRows), ['/frag.html#one', '/frag.html#two']);
    assert.equal(hitsOf('/frag.html'), 2);
    for (const fragment of ['one', 'two']) {
      const row = rowOf(run, urlOf(`/frag.html#${fragment}`));
      assert.equal(row.last_url, '', 'no redirect happened');
      const folder = `http/127.0.0.1:${trap.port}/frag.html-/%23${fragment}-/`;
      const meta = metaOf(await bundle(run), folder);
      assert.equal(meta.url, urlOf(`/frag.html#${fragment}`));
      assert.equal(meta.last_url, null, 'no redirect happened, so meta.json has no last_url either');
    }
  });
});

describe('file types', () => {
  test('PDF and office files are excluded by default', async () => {
    const run = await crawl({ seed_urls: [urlOf('/')], depth_limit: 1 });
    assert.ok(!crawledPaths(run).includes('/doc.pdf'));
    assert.ok(!crawledPaths(run).includes('/file.docx'));
    assert.equal(hitsOf('/doc.pdf'), 0, 'judged by extension before the fetch');
    assert.equal(hitsOf('/file.docx'), 0);
  });

  test('crawl_file.pdf 1 fetches, lists and bundles PDFs', async () => {
    const run = await crawl({ seed_urls: [urlOf('/')], depth_limit: 1, crawl_file: { pdf: 1 } });
    const row = rowOf(run, urlOf('/doc.pdf'));
    assert.equal(row.content_type, 'application/pdf');
    assert.equal(row.is_crawl_ok, 'true');
    const source = (await bundle(run)).get(`${folderOf('/doc.pdf')}source.pdf`);
    assert.ok(source);
    assert.equal(source.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.equal(row.content_length, String(source.length));
    assert.ok(!crawledPaths(run).includes('/file.docx'), 'office files stay excluded');
  });

  test('crawl_file.ms_office 1 fetches, lists and bundles office files', async () => {
    const run = await crawl({ seed_urls: [urlOf('/')], depth_limit: 1, crawl_file: { ms_office: 1 } });
    const row = rowOf(run, urlOf('/file.docx'));
    assert.equal(row.content_type, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const source = (await bundle(run)).get(`${folderOf('/file.docx')}source.docx`);
    assert.ok(source);
    assert.deepEqual([...source.subarray(0, 4)], [0x50, 0x4b, 0x03, 0x04]);
    assert.ok(!crawledPaths(run).includes('/doc.pdf'), 'PDFs stay excluded');
  });

  test('a PDF without the extension is excluded by its Content-Type when pdf is 0', async () => {
    const run = await crawl({ seed_urls: [urlOf('/disguised-pdf')] });
    assert.deepEqual(urlList(run).rows, []);
    assert.equal((await bundle(run)).size, 0);
  });

  test('a PDF without the extension is kept when pdf is 1', async () => {
    const run = await crawl({ seed_urls: [urlOf('/disguised-pdf')], crawl_file: { pdf: 1 } });
    assert.equal(rowOf(run, urlOf('/disguised-pdf')).content_type, 'application/pdf');
    assert.ok((await bundle(run)).has(`${folderOf('/disguised-pdf')}source.pdf`));
  });
});

describe('nofollow', () => {
  const SEEDS = ['/', '/meta-nofollow.html', '/x-robots-nofollow.html'];

  test('rel=nofollow, meta robots and X-Robots-Tag nofollow are obeyed with robots on', async () => {
    const run = await crawl({ seed_urls: SEEDS.map((p) => urlOf(p)), depth_limit: 1 });
    const paths = crawledPaths(run);
    for (const target of ['/nofollow-target.html', '/not-followed.html', '/not-followed-2.html']) {
      assert.ok(!paths.includes(target), `${target} is not followed`);
      assert.equal(hitsOf(target), 0);
    }
    const meta = metaOf(await bundle(run), folderOf('/meta-nofollow.html'));
    assert.deepEqual(meta.robots, ['nofollow']);
  });

  test('nofollow is ignored with robots_txt false', async () => {
    const run = await crawl({ seed_urls: SEEDS.map((p) => urlOf(p)), depth_limit: 1, robots_txt: false });
    const paths = crawledPaths(run);
    for (const target of ['/nofollow-target.html', '/not-followed.html', '/not-followed-2.html']) {
      assert.ok(paths.includes(target), `${target} is followed`);
    }
  });
});

describe('failures and retries', () => {
  test('a page slower than the timeout is a failed row with no status', async () => {
    const limits = { timeoutMs: 300, retryCount: 1 };
    const run = await crawl({ seed_urls: [urlOf('/slow?ms=3000')] }, { limits });
    const row = rowOf(run, urlOf('/slow?ms=3000'));
    assert.equal(row.is_crawl_ok, 'false');
    assert.equal(row.http_status, '');
    assert.equal(row.content_type, '');
    assert.equal(row.content_length, '');
    assert.equal(hitsOf('/slow?ms=3000'), 2, 'a timeout is retried');
  });

  test('a 503 that recovers is retried: only the final outcome is a row', async () => {
    const run = await crawl({ seed_urls: [urlOf('/fail/503-once')] });
    const row = rowOf(run, urlOf('/fail/503-once'));
    assert.equal(row.http_status, '200');
    assert.equal(row.is_crawl_ok, 'true');
    assert.equal(hitsOf('/fail/503-once'), 2);
    assert.equal(metaOf(await bundle(run), folderOf('/fail/503-once')).title, 'Recovered');
    assert.ok(run.elapsedMs >= 900, 'Retry-After: 1 is honoured');
  });

  test('a permanent 500 is retried twice, then a failed row', async () => {
    const run = await crawl({ seed_urls: [urlOf('/fail/500')] });
    const row = rowOf(run, urlOf('/fail/500'));
    assert.equal(row.http_status, '500');
    assert.equal(row.is_crawl_ok, 'false');
    assert.equal(hitsOf('/fail/500'), LIMITS.retryCount + 1);
  });

  test('a 404 is a failed row and is not retried', async () => {
    const run = await crawl({ seed_urls: [urlOf('/fail/404')] });
    const row = rowOf(run, urlOf('/fail/404'));
    assert.equal(row.http_status, '404');
    assert.equal(row.is_crawl_ok, 'false');
    assert.equal(hitsOf('/fail/404'), 1);
  });
});

describe('stopping a run', () => {
  const slowSeeds = () => Array.from({ length: 6 }, (_, i) => urlOf(`/slow?ms=10000&n=${i}`));

  test('cancel stops the run within seconds, with no artifact', async () => {
    const cancel = new AbortController();
    const pending = crawl(
      { seed_urls: slowSeeds(), base_concurrent_requests: 4 },
      { control: { cancelSignal: cancel.signal } },
    );
    await waitFor(() => trap.requests.some((r) => r.path.startsWith('/slow')), 5000, 'a slow fetch');
    cancel.abort();
    const run = await pending;
    assert.equal(run.execution.outcome, 'cancelled');
    assert.ok(run.elapsedMs < 5000, `stopped after ${run.elapsedMs} ms`);
    assert.deepEqual(run.execution.artifacts, []);
    assert.equal(existsSync(run.artifactFolder), false, 'no artifact folder is written');
  });

  test('a drain (shutdown) lets pages in flight finish and be stored, starts no new page', async () => {
    const drain = new AbortController();
    const seeds = Array.from({ length: 6 }, (_, i) => urlOf(`/slow?ms=600&n=${i}`));
    const pending = crawl(
      { seed_urls: seeds, base_concurrent_requests: 2 },
      { control: { drainSignal: drain.signal }, packagesOn: new Set(['interrupted']) },
    );
    await waitFor(() => trap.requests.some((r) => r.path.startsWith('/slow')), 5000, 'a slow fetch');
    drain.abort();
    const run = await pending;
    assert.equal(run.execution.outcome, 'interrupted');
    const rows = rowsOf(run);
    assert.equal(rows.length, 2, 'the two pages in flight are stored');
    assert.ok(rows.every((row) => row.is_crawl_ok === 'true' && row.http_status === '200'));
    assert.equal(
      trap.requests.filter((r) => r.path.startsWith('/slow')).length,
      2,
      'no page started after the drain',
    );
  });

  test('a deadline in the past times the run out', async () => {
    const run = await crawl(
      { seed_urls: [urlOf('/')] },
      { control: { deadlineMicros: systemClock.nowMicros() - 1_000_000 } },
    );
    assert.equal(run.execution.outcome, 'timed_out');
    assert.deepEqual(run.execution.artifacts, []);
    assert.equal(existsSync(run.artifactFolder), false);
  });

  test('the execution timeout stops a running crawl', async () => {
    const run = await crawl(
      { seed_urls: slowSeeds(), base_concurrent_requests: 4 },
      { control: { deadlineMicros: systemClock.nowMicros() + 1_000_000 } },
    );
    assert.equal(run.execution.outcome, 'timed_out');
    assert.ok(run.elapsedMs >= 900 && run.elapsedMs < 5000, `stopped after ${run.elapsedMs} ms`);
    assert.deepEqual(run.execution.artifacts, []);
  });
});

describe('artifact selection', () => {
  test('link_url_list 0 writes link_list.csv.gz', async () => {
    const run = await crawl({
      seed_urls: [urlOf('/')],
      depth_limit: 0,
      crawl_result_collection: { link_url_list: 0 },
    });
    assert.deepEqual(
      run.execution.artifacts.map((artifact) => artifact.name),
      ['url_list.csv.gz', 'crawl_objects.tar.gz', 'link_list.csv.gz'],
    );
    const links = readCsvGz(path.join(run.artifactFolder, 'link_list.csv.gz'));
    assert.deepEqual(links.header, ['source_url', 'link_url', 'anchor_text', 'rel']);
    const records = recordsOf(links);
    assert.deepEqual(
      records.find((link) => link.link_url === urlOf('/a.html')),
      { source_url: urlOf('/'), link_url: urlOf('/a.html'), anchor_text: '/a.html', rel: '' },
    );
    assert.deepEqual(
      records.find((link) => link.link_url === urlOf('/nofollow-target.html')),
      {
        source_url: urlOf('/'),
        link_url: urlOf('/nofollow-target.html'),
        anchor_text: '/nofollow-target.html',
        rel: 'nofollow',
      },
    );
    assert.ok(
      !records.some((link) => /^(mailto|javascript):/.test(link.link_url!)),
      'non-http links dropped',
    );
  });

  test('link_list.csv.gz is not written by default', async () => {
    const run = await crawl({ seed_urls: [urlOf('/')], depth_limit: 0 });
    assert.equal(existsSync(path.join(run.artifactFolder, 'link_list.csv.gz')), false);
  });

  test('url_list 1 writes no URL list', async () => {
    const run = await crawl({
      seed_urls: [urlOf('/')],
      depth_limit: 0,
      crawl_result_collection: { url_list: 1 },
    });
    assert.deepEqual(
      run.execution.artifacts.map((artifact) => artifact.name),
      ['crawl_objects.tar.gz'],
    );
    assert.deepEqual(sorted(await readdir(run.artifactFolder)), ['crawl_objects.tar.gz']);
  });

  test('crawl_object 1 writes no bundle', async () => {
    const run = await crawl({
      seed_urls: [urlOf('/')],
      depth_limit: 0,
      crawl_result_collection: { crawl_object: 1 },
    });
    assert.deepEqual(sorted(await readdir(run.artifactFolder)), ['url_list.csv.gz']);
  });
});

describe('resume', () => {
  test('a run interrupted and resumed on the same work folder fetches each page once', async () => {
    const setting: InstantCrawlerSetting = { seed_urls: [urlOf('/many/0')], base_concurrent_requests: 4 };
    const cancel = new AbortController();
    const first = await crawl(setting, {
      control: {
        cancelSignal: cancel.signal,
        onProgress: (progress) => {
          if (progress.crawled >= 10) cancel.abort();
        },
      },
      // Package the interrupted run too, to know which pages it committed.
      packagesOn: new Set(['cancelled']),
    });
    assert.equal(first.execution.outcome, 'cancelled');
    const before = crawledPaths(first);
    assert.ok(before.length >= 10 && before.length < 200, `first run listed ${before.length} pages`);

    const second = await crawl(setting, { workFolder: first.workFolder });
    assert.equal(second.execution.outcome, 'completed');
    const after = crawledPaths(second);
    const duplicates = after.filter((p, index) => after.indexOf(p) !== index);
    assert.deepEqual(duplicates, [], 'no URL is listed twice');
    const every = Array.from({ length: 200 }, (_, n) => `/many/${n}`);
    assert.deepEqual(sorted(after), sorted(every), 'every reachable page is listed');
    assert.deepEqual(after.slice(0, before.length), before, 'the first run rows come first, in fetch order');
    for (const page of before) assert.equal(hitsOf(page), 1, `${page} is not fetched again`);
    assert.deepEqual(second.execution.progress, { crawled: 200, total: 200 });
    const metas = [...(await bundle(second)).keys()].filter((name) => name.endsWith('/meta.json'));
    assert.equal(metas.length, 200, 'one bundle folder per page');
  });
});
