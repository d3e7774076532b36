/**
 * Of pages with the same text, a search shows the one in the query's language
 * (docs/reference/site-search.md, Pages with the same text): a local site serves one manual page
 * under /da/, /de/ and /en/, each declaring its language, and a Japanese page under /en/ and /ja/;
 * the service crawls it, `kumo index --run` loads the run, and the site search API shows the
 * English page for an English query, the Japanese one for a Japanese query, of pages in the
 * same language the one more pages of the site link to, and of those equally linked the shortest
 * URL.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../support/cli-runner.js';
import { startTestService, type TestService } from '../support/service-harness.js';

const SEARCH = '/api/v1.0/finder_service/documents/1/1/1';

const MANUAL_TEXT =
  'The KeepAliveTimeout directive sets the number of seconds the server waits for a subsequent ' +
  'request before closing a persistent connection; once a request has been received the Timeout ' +
  'directive applies instead.';
const JAPANESE_TEXT =
  '持続的な接続を閉じる前に次のリクエストを待つ秒数を設定します。リクエストを受け取った後は ' +
  'タイムアウトの設定が代わりに使われ、接続はその時間だけ保たれます。サーバの負荷に応じて調整します。' +
  '値を大きくすると同じ利用者からの続くリクエストは速く返りますが、待つ間も接続をひとつ占めます。';
const PROXY_TEXT =
  'A reverse proxy forwards each request it receives to one of the backend servers named in its ' +
  'balancer block and passes the answer back, so clients see a single address for the whole pool.';
const GUIDE_TEXT =
  'Virtual hosts let one server answer for several host names; each block names the host it ' +
  'answers for and the folder its documents are served from, and the first block is the default.';

/** A page declaring `lang` (in `<html lang>`, or only as an alternate naming itself). */
function page(lang: string, text: string, how: 'html' | 'hreflang' = 'html'): string {
  const html = how === 'html' ? `<html lang="${lang}">` : '<html>';
  const alternate = how === 'hreflang' ? `<link rel="alternate" hreflang="${lang}" href="">` : '';
  return `${html}<head><title>core</title>${alternate}</head><body><p>${text}</p></body></html>`;
}

/**
 * Pages of their own text: a line on 30% of a site's pages is template, not main text
 * (docs/reference/site-search.md, Page templates), which three copies of nine pages would be.
 */
const OTHER_PAGES = Object.fromEntries(
  Array.from({ length: 12 }, (_, n) => [
    `/en/other-${n}.html`,
    page(
      'en',
      `Directive number ${n} of the other modules is described on this page of its own.` +
        // Every page links the Danish proxy guide; four link the longer English URL of it.
        ' <a href="/da/p.html">dansk</a>' +
        (n < 4 ? ` <a href="../en/guide/proxy.html#top">see ${n}</a>` : ''),
    ),
  ]),
);

const PAGES: Record<string, string> = {
  '/': ['/da/mod/core.html', '/de/mod/core.html', '/en/mod/core.html', '/en/ja.html', '/ja/ja.html']
    .concat(['/da/vhosts.html', '/en/vhosts.html', '/en/docs/vhosts.html'], Object.keys(OTHER_PAGES))
    .concat(['/en/proxy.html', '/en/guide/proxy.html', '/da/p.html'])
    .map((href) => `<a href="${href}">${href}</a>`)
    .join(' '),
  ...OTHER_PAGES,
  '/da/mod/core.html': page('da', MANUAL_TEXT),
  '/de/mod/core.html': page('de', MANUAL_TEXT),
  '/en/mod/core.html': page('en', MANUAL_TEXT),
  // The same Japanese text under /en/ (declared English) and /ja/ (declared by its alternate link).
  '/en/ja.html': page('en', JAPANESE_TEXT),
  '/ja/ja.html': page('ja', JAPANESE_TEXT, 'hreflang'),
  // Two English copies: the shorter URL is shown; the Danish one of the same length is not.
  '/da/vhosts.html': page('da', GUIDE_TEXT),
  '/en/vhosts.html': page('en', GUIDE_TEXT),
  '/en/docs/vhosts.html': page('en', GUIDE_TEXT),
  // Two English copies of one guide: the longer URL has more pages linking to it (five against
  // one); the Danish copy, shorter and linked from every page, is not in the query's language.
  '/en/proxy.html': page('en', PROXY_TEXT),
  '/en/guide/proxy.html': page('en', PROXY_TEXT),
  '/da/p.html': page('da', PROXY_TEXT),
};

let site: Server;
let siteUrl: string;
let service: TestService;

before(async () => {
  site = createServer((req, res) => {
    const body = PAGES[req.url ?? ''];
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  service = await startTestService();
  const requestId = await service.requestCrawl({ seed_urls: [`${siteUrl}/`], robots_txt: false });
  const history = await service.waitForFinished(requestId);
  assert.equal(history.crawl_execution_status_dtype_id, 2030);
  const indexed = await runCli(['index', '--service', '1', '--run', String(requestId)], 60_000, {
    KUMO_DATA_DIR: service.dataDir,
  });
  assert.equal(indexed.code, 0, indexed.stderr);
});

after(async () => {
  await service.close();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

/** The results of a query: each URL shown with the copies it names. */
async function shown(query: string): Promise<[string, string[]][]> {
  const response = await fetch(`${service.url}${SEARCH}/search?q=${encodeURIComponent(query)}`);
  assert.equal(response.status, 200);
  const answer = (await response.json()) as {
    organic: { docs: { url: string; duplicate_urls?: string[] }[] };
  };
  return answer.organic.docs.map((doc) => [
    doc.url.slice(siteUrl.length),
    (doc.duplicate_urls ?? []).map((url) => url.slice(siteUrl.length)),
  ]);
}

describe('pages with the same text in several languages', () => {
  test('an English query shows the page declared English, naming the others', async () => {
    assert.deepEqual(await shown('KeepAliveTimeout persistent connection'), [
      ['/en/mod/core.html', ['/da/mod/core.html', '/de/mod/core.html']],
    ]);
  });

  test('a Japanese query shows the page declared Japanese, by its alternate link', async () => {
    assert.deepEqual(await shown('持続的な接続'), [['/ja/ja.html', ['/en/ja.html']]]);
  });

  test('of the pages in the query language, the one more pages link to is shown', async () => {
    assert.deepEqual(await shown('reverse proxy backend servers'), [
      ['/en/guide/proxy.html', ['/en/proxy.html', '/da/p.html']],
    ]);
  });

  test('of the pages in the query language equally linked, the shortest URL is shown', async () => {
    assert.deepEqual(await shown('virtual hosts'), [
      ['/en/vhosts.html', ['/en/docs/vhosts.html', '/da/vhosts.html']],
    ]);
  });
});
