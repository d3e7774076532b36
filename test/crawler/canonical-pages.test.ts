/**
 * Canonical pages (docs/reference/crawl-rules.md, Canonical pages), crawled over real sockets on
 * loopback and fed into a real search index: `<link rel="canonical">` and the HTTP Link header name
 * another URL of the site, which is crawled even when nothing links to it; the page is listed but
 * not indexed as its own document (a version indexed before is removed); a canonical on another
 * site, or the page's own URL, changes nothing; noindex still wins.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { canonicalOfLinkHeader } from '../../src/crawler/canonical-url.js';
import { applyRunToIndex } from '../../src/search/indexing.js';
import { SearchIndex } from '../../src/search/local-index.js';
import { metaOf, readCsvGz, readTarGz, recordsOf } from '../support/artifact-readers.js';
import { crawlInto } from '../support/engine-crawl.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { rankedSearch } from '../support/ranked-search.js';

interface Page {
  html: string;
  headers?: Record<string, string>;
}

const page = (title: string, words: string, head = '', links: string[] = []): Page => ({
  html:
    `<!doctype html><html><head><title>${title}</title>${head}</head><body><p>${words}</p>` +
    `${links.map((href) => `<a href="${href}">${href}</a>`).join(' ')}</body></html>`,
});

/** The site's pages; the test edits the map between crawls. */
const pages = new Map<string, Page>();
let site: LocalServer;
let folder: string;
let index: SearchIndex;

before(async () => {
  const server = createServer((request, response) => {
    const found = pages.get(request.url ?? '/');
    if (found === undefined)
      response.writeHead(404, { 'content-type': 'text/html' }).end('<title>none</title>');
    else
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...found.headers })
        .end(found.html);
  });
  site = await listenLocally(server);
  folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-canonical-'));
  index = new SearchIndex(path.join(folder, 'service.db'));
});

after(async () => {
  index.close();
  await site.close();
  await rm(folder, { recursive: true, force: true });
});

let runs = 0;

/** Crawls the site from `/` and applies the run to the index, as a scheduled run does. */
async function crawlAndFeed(): Promise<{ urls: string[]; bundle: Map<string, Buffer> }> {
  runs += 1;
  const { out } = await crawlInto(path.join(folder, `run-${runs}`), {
    seed_urls: [`${site.baseUrl}/`],
    robots_txt: false,
  });
  const bundleFile = path.join(out, 'crawl_objects.tar.gz');
  await applyRunToIndex(index, `run-${runs}`, 'setting:1', bundleFile, {
    gone: new Set(),
    failed: new Set(),
    complete: true,
  });
  const urls = recordsOf(readCsvGz(path.join(out, 'url_list.csv.gz'))).map(
    (row) => new URL(row.crawl_url!).pathname,
  );
  return { urls: urls.sort(), bundle: await readTarGz(bundleFile) };
}

const found = (query: string) =>
  rankedSearch(index, query, 10)
    .docs.map((doc) => new URL(doc.url).pathname)
    .sort();

const folderOf = (pathname: string) => `http/${new URL(site.baseUrl).host}${pathname}-/-/`;

describe('canonical pages', () => {
  test('a page naming another URL as canonical is listed, not indexed, and its canonical is crawled', async () => {
    pages.set(
      '/',
      page('Home', 'welcome', '', [
        '/print.html',
        '/report.html',
        '/elsewhere.html',
        '/self.html',
        '/hidden.html',
      ]),
    );
    pages.set('/print.html', page('Printable guide', 'lighthouse lens printable'));
    pages.set('/report.html', page('Report', 'tide tables report'));
    pages.set(
      '/elsewhere.html',
      page('Elsewhere', 'harbour crane', '<link rel="canonical" href="https://other.example/crane">'),
    );
    pages.set('/self.html', page('Self', 'anchor chain', '<link rel="canonical" href="/self.html#top">'));
    pages.set('/hidden.html', page('Hidden', 'secret buoy', '<meta name="robots" content="noindex">'));
    pages.set('/guide/lens.html', page('The lighthouse lens', 'lighthouse lens guide'));
    pages.set('/reports/2026.html', page('Tide tables 2026', 'tide tables yearly'));
    const first = await crawlAndFeed();
    assert.deepEqual(found('lighthouse'), ['/print.html']);
    assert.ok(!first.urls.includes('/guide/lens.html'), 'nothing links to the guide yet');

    // The site now names canonical pages: an HTML element on one page, a Link header on the other.
    pages.set(
      '/print.html',
      page(
        'Printable guide',
        'lighthouse lens printable',
        '<base href="/guide/"><link rel="canonical" href="lens.html">',
      ),
    );
    pages.set('/report.html', {
      ...page('Report', 'tide tables report'),
      headers: { link: '</reports/2026.html>; title="a; b, c"; rel="canonical"' },
    });
    const second = await crawlAndFeed();
    assert.deepEqual(second.urls, [
      '/',
      '/elsewhere.html',
      '/guide/lens.html',
      '/hidden.html',
      '/print.html',
      '/report.html',
      '/reports/2026.html',
      '/self.html',
    ]);
    assert.equal(metaOf(second.bundle, folderOf('/print.html')).canonical, `${site.baseUrl}/guide/lens.html`);
    assert.equal(
      metaOf(second.bundle, folderOf('/report.html')).canonical,
      `${site.baseUrl}/reports/2026.html`,
    );
    // Found as a link of the page naming it, one hop deeper.
    assert.equal(metaOf(second.bundle, folderOf('/guide/lens.html')).depth, 2);
    assert.equal(metaOf(second.bundle, folderOf('/elsewhere.html')).canonical, undefined);
    assert.equal(metaOf(second.bundle, folderOf('/self.html')).canonical, undefined);
    // The canonical pages are found; the pages naming them are no documents of their own any more.
    assert.deepEqual(found('lighthouse'), ['/guide/lens.html']);
    assert.deepEqual(found('tide'), ['/reports/2026.html']);
    assert.deepEqual(found('crane'), ['/elsewhere.html']);
    assert.deepEqual(found('anchor'), ['/self.html']);
    assert.deepEqual(found('buoy'), []);
  });

  test('a page stays a document when its canonical page is missing, is itself, or names it back', async () => {
    pages.clear();
    pages.set('/', page('Home', 'welcome', '', ['/orphaned.html', '/dir/', '/x.html', '/y.html']));
    // Its canonical page answers 404: the page is the only version there is.
    pages.set('/orphaned.html', page('Orphaned', 'kelp forest', '<link rel="canonical" href="/gone.html">'));
    // /dir redirects to /dir/, which names /dir: the page names itself.
    pages.set('/dir/', page('Directory', 'seagrass meadow', '<link rel="canonical" href="/dir">'));
    // Two pages naming each other: the shorter URL, then the first in order, stays.
    pages.set('/x.html', page('X', 'coral reef x', '<link rel="canonical" href="/y.html">'));
    pages.set('/y.html', page('Y', 'coral reef y', '<link rel="canonical" href="/x.html">'));
    await crawlAndFeed();
    assert.deepEqual(found('kelp'), ['/orphaned.html']);
    assert.deepEqual(found('seagrass'), ['/dir/']);
    assert.deepEqual(found('coral'), ['/x.html']);
  });

  test('the Link header is read as RFC 8288 writes it', () => {
    assert.equal(canonicalOfLinkHeader('<https://a.example/x>; rel="canonical"'), 'https://a.example/x');
    assert.equal(canonicalOfLinkHeader('<https://a.example/x>; rel=canonical'), 'https://a.example/x');
    assert.equal(
      canonicalOfLinkHeader(
        '<https://a.example/next>; rel="next", <https://a.example/y>; title="y"; rel="alternate canonical"',
      ),
      'https://a.example/y',
    );
    assert.equal(canonicalOfLinkHeader('<https://a.example/next>; rel="next"'), undefined);
    assert.equal(canonicalOfLinkHeader(undefined), undefined);
  });
});
