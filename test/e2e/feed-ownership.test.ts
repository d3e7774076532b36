/**
 * One search service fed by several feeds: a manual indexed with `kumo index` from a crawl
 * folder (its own port of 127.0.0.1), a page indexed with `kumo index --run` from an instant
 * crawl, and two scheduled settings whose seeds are two sections of a second site. A complete
 * scheduled run removes only the pages its own setting put into the index and did not reach
 * this time; the others' pages stay searchable whatever their host or port.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { isActiveState, RunState } from '../../src/domain/index.js';
import { runCli } from '../support/cli-runner.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { docPath, type SearchAnswer } from '../support/search-fixtures.js';
import {
  makeTempDir,
  pollUntil,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
} from '../support/service-harness.js';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
const GROUP = '/admin/v1/contracts/1/servicegroups/1';

function page(title: string, body: string, links: readonly string[] = []): string {
  const anchors = links.map((href) => `<a href="${href}">${href}</a>`).join(' ');
  return `<!doctype html><html><head><title>${title}</title></head><body><p>${body}</p>${anchors}</body></html>`;
}

/** A site answering its map's pages with 200 and anything else with 404; the test edits the map. */
function startSite(pages: Map<string, string>): Promise<LocalServer> {
  const server = createServer((request, response) => {
    const body = pages.get(request.url ?? '/');
    if (body === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<title>not found</title>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  return listenLocally(server);
}

/** The manual: indexed once from a crawl folder, never crawled by a setting. */
const manualPages = new Map([
  ['/', page('Manual', 'postgresql manual contents', ['/select.html', '/vacuum.html'])],
  ['/select.html', page('SELECT', 'retrieve rows from a table')],
  ['/vacuum.html', page('VACUUM', 'garbage-collect and optionally analyze a database')],
]);
/** The second site: its home section and its blog section are crawled by two settings. */
const sitePages = new Map([
  ['/', page('Home', 'welcome to the harbour bakery', ['/bread.html', '/cakes.html'])],
  ['/bread.html', page('Bread', 'sourdough loaves baked every morning')],
  ['/cakes.html', page('Cakes', 'strawberry shortcake for birthdays')],
  ['/blog/', page('Blog', 'bakery journal', ['/blog/flour.html', '/blog/ovens.html'])],
  ['/blog/flour.html', page('Flour', 'stoneground rye from the mill')],
  ['/blog/ovens.html', page('Ovens', 'the woodfired oven was relit')],
  // Linked from nowhere: indexed from an instant crawl of this one page.
  ['/notice.html', page('Notice', 'closed for the holidays in january')],
]);

let manual: LocalServer;
let site: LocalServer;
let kumo: TestService;
let crawlFolder: string;
/** The settings whose seeds are the second site's home page and its blog (created by the tests). */
let home: number;
let blog: number;

before(async () => {
  manual = await startSite(manualPages);
  site = await startSite(sitePages);
  kumo = await startTestService();
  crawlFolder = await makeTempDir('kumo-manual-');
});

after(async () => {
  await kumo?.close();
  await manual?.close();
  await site?.close();
  if (crawlFolder !== undefined) await rm(crawlFolder, { recursive: true, force: true });
});

/** Paths (with the port's site marked) that a search of service 1 finds, sorted. */
async function search(q: string): Promise<string[]> {
  const response = await kumo.inject({
    method: 'GET',
    url: `${docPath()}/search?q=${encodeURIComponent(q)}&number_per_page=50`,
  });
  assert.equal(response.statusCode, 200, response.body);
  return (response.json as SearchAnswer).organic.docs
    .map((doc) => {
      const url = new URL(doc.url);
      const origin =
        url.origin === manual.baseUrl ? 'manual' : url.origin === site.baseUrl ? 'site' : url.origin;
      return `${origin}${url.pathname}`;
    })
    .sort();
}

async function createSetting(seed: string): Promise<number> {
  const created = await kumo.inject({
    method: 'POST',
    url: `${GROUP}/service_settings`,
    headers: ADMIN,
    payload: { setting: { seed_urls: [seed], robots_txt: false }, schedule: { interval: 0 }, service_id: 1 },
  });
  assert.equal(created.statusCode, 200, created.body);
  return created.json.service_setting_id as number;
}

/** Runs the setting now and waits for its end; returns the run's message. */
async function runToEnd(settingId: number): Promise<string> {
  const started = await kumo.inject({
    method: 'POST',
    url: `${GROUP}/service_settings/${settingId}/run`,
    headers: { authorization: ADMIN.authorization },
  });
  assert.equal(started.statusCode, 200, started.body);
  const runId = started.json.run_id as number;
  const run = await pollUntil(
    `run ${runId} of setting ${settingId} to end`,
    async () => {
      const record = await kumo.service.store.runs.getRun(runId);
      return record !== undefined && !isActiveState(record.state) ? record : undefined;
    },
    30_000,
  );
  assert.equal(run.state, RunState.stopped, run.message ?? '');
  return run.message ?? '';
}

/**
 * How many documents the run's index update removed, from its message. (Pages count as changed
 * or unchanged depending on whether two runs fall in the same second: without Last-Modified a
 * page's date is its crawl time.)
 */
function removedBy(message: string): number {
  const match = /search service 1: \d+ new, \d+ changed, \d+ unchanged, (\d+) removed/.exec(message);
  assert.ok(match, message);
  return Number(match[1]);
}

test('a scheduled run on another port of the same host leaves the pages kumo index put in', async () => {
  const folder = path.join(crawlFolder, 'crawl');
  const crawled = await runCli(['crawl', `${manual.baseUrl}/`, '--no-robots', '--out', folder], 60_000, {
    KUMO_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  assert.equal(crawled.code, 0, crawled.stderr);
  const indexed = await runCli(['index', '--service', '1', folder], 60_000, { KUMO_DATA_DIR: kumo.dataDir });
  assert.equal(indexed.code, 0, indexed.stderr);
  assert.match(indexed.stdout, /\(3 new, 0 changed, 0 unchanged, 0 skipped\)/);

  const requestId = await kumo.requestCrawl({
    seed_urls: [`${site.baseUrl}/notice.html`],
    depth_limit: 0,
    robots_txt: false,
  });
  assert.equal((await kumo.waitForFinished(requestId)).crawl_execution_status_dtype_id, 2030);
  const fromRun = await runCli(['index', '--service', '1', '--run', String(requestId)], 60_000, {
    KUMO_DATA_DIR: kumo.dataDir,
  });
  assert.equal(fromRun.code, 0, fromRun.stderr);
  assert.deepEqual(await search('holidays'), ['site/notice.html']);

  home = await createSetting(`${site.baseUrl}/`);
  const message = await runToEnd(home);
  assert.match(message, /search service 1: 3 new, 0 changed, 0 unchanged, 0 removed/);

  assert.deepEqual(await search('postgresql'), ['manual/']);
  assert.deepEqual(await search('rows'), ['manual/select.html']);
  assert.deepEqual(await search('garbage'), ['manual/vacuum.html']);
  assert.deepEqual(await search('holidays'), ['site/notice.html'], 'the instant run page stays');
  assert.deepEqual(await search('sourdough'), ['site/bread.html']);
  assert.deepEqual(await search('harbour'), ['site/']);
});

test('two settings feeding one service: each complete run removes only its own unreached pages', async () => {
  blog = await createSetting(`${site.baseUrl}/blog/`);
  assert.equal(removedBy(await runToEnd(blog)), 0);
  assert.deepEqual(await search('sourdough'), ['site/bread.html'], "the home setting's page stays");
  assert.deepEqual(await search('stoneground'), ['site/blog/flour.html']);

  // Each section stops linking one page; the pages themselves still answer 200.
  sitePages.set('/', page('Home', 'welcome to the harbour bakery', ['/bread.html']));
  sitePages.set('/blog/', page('Blog', 'bakery journal', ['/blog/flour.html']));

  assert.equal(removedBy(await runToEnd(blog)), 1);
  assert.deepEqual(await search('woodfired'), [], "the blog setting's unreached page is removed");
  assert.deepEqual(
    await search('strawberry'),
    ['site/cakes.html'],
    "the home setting's unreached page is not the blog's",
  );
  assert.deepEqual(await search('garbage'), ['manual/vacuum.html']);

  assert.equal(removedBy(await runToEnd(home)), 1);
  assert.deepEqual(await search('strawberry'), [], "now the home setting's own run removes it");
  assert.deepEqual(await search('stoneground'), ['site/blog/flour.html'], "the blog's page stays");
  assert.deepEqual(await search('sourdough'), ['site/bread.html']);
  assert.deepEqual(await search('holidays'), ['site/notice.html']);
  assert.deepEqual(await search('rows'), ['manual/select.html']);
  assert.deepEqual(await search('postgresql'), ['manual/']);
});

test("a deleted setting's pages stay searchable until a setting that reaches them no longer does", async () => {
  const deleted = await kumo.inject({
    method: 'DELETE',
    url: `${GROUP}/service_settings/${blog}`,
    headers: { authorization: ADMIN.authorization },
  });
  assert.equal(deleted.statusCode, 200, deleted.body);
  assert.equal(removedBy(await runToEnd(home)), 0);
  assert.deepEqual(await search('stoneground'), ['site/blog/flour.html'], 'no run removes them by itself');

  // A new setting for the blog takes its pages over, then follows the blog as the old one did.
  const again = await createSetting(`${site.baseUrl}/blog/`);
  assert.equal(removedBy(await runToEnd(again)), 0);
  sitePages.set('/blog/', page('Blog', 'bakery journal'));
  assert.equal(removedBy(await runToEnd(again)), 1);
  assert.deepEqual(await search('stoneground'), []);
  assert.deepEqual(await search('journal'), ['site/blog/']);
  assert.deepEqual(await search('sourdough'), ['site/bread.html']);
  assert.deepEqual(await search('rows'), ['manual/select.html']);
});
