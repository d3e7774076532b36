/**
 * The sitemap lastmod skip of scheduled re-crawls (docs/reference/crawl-rules.md, Conditional
 * re-crawls): with sitemap_lastmod_skip_days set, a page whose sitemap lastmod is older than the
 * copy the previous run stored is not requested at all and keeps that copy as a 304 would (a
 * lastmod that is a day counts as that day's end); a page whose lastmod is newer, only a month, or
 * whose copy came through a redirect is asked again; with the setting 0 every page is.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { metaOf, parseCsvText, readTar } from '../support/artifact-readers.js';
import { downloadRunFile, type RunHistory as History, runSettingOnce } from '../support/scheduled-runs.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { docPath, type SearchAnswer } from '../support/search-fixtures.js';
import { startTestService, TEST_ADMIN_TOKEN, type TestService } from '../support/service-harness.js';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const GROUP = '/admin/v1/contracts/1/servicegroups/1';

const pages = new Map<string, string>([
  [
    '/',
    // Only the sitemap lists /old.html: a link could queue it before the sitemap gives its lastmod.
    '<title>Ferry office</title><p>timetables</p><a href="/fresh.html">fresh</a>',
  ],
  ['/old.html', '<title>Old pier</title><p>granite bollards</p><a href="/deeper.html">deeper</a>'],
  ['/fresh.html', '<title>Fares</title><p>summer fares</p>'],
  ['/dated.html', '<title>Dated</title><p>lighthouse keepers</p>'],
  ['/daily.html', '<title>Daily</title><p>tide tables</p>'],
  ['/moved-here.html', '<title>Moved</title><p>harbour master</p>'],
  ['/deeper.html', '<title>Deeper</title><p>seabed survey</p>'],
]);
/** The lastmod each page has in the sitemap. */
const lastmods = new Map<string, string>([
  // Long before any run: unchanged since.
  ['/old.html', '2020-01-01T00:00:00+09:00'],
  // A month alone could be any of its days: never trusted.
  ['/dated.html', '2020-01'],
  // A day long before any run: unchanged since.
  ['/daily.html', '2020-01-01'],
  // Unchanged too, but it redirects: where it leads is asked again.
  ['/moved.html', '2020-01-01'],
]);
/** Each page request: its path, whether it carried a validator, and the status it got. */
const requests: { path: string; conditional: boolean; status: number }[] = [];
let site: LocalServer;
let kumo: TestService;

function sitemap(): string {
  const urls = ['/old.html', '/fresh.html', '/dated.html', '/daily.html', '/moved.html'].map((path) => {
    const lastmod = lastmods.get(path);
    return `<url><loc>${site.baseUrl}${path}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`;
  });
  return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`;
}

before(async () => {
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/sitemap.xml') {
      response.writeHead(200, { 'content-type': 'application/xml' }).end(sitemap());
      return;
    }
    if (path === '/moved.html') {
      requests.push({ path, conditional: request.headers['if-none-match'] !== undefined, status: 301 });
      response.writeHead(301, { location: '/moved-here.html' }).end();
      return;
    }
    const body = pages.get(path);
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    const ifNoneMatch = request.headers['if-none-match'];
    const status = ifNoneMatch === etag ? 304 : 200;
    requests.push({ path, conditional: ifNoneMatch !== undefined, status });
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

function settingBody(skipDays: number) {
  return {
    setting: {
      seed_urls: [`${site.baseUrl}/`],
      robots_txt: false,
      sitemap_urls: [`${site.baseUrl}/sitemap.xml`],
      sitemap_lastmod_skip_days: skipDays,
    },
    schedule: { interval: 0 },
    service_id: 1,
  };
}

async function runOnce(settingId: number, runs: number): Promise<History> {
  requests.length = 0;
  // Crawl times are compared with lastmods and documents are dated to the second: each run starts
  // in a later second than the one before.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const history = await runSettingOnce(kumo, settingId, runs);
  assert.equal(history.crawl_execution_status_dtype_id, 2030, history.message);
  return history;
}

const download = (history: History, file: string): Promise<Buffer> => downloadRunFile(kumo, history, file);

async function rowsOf(history: History): Promise<string[][]> {
  const rows = parseCsvText((await download(history, 'url_list.csv.gz')).toString('utf8')).slice(1);
  return rows.map((row) => [new URL(row[0]!).pathname, row[2]!, row[4]!]).sort();
}

async function search(q: string): Promise<string[]> {
  const answer = await kumo.inject({ method: 'GET', url: `${docPath()}/search?q=${encodeURIComponent(q)}` });
  return (answer.json as SearchAnswer).organic.docs.map((doc) => new URL(doc.url).pathname);
}

const requested = () =>
  requests.map((request) => [request.path, request.conditional, request.status] as const).sort();

test('a page whose sitemap lastmod is older than its stored copy is kept without a request', async () => {
  const created = await kumo.inject({
    method: 'POST',
    url: `${GROUP}/service_settings`,
    headers: { ...ADMIN, 'content-type': 'application/json' },
    payload: settingBody(7),
  });
  assert.equal(created.statusCode, 200, created.body);
  const settingId = created.json.service_setting_id as number;
  const host = new URL(site.baseUrl).host;
  const oldFolder = `http/${host}/old.html-/-/`;

  // First run: nothing stored before, every page is fetched whole.
  const first = await runOnce(settingId, 1);
  assert.deepEqual(
    requested().map(([path, conditional]) => [path, conditional]),
    [
      '/',
      '/daily.html',
      '/dated.html',
      '/deeper.html',
      '/fresh.html',
      '/moved-here.html',
      '/moved.html',
      '/old.html',
    ].map((path) => [path, false]),
  );
  const firstBundle = await readTar(await download(first, 'crawl_objects.tar.gz'));
  const firstCrawled = metaOf(firstBundle, oldFolder).crawl_datetime as string;

  // The fresh page changes after the first run, and its sitemap says so.
  pages.set('/fresh.html', '<title>Fares</title><p>winter fares</p>');
  lastmods.set('/fresh.html', new Date().toISOString());
  const second = await runOnce(settingId, 2);
  // The old page was not asked for at all; the others were asked conditionally.
  assert.deepEqual(requested(), [
    ['/', true, 304],
    ['/dated.html', true, 304],
    ['/deeper.html', true, 304],
    ['/fresh.html', true, 200],
    ['/moved-here.html', false, 200],
    ['/moved.html', true, 301],
  ]);
  assert.match(
    second.message ?? '',
    /unchanged: 3 page\(s\) answered 304 Not Modified and kept the copy stored before; 2 page\(s\) not requested and kept the copy stored before: their sitemap lastmod is older than that copy, which the site confirmed 7 day\(s\) ago or less/,
  );
  assert.deepEqual(await rowsOf(second), [
    ['/', 'true', '304'],
    ['/daily.html', 'true', '304'],
    ['/dated.html', 'true', '304'],
    ['/deeper.html', 'true', '304'],
    ['/fresh.html', 'true', '200'],
    ['/moved.html', 'true', '200'],
    ['/old.html', 'true', '304'],
  ]);
  const secondBundle = await readTar(await download(second, 'crawl_objects.tar.gz'));
  // The page kept on a day's lastmod says so, with the lastmod it was kept on.
  const dailyMeta = metaOf(secondBundle, `http/${host}/daily.html-/-/`);
  assert.equal(dailyMeta.kept_without_request, 'sitemap_lastmod');
  assert.equal(dailyMeta.sitemap_lastmod, '2020-01-01');
  assert.deepEqual(secondBundle.get(`${oldFolder}source.html`), firstBundle.get(`${oldFolder}source.html`));
  const oldMeta = metaOf(secondBundle, oldFolder);
  assert.equal(oldMeta.http_status, 304);
  assert.equal(oldMeta.kept_without_request, 'sitemap_lastmod');
  assert.equal(oldMeta.confirmed_datetime, firstCrawled);
  assert.equal(oldMeta.stored_datetime, firstCrawled);
  assert.equal(oldMeta.sitemap_lastmod, '2020-01-01T00:00:00+09:00');
  assert.notEqual(oldMeta.crawl_datetime, firstCrawled);
  // A page asked and answered 304 carries no such mark.
  assert.equal(metaOf(secondBundle, `http/${host}/-/-/`).kept_without_request, undefined);
  // Search keeps the old page and has the fresh one's change.
  assert.deepEqual(await search('granite'), ['/old.html']);
  assert.deepEqual(await search('winter'), ['/fresh.html']);
  assert.deepEqual(await search('summer'), []);
  // The old page's links were read from its stored copy: /deeper.html was still crawled.
  assert.deepEqual(await search('seabed'), ['/deeper.html']);

  // A third run skips it again, still dated by the answer of the first run (not the second's).
  const third = await runOnce(settingId, 3);
  assert.ok(!requested().some(([path]) => path === '/old.html'));
  const thirdMeta = metaOf(await readTar(await download(third, 'crawl_objects.tar.gz')), oldFolder);
  assert.equal(thirdMeta.kept_without_request, 'sitemap_lastmod');
  assert.equal(thirdMeta.confirmed_datetime, firstCrawled);

  // With the setting 0, every page is asked again.
  const updated = await kumo.inject({
    method: 'PUT',
    url: `${GROUP}/service_settings/${settingId}`,
    headers: { ...ADMIN, 'content-type': 'application/json' },
    payload: settingBody(0),
  });
  assert.equal(updated.statusCode, 200, updated.body);
  const fourth = await runOnce(settingId, 4);
  assert.deepEqual(requested(), [
    ['/', true, 304],
    ['/daily.html', true, 304],
    ['/dated.html', true, 304],
    ['/deeper.html', true, 304],
    ['/fresh.html', true, 304],
    ['/moved-here.html', false, 200],
    ['/moved.html', true, 301],
    ['/old.html', true, 304],
  ]);
  assert.match(fourth.message ?? '', /unchanged: 6 page\(s\) answered 304 Not Modified/);
  assert.doesNotMatch(fourth.message ?? '', /not requested/);
  const fourthMeta = metaOf(await readTar(await download(fourth, 'crawl_objects.tar.gz')), oldFolder);
  assert.equal(fourthMeta.kept_without_request, undefined);
  assert.equal(fourthMeta.confirmed_datetime, undefined);
});
