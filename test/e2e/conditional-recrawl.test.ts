/**
 * Conditional re-crawls (docs/reference/crawl-rules.md, Conditional re-crawls): the second run of
 * a scheduled setting asks each page with the validators the first run received; pages that
 * answer 304 keep their stored copy in the bundle and in search, only the changed page is
 * downloaded, links of unchanged pages are still followed, and the history counts the pages kept.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { parseCsvText, readTar } from '../support/artifact-readers.js';
import { downloadRunFile, type RunHistory as History, runSettingOnce } from '../support/scheduled-runs.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { docPath, type SearchAnswer } from '../support/search-fixtures.js';
import { startTestService, TEST_ADMIN_TOKEN, type TestService } from '../support/service-harness.js';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const GROUP = '/admin/v1/contracts/1/servicegroups/1';

const pages = new Map<string, string>([
  ['/', '<title>Tide office</title><p>harbour notices</p><a href="/tides.html">tides</a>'],
  ['/tides.html', '<title>Tides</title><p>spring tides at noon</p><a href="/deep/charts.html">charts</a>'],
  ['/deep/charts.html', '<title>Charts</title><p>nautical charts for sale</p>'],
]);
/** Each request: its path, the validator it sent and the status it got. */
const requests: { path: string; ifNoneMatch: string | undefined; status: number }[] = [];
let site: LocalServer;
let kumo: TestService;

before(async () => {
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    const body = pages.get(path);
    if (body === undefined) {
      requests.push({ path, ifNoneMatch: undefined, status: 404 });
      response.writeHead(404).end();
      return;
    }
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    const ifNoneMatch = request.headers['if-none-match'];
    const status = ifNoneMatch === etag ? 304 : 200;
    requests.push({ path, ifNoneMatch, status });
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', etag });
    response.end(status === 304 ? undefined : body);
  });
  site = await listenLocally(server);
  kumo = await startTestService();
});

after(async () => {
  await kumo?.close();
  await site?.close();
});

const runOnce = (settingId: number, runs: number): Promise<History> => runSettingOnce(kumo, settingId, runs);

const download = (history: History, file: string): Promise<Buffer> => downloadRunFile(kumo, history, file);

async function search(q: string): Promise<string[]> {
  const answer = await kumo.inject({ method: 'GET', url: `${docPath()}/search?q=${encodeURIComponent(q)}` });
  return (answer.json as SearchAnswer).organic.docs.map((doc) => new URL(doc.url).pathname);
}

test('a second scheduled run downloads only what changed and keeps the rest from the first', async () => {
  const created = await kumo.inject({
    method: 'POST',
    url: `${GROUP}/service_settings`,
    headers: { ...ADMIN, 'content-type': 'application/json' },
    payload: {
      setting: { seed_urls: [`${site.baseUrl}/`], robots_txt: false },
      schedule: { interval: 0 },
      service_id: 1,
    },
  });
  assert.equal(created.statusCode, 200, created.body);
  const settingId = created.json.service_setting_id as number;
  const first = await runOnce(settingId, 1);
  assert.equal(first.crawl_execution_status_dtype_id, 2030);
  // (The setting reads sitemaps by default: the site has none, /sitemap.xml answers 404.)
  const pageRequests = () => requests.filter((request) => pages.has(request.path));
  assert.ok(pageRequests().every((request) => request.ifNoneMatch === undefined && request.status === 200));
  const firstBundle = await readTar(await download(first, 'crawl_objects.tar.gz'));

  pages.set(
    '/tides.html',
    '<title>Tides</title><p>neap tides at dusk</p><a href="/deep/charts.html">charts</a>',
  );
  requests.length = 0;
  // Documents are dated to the second: the second run starts in a later second than the first
  // crawled, so a kept page dated by its new crawl time would count as changed.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const second = await runOnce(settingId, 2);
  assert.equal(second.crawl_execution_status_dtype_id, 2030);
  // Every page was asked with its validator; only the changed one was sent again.
  assert.deepEqual(
    pageRequests()
      .map((request) => [request.path, request.ifNoneMatch !== undefined, request.status])
      .sort(),
    [
      ['/', true, 304],
      ['/deep/charts.html', true, 304],
      ['/tides.html', true, 200],
    ],
  );
  assert.match(
    second.message ?? '',
    /unchanged: 2 page\(s\) answered 304 Not Modified and kept the copy stored before/,
  );
  // The kept pages are the same documents: not indexed again (the site sends no Last-Modified, so
  // they are dated by when their copy was fetched whole).
  assert.match(second.message ?? '', /search service 1: 0 new, 1 changed, 2 unchanged, 0 removed/);

  const rows = parseCsvText((await download(second, 'url_list.csv.gz')).toString('utf8')).slice(1);
  assert.deepEqual(rows.map((row) => [new URL(row[0]!).pathname, row[2], row[4]]).sort(), [
    ['/', 'true', '304'],
    ['/deep/charts.html', 'true', '304'],
    ['/tides.html', 'true', '200'],
  ]);
  // The kept pages' files are the stored copy: the same source as the first run's.
  const secondBundle = await readTar(await download(second, 'crawl_objects.tar.gz'));
  const host = new URL(site.baseUrl).host;
  for (const folder of [`http/${host}/-/-/`, `http/${host}/deep/charts.html-/-/`]) {
    assert.deepEqual(
      secondBundle.get(`${folder}source.html`),
      firstBundle.get(`${folder}source.html`),
      folder,
    );
  }
  // Search has the change and still every unchanged page.
  assert.deepEqual(await search('neap'), ['/tides.html']);
  assert.deepEqual(await search('spring'), []);
  assert.deepEqual(await search('nautical'), ['/deep/charts.html']);
  assert.deepEqual(await search('harbour'), ['/']);
});
