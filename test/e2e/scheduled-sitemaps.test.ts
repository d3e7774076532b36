/**
 * A scheduled setting that feeds a search service reads the site's sitemap by default
 * (docs/reference/crawl-settings.md, sitemaps): a page no link reaches becomes searchable, and the
 * run's history says what the sitemaps gave, a broken one included.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { docPath, type SearchAnswer } from '../support/search-fixtures.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { createSearchFeedingSetting } from '../support/scheduled-runs.js';
import {
  pollUntil,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
} from '../support/service-harness.js';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
const GROUP = '/admin/v1/contracts/1/servicegroups/1';

let site: LocalServer;
let kumo: TestService;

before(async () => {
  let origin = '';
  const pages: Record<string, [string, string]> = {
    '/robots.txt': ['text/plain', 'User-agent: *\nSitemap: /sitemap.xml\nSitemap: /news-sitemap.xml\n'],
    '/': ['text/html', '<title>Harbour museum</title><p>opening hours and tickets</p>'],
    '/exhibits/lighthouse.html': [
      'text/html',
      '<title>The lighthouse lens</title><p>a fresnel lens from the old lighthouse</p>',
    ],
    '/sitemap.xml': [
      'application/xml',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
        '<url><loc>ORIGIN/</loc></url><url><loc>ORIGIN/exhibits/lighthouse.html</loc></url></urlset>',
    ],
    '/news-sitemap.xml': ['text/html', '<title>Moved</title>'],
  };
  const server = createServer((request, response) => {
    const page = pages[request.url ?? '/'];
    if (page === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<title>not found</title>');
      return;
    }
    response
      .writeHead(200, { 'content-type': `${page[0]}; charset=utf-8` })
      .end(page[1].replaceAll('ORIGIN', origin));
  });
  site = await listenLocally(server);
  origin = site.baseUrl;
  kumo = await startTestService();
});

after(async () => {
  await kumo?.close();
  await site?.close();
});

test('a page only the sitemap lists is searchable after a scheduled run; the history tells of the sitemaps', async () => {
  const settingId = await createSearchFeedingSetting(kumo, `${site.baseUrl}/`);
  const run = await kumo.inject({
    method: 'POST',
    url: `${GROUP}/service_settings/${settingId}/run`,
    headers: { authorization: ADMIN.authorization },
  });
  assert.equal(run.statusCode, 200, run.body);

  const range = 'from_datetime=2000-01-01T00:00:00Z&to_datetime=2100-01-01T00:00:00Z';
  const history = await pollUntil('the scheduled run to finish', async () => {
    const answer = await kumo.inject({
      method: 'GET',
      url: `/api/v1.0/crawler_service/contracts/1/servicegroups/1/service_settings/${settingId}/histories?${range}`,
    });
    const [latest] = answer.json.contents as { crawl_execution_status_dtype_id: number; message?: string }[];
    return latest !== undefined && latest.crawl_execution_status_dtype_id >= 2030 ? latest : undefined;
  });
  assert.equal(history.crawl_execution_status_dtype_id, 2030);
  assert.match(
    history.message ?? '',
    new RegExp(
      `sitemaps: 1 of 2 file\\(s\\) read, 2 URL\\(s\\) listed, 1 new to the crawl; sitemap problems: ` +
        `${site.baseUrl}/news-sitemap.xml: not a sitemap: root element <title>`,
    ),
  );

  const search = await kumo.inject({ method: 'GET', url: `${docPath()}/search?q=fresnel` });
  assert.equal(search.statusCode, 200, search.body);
  const urls = (search.json as SearchAnswer).organic.docs.map((doc) => doc.url);
  assert.deepEqual(urls, [`${site.baseUrl}/exhibits/lighthouse.html`]);
});
