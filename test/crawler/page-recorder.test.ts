/**
 * A crawl's page thread (src/crawler/page-recorder.ts, docs/design/crawl.md, Crawl threads): pages
 * prepared in the thread give the same commit and the same bundle bytes as pages prepared on the
 * run's thread, links known from earlier pages are not discovered twice, and pages the thread
 * still holds when it goes away are prepared by the caller instead of being lost.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { FetchFailure } from '../../src/crawler/fetch-errors.js';
import type { FetchedResult } from '../../src/crawler/page-record.js';
import type { PreparedPage } from '../../src/crawler/page-record-job.js';
import { PageRecorder } from '../../src/crawler/page-recorder.js';
import { resolveCrawlSettings } from '../../src/domain/index.js';
import type { FrontierEntry } from '../../src/run-data/index.js';

const SITE = 'http://127.0.0.1:8081';
const CRAWL_MICROS = Date.UTC(2026, 10, 27, 9, 30) * 1000;

function settingsOf(extra: Record<string, unknown> = {}) {
  return resolveCrawlSettings({
    seed_urls: [`${SITE}/`],
    deny_urls_patterns: ['/private/'],
    crawl_result_collection: { link_url_list: 0 },
    ...extra,
  });
}

function htmlPage(index: number): string {
  const links = [
    `<a href="/docs/${index + 1}.html">next</a>`,
    `<a href="/docs/${index + 2}.html#part">fragment</a>`,
    `<a href="http://user:secret@127.0.0.1:8081/docs/${index + 3}.html">credentials</a>`,
    '<a href="/private/area.html">denied</a>',
    '<a href="/docs/shared.html" rel="nofollow">nofollow</a>',
    '<a href="/docs/common.html">common to every page</a>',
    '<a href="mailto:someone@example.com">mail</a>',
    '<a href="http://other.example/">other site</a>',
  ].join(' ');
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>Page ${index} 日本語</title></head>` +
    `<body><main><h1>Page ${index}</h1><p>${'Text of the page. '.repeat(40)}</p>${links}</main></body></html>`
  );
}

interface PageCase {
  entry: FrontierEntry;
  fetchedUrl: string;
  result: FetchedResult;
}

function pageCases(): PageCase[] {
  const cases: PageCase[] = [];
  for (let index = 0; index < 30; index++) {
    const url = `${SITE}/docs/${index}.html`;
    cases.push({
      entry: { seq: index + 1, url, depth: 1, referrer: `${SITE}/`, lastmod: null },
      fetchedUrl: url,
      result: {
        kind: 'response',
        finalUrl: url,
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', etag: `"v${index}"` },
        body: Buffer.from(htmlPage(index)),
        refusedRedirect: undefined,
      },
    });
  }
  cases.push({
    entry: { seq: 40, url: `${SITE}/style.css`, depth: 1, referrer: `${SITE}/`, lastmod: null },
    fetchedUrl: `${SITE}/style.css`,
    result: {
      kind: 'response',
      finalUrl: `${SITE}/style.css`,
      status: 200,
      headers: { 'content-type': 'text/css' },
      body: Buffer.from('body { color: black }'),
      refusedRedirect: undefined,
    },
  });
  cases.push({
    entry: { seq: 41, url: `${SITE}/broken.html`, depth: 2, referrer: `${SITE}/docs/1.html`, lastmod: null },
    fetchedUrl: `${SITE}/broken.html`,
    result: {
      kind: 'response',
      finalUrl: `${SITE}/broken.html`,
      status: 500,
      headers: { 'content-type': 'text/html' },
      body: Buffer.from('<p>server error</p>'),
      refusedRedirect: undefined,
    },
  });
  return cases;
}

async function prepareAll(recorder: PageRecorder, cases: readonly PageCase[]): Promise<PreparedPage[]> {
  // All at once, as a crawl's concurrent pages arrive: answers must still match their pages.
  return Promise.all(
    cases.map((page) => recorder.record(page.entry, page.fetchedUrl, page.result, undefined, CRAWL_MICROS)),
  );
}

/** The page's tar entries as the bundle will hold them, with the commit (the offset is set later). */
function comparable(page: PreparedPage) {
  const members = page.members?.map((member) => gunzipSync(member).toString('utf8'));
  // A fingerprint crosses threads as a plain Uint8Array; its bytes are what the store keeps.
  const discovered = page.commit.discovered.map((entry) => ({
    ...entry,
    fingerprint: Buffer.from(entry.fingerprint).toString('hex'),
  }));
  return { commit: { ...page.commit, discovered }, members };
}

describe('PageRecorder', () => {
  test('pages prepared in the thread equal pages prepared on the calling thread', async () => {
    const cases = pageCases();
    const threaded = new PageRecorder(settingsOf(), 'Asia/Tokyo', true);
    const inline = new PageRecorder(settingsOf(), 'Asia/Tokyo', false);
    try {
      assert.equal(await threaded.ready(), true);
      assert.equal(await inline.ready(), false);
      const fromThread = await prepareAll(threaded, cases);
      const fromCaller = await prepareAll(inline, cases);
      assert.equal(threaded.preparedInThread, cases.length, 'every page was prepared in the thread');
      assert.equal(inline.preparedInThread, 0);
      for (let index = 0; index < cases.length; index++) {
        assert.deepEqual(
          comparable(fromThread[index]!),
          comparable(fromCaller[index]!),
          cases[index]!.entry.url,
        );
      }
      const first = fromThread[0]!;
      assert.equal(first.commit.frontierSeq, 1);
      assert.deepEqual(
        first.commit.discovered.map((entry) => entry.url),
        [`${SITE}/docs/1.html`, `${SITE}/docs/2.html`, `${SITE}/docs/3.html`, `${SITE}/docs/common.html`],
        'fragment and credentials dropped, denied, nofollow, mail and other-site links not followed',
      );
      assert.equal(first.commit.links.length, 7, 'every http(s) link is in the link list');
      const meta = comparable(first).members!.join('');
      assert.match(meta, /"title": "Page 0 日本語"/);
      assert.match(meta, /"crawl_datetime": "2026-11-27T18:30:00\.000000\+09:00"/);
      // The common link was discovered by the first page; later pages know it already.
      assert.ok(
        fromThread
          .slice(1, 30)
          .every((page) => !page.commit.discovered.some((entry) => entry.url.endsWith('/common.html'))),
      );
      // The 500 page is a failed row with its source kept, and nothing to follow.
      const broken = fromThread[cases.length - 1]!;
      assert.equal(broken.commit.row.ok, false);
      assert.equal(broken.commit.row.httpStatus, 500);
      assert.deepEqual(broken.commit.discovered, []);
    } finally {
      await Promise.all([threaded.close(), inline.close()]);
    }
  });

  test('pages the thread holds when it closes are prepared by the caller', async () => {
    const cases = pageCases();
    const reference = new PageRecorder(settingsOf(), 'UTC', false);
    const expected = await prepareAll(reference, cases);
    const recorder = new PageRecorder(settingsOf(), 'UTC', true);
    assert.equal(await recorder.ready(), true);
    const pending = prepareAll(recorder, cases);
    await recorder.close();
    const prepared = await pending;
    assert.equal(recorder.preparedInThread, 0);
    assert.deepEqual(prepared.map(comparable), expected.map(comparable));
    // After the thread is gone, pages are still prepared.
    const [later] = await prepareAll(recorder, cases.slice(0, 1));
    assert.equal(later!.commit.row.httpStatus, 200);
    assert.ok(later!.members !== undefined && later!.members.length > 0);
  });

  test('URL patterns cross to the thread as written and decide there', async () => {
    const settings = settingsOf({ allow_urls_patterns: ['/docs/[0-9]+\\.html$'] });
    const recorder = new PageRecorder(settings, 'UTC', true);
    try {
      assert.equal(await recorder.ready(), true);
      const [page] = await prepareAll(recorder, pageCases().slice(0, 1));
      assert.equal(recorder.preparedInThread, 1);
      assert.deepEqual(
        page!.commit.discovered.map((entry) => entry.url),
        [`${SITE}/docs/1.html`, `${SITE}/docs/2.html`, `${SITE}/docs/3.html`],
      );
    } finally {
      await recorder.close();
    }
  });

  test('pages fetched before the thread has loaded its code are prepared at once, and the same', async () => {
    const cases = pageCases();
    const reference = new PageRecorder(settingsOf(), 'UTC', false);
    // It takes the thread an earlier test left, so the recorder below starts a thread of its own.
    const holder = new PageRecorder(settingsOf(), 'UTC', true);
    holder.start();
    const recorder = new PageRecorder(settingsOf(), 'UTC', true);
    try {
      recorder.start();
      const prepared = await prepareAll(recorder, cases);
      assert.equal(recorder.preparedInThread, 0);
      assert.deepEqual(prepared.map(comparable), (await prepareAll(reference, cases)).map(comparable));
      assert.equal(await recorder.ready(), true);
      const [later] = await prepareAll(recorder, cases.slice(0, 1));
      assert.equal(recorder.preparedInThread, 1);
      assert.equal(later!.commit.row.httpStatus, 200);
    } finally {
      await Promise.all([recorder.close(), holder.close()]);
    }
  });

  test("the next run's recorder takes the closed one's thread: every page goes to it, prepared the same", async () => {
    const cases = pageCases();
    const first = new PageRecorder(settingsOf(), 'UTC', true);
    assert.equal(await first.ready(), true);
    await prepareAll(first, cases);
    await first.close();
    // Other settings: the kept thread takes this run's, and nothing of the first run's links.
    const other = { deny_urls_patterns: ['/docs/3\\.html'] };
    const reference = new PageRecorder(settingsOf(other), 'UTC', false);
    const next = new PageRecorder(settingsOf(other), 'UTC', true);
    try {
      next.start();
      const prepared = await prepareAll(next, cases);
      assert.equal(next.preparedInThread, cases.filter((page) => page.result.kind === 'response').length);
      assert.deepEqual(prepared.map(comparable), (await prepareAll(reference, cases)).map(comparable));
    } finally {
      await next.close();
    }
  });

  test('a page holding what cannot cross threads is prepared on the calling thread', async () => {
    const recorder = new PageRecorder(settingsOf(), 'UTC', true);
    try {
      assert.equal(await recorder.ready(), true);
      // A failure whose cause holds a function cannot be copied to the thread.
      const failure = new FetchFailure('too_large', 'body over the limit', { cause: { retry: () => 0 } });
      const url = `${SITE}/huge.html`;
      const page = await recorder.record(
        { seq: 7, url, depth: 1, referrer: `${SITE}/`, lastmod: null },
        url,
        { kind: 'failed', failure, finalUrl: url, status: 200, headers: { 'content-type': 'text/html' } },
        undefined,
        CRAWL_MICROS,
      );
      assert.equal(recorder.preparedInThread, 0);
      assert.equal(page.commit.frontierSeq, 7);
      assert.equal(page.commit.row.ok, false);
      assert.equal(page.commit.row.httpStatus, 200);
      // The thread still prepares the next page.
      await prepareAll(recorder, pageCases().slice(0, 1));
      assert.equal(recorder.preparedInThread, 1);
    } finally {
      await recorder.close();
    }
  });
  test("a page at the body limit, 32 MiB of 400,000 links, is prepared within the thread's heap", async () => {
    const recorder = new PageRecorder(settingsOf(), 'UTC', true);
    try {
      assert.equal(await recorder.ready(), true);
      const lines: string[] = [];
      let size = 0;
      for (let line = 0; size < 32 * 1024 * 1024 - 200; line++) {
        const text = `<p>line ${line} 日本語 <a href="/docs/p${line % 5000}.html">link ${line}</a></p>\n`;
        lines.push(text);
        size += Buffer.byteLength(text);
      }
      const url = `${SITE}/docs/huge.html`;
      const body = Buffer.from(`<html><head><title>Huge</title></head><body>${lines.join('')}</body></html>`);
      lines.length = 0;
      const page = await recorder.record(
        { seq: 9, url, depth: 1, referrer: `${SITE}/`, lastmod: null },
        url,
        {
          kind: 'response',
          finalUrl: url,
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body,
          refusedRedirect: undefined,
        },
        undefined,
        CRAWL_MICROS,
      );
      assert.equal(recorder.preparedInThread, 1, 'the thread did not run out of heap');
      assert.equal(page.commit.row.ok, true);
      assert.equal(page.commit.discovered.length, 5000);
      // The bundle keeps the whole source (its tar entry: header, bytes, padding).
      assert.ok(gunzipSync(page.members![0]!).includes(body.subarray(body.length - 4096)));
    } finally {
      await recorder.close();
    }
  });
});
