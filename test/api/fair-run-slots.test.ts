/**
 * Run slots are shared fairly (docs/reference/run-states.md, Waiting): with two slots a contract
 * holds at most one (KUMO_MAX_RUNNING_PER_CONTRACT defaults to half the slots), so another
 * contract's run starts while the first contract's long runs go on; the contract that has not had
 * a turn goes next; a waiting run's status says why it waits.
 *
 * The runs are kept running by their sites: the seed links to a second page and download_delay 60
 * holds it back. Each contract crawls its own site on its own loopback address.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { rm } from 'node:fs/promises';
import { type LocalServer, listenLocally } from '../support/local-server.js';
import {
  type RunView,
  makeTempDir,
  startTestService,
  type TestService,
  type TestTenant,
} from '../support/service-harness.js';

const RUNNING = 2020;
const PENDING = 2010;

/** Two linked pages; a crawl of them with download_delay 60 runs for a minute. */
function slowSite(host: string): Promise<LocalServer> {
  const server = createServer((request, response) => {
    if (request.url === '/start.html') {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>start</title><a href="/next.html">next</a>');
      return;
    }
    if (request.url === '/next.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<title>next</title>');
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  return listenLocally(server, host);
}

const longCrawl = (site: LocalServer) => ({
  seed_urls: [`${site.baseUrl}/start.html`],
  depth_limit: 1,
  download_delay: 60,
});

async function statusesOf(kumo: TestService, tenant: TestTenant): Promise<RunView[]> {
  const response = await kumo.inject({
    method: 'GET',
    url: `${tenant.crawlerPath}/statuses`,
    headers: { 'x-mf-apikey': tenant.apiKey },
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json.crawl_statuses as RunView[];
}

async function statusOf(kumo: TestService, tenant: TestTenant, requestId: number): Promise<RunView> {
  const status = (await statusesOf(kumo, tenant)).find((one) => one.instant_crawl_request_id === requestId);
  assert.ok(status, `request ${requestId} is pending or running`);
  return status;
}

const running = (status: RunView) => status.crawl_execution_status_dtype_id === RUNNING;

describe('two run slots, default share per contract', () => {
  let kumo: TestService;
  const sites: LocalServer[] = [];

  before(async () => {
    kumo = await startTestService({ overrides: { workerConcurrency: 2, fetchTimeoutSeconds: 30 } });
    for (const host of ['127.0.0.1', '127.0.0.2', '127.0.0.3']) sites.push(await slowSite(host));
  });

  after(async () => {
    await kumo?.close();
    await Promise.all(sites.map((site) => site.close()));
  });

  test("a second contract's run starts while the first one's long runs go on, and waiting runs say why", async () => {
    const [siteA, siteB, siteC] = sites as [LocalServer, LocalServer, LocalServer];
    const a = await kumo.createTenant('a');
    const b = await kumo.createTenant('b');
    const c = await kumo.createTenant('c');

    const a1 = await kumo.requestCrawl(longCrawl(siteA), a);
    await kumo.waitForStatus(a1, running, { tenant: a });
    const a2 = await kumo.requestCrawl(longCrawl(siteA), a);
    const b1 = await kumo.requestCrawl(longCrawl(siteB), b);

    // Oldest first would have given the second slot to a2 for the next minute.
    await kumo.waitForStatus(b1, running, { tenant: b });
    const [first, second] = await statusesOf(kumo, a);
    assert.equal(first?.instant_crawl_request_id, a1);
    assert.equal(first.crawl_execution_status_dtype_id, RUNNING);
    assert.equal(first.message, undefined, 'a running run has no waiting reason');
    assert.equal(second?.instant_crawl_request_id, a2);
    assert.equal(second.crawl_execution_status_dtype_id, PENDING);
    assert.equal(second.message, 'waiting: this contract already has 1 run running (limit 1)');

    const c1 = await kumo.requestCrawl(longCrawl(siteC), c);
    const waitingC = await statusOf(kumo, c, c1);
    assert.equal(waitingC.crawl_execution_status_dtype_id, PENDING);
    assert.equal(waitingC.message, 'waiting: 2 of 2 run slots busy');

    // a1 ends: contract c, which has not had a turn, goes before the older a2.
    const cancel = await kumo.inject({
      method: 'PUT',
      url: `${a.crawlerPath}/statuses/requests/${a1}/cancel`,
      headers: { 'x-mf-apikey': a.apiKey },
    });
    assert.equal(cancel.json.status, 'OK', cancel.body);
    await kumo.waitForFinished(a1, { tenant: a });
    await kumo.waitForStatus(c1, running, { tenant: c });
    const stillWaiting = await statusOf(kumo, a, a2);
    assert.equal(stillWaiting.crawl_execution_status_dtype_id, PENDING);
    assert.equal(stillWaiting.message, 'waiting: 2 of 2 run slots busy');
    assert.equal((await statusOf(kumo, b, b1)).crawl_execution_status_dtype_id, RUNNING);
  });
});

describe('KUMO_MAX_RUNNING_PER_CONTRACT 0: no share per contract', () => {
  let kumo: TestService;
  let site: LocalServer;

  before(async () => {
    kumo = await startTestService({
      overrides: { workerConcurrency: 2, maxRunningPerContract: 0, fetchTimeoutSeconds: 30 },
    });
    site = await slowSite('127.0.0.1');
  });

  after(async () => {
    await kumo?.close();
    await site?.close();
  });

  test('one contract may take every slot; the next run waits for a slot', async () => {
    const a = await kumo.createTenant('a');
    const b = await kumo.createTenant('b');
    const a1 = await kumo.requestCrawl(longCrawl(site), a);
    const a2 = await kumo.requestCrawl(longCrawl(site), a);
    await kumo.waitForStatus(a1, running, { tenant: a });
    await kumo.waitForStatus(a2, running, { tenant: a });
    const b1 = await kumo.requestCrawl(longCrawl(site), b);
    const waiting = await statusOf(kumo, b, b1);
    assert.equal(waiting.crawl_execution_status_dtype_id, PENDING);
    assert.equal(waiting.message, 'waiting: 2 of 2 run slots busy');
  });
});

describe('one run slot, one contract with two service groups', () => {
  let kumo: TestService;
  let site: LocalServer;

  before(async () => {
    kumo = await startTestService({ overrides: { workerConcurrency: 1, fetchTimeoutSeconds: 30 } });
    site = await slowSite('127.0.0.1');
  });

  after(async () => {
    await kumo?.close();
    await site?.close();
  });

  test('the service groups take turns: the other group goes before the older run of the group just served', async () => {
    const first = await kumo.createTenant('a');
    const second = await kumo.createServiceGroup(first, 'a-2');
    const first1 = await kumo.requestCrawl(longCrawl(site), first);
    await kumo.waitForStatus(first1, running, { tenant: first });
    const first2 = await kumo.requestCrawl(longCrawl(site), first);
    const second1 = await kumo.requestCrawl(longCrawl(site), second);
    const limited = 'waiting: this contract already has 1 run running (limit 1)';
    assert.equal((await statusOf(kumo, first, first2)).message, limited);
    assert.equal((await statusOf(kumo, second, second1)).message, limited);

    await kumo.inject({
      method: 'PUT',
      url: `${first.crawlerPath}/statuses/requests/${first1}/cancel`,
      headers: { 'x-mf-apikey': first.apiKey },
    });
    await kumo.waitForStatus(second1, running, { tenant: second });
    const waiting = await statusOf(kumo, first, first2);
    assert.equal(waiting.crawl_execution_status_dtype_id, PENDING);
    assert.equal(waiting.message, limited);
  });
});

describe('runs resumed after a restart hold their slots', () => {
  let dataDir: string;
  let kumo: TestService | undefined;
  let site: LocalServer;

  before(async () => {
    dataDir = await makeTempDir();
    site = await slowSite('127.0.0.1');
  });

  after(async () => {
    await kumo?.close();
    await site?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  test("a contract's resumed runs count toward its share", async () => {
    const overrides = { workerConcurrency: 3, fetchTimeoutSeconds: 30 };
    // First process: no share, so contract a runs two crawls; it stops with both running.
    kumo = await startTestService({ dataDir, overrides: { ...overrides, maxRunningPerContract: 0 } });
    const a = await kumo.createTenant('a');
    const b = await kumo.createTenant('b');
    const a1 = await kumo.requestCrawl(longCrawl(site), a);
    const a2 = await kumo.requestCrawl(longCrawl(site), a);
    await kumo.waitForStatus(a1, running, { tenant: a });
    await kumo.waitForStatus(a2, running, { tenant: a });
    await kumo.close();

    // Second process: three slots, a contract's share is 2 (the default), and a has 2 resumed.
    kumo = await startTestService({ dataDir, overrides });
    const a3 = await kumo.requestCrawl(longCrawl(site), a);
    const b1 = await kumo.requestCrawl(longCrawl(site), b);
    await kumo.waitForStatus(b1, running, { tenant: b });
    const waiting = await statusOf(kumo, a, a3);
    assert.equal(waiting.crawl_execution_status_dtype_id, PENDING);
    assert.equal(waiting.message, 'waiting: this contract already has 2 runs running (limit 2)');
    assert.equal((await statusOf(kumo, a, a1)).crawl_execution_status_dtype_id, RUNNING);
  });
});
