/**
 * Storage failures while a run is written (a full disk, a folder that cannot be written): the run
 * ends 2040 with the reason in its history, its partial artifacts are removed, and the service
 * goes on serving and crawling for the other tenants. Simulated without root tricks: something
 * else is put where the run's artifact files go (tests may run as root, whom chmod does not stop).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  downloadArtifact,
  downloadPathOf,
  pollUntil,
  type InjectResult,
  type RunView,
  startTestService,
  type TestService,
  type TestTenant,
} from '../support/service-harness.js';

const HEALTH = '/api/v1.0/finder_service/health_check';

let site: Server;
let siteUrl: string;
let kumo: TestService;

/** /slow/N: pages N=0..2 linked in a chain, the first answering after 300 ms. */
before(async () => {
  site = createServer((req, res) => {
    const match = /^\/(\w+)\/(\d)$/.exec(req.url ?? '');
    if (!match || Number(match[2]) > 2) {
      res.writeHead(404).end();
      return;
    }
    const page = Number(match[2]);
    const next = page < 2 ? `<a href="/${match[1]}/${page + 1}">next</a>` : '';
    const answer = () =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<html><head><title>${match[1]} ${page}</title></head><body>${next}</body></html>`);
    setTimeout(answer, page === 0 ? 300 : 10);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // With a shared store, a run whose end could not be recorded keeps its slot until its lease
  // ends unrenewed (docs/design/scale-out.md, Run leases): a short one, so the last test's run
  // starts.
  kumo = await startTestService({ overrides: { runLeaseSeconds: 3 } });
});

after(async () => {
  await kumo?.close();
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

/**
 * Polls at 100 ms, not the harness's 25 ms: the instant crawl API limits requests per key, and
 * these polls are not what the tests are about.
 */
function poll<T>(
  what: string,
  tenant: TestTenant,
  url: string,
  pick: (json: InjectResult['json']) => T | undefined,
): Promise<T> {
  return pollUntil(
    what,
    async () => {
      const response = await kumo.inject({
        method: 'GET',
        url: `${tenant.crawlerPath}${url}`,
        headers: { 'x-mf-apikey': tenant.apiKey },
      });
      assert.equal(response.statusCode, 200, response.body);
      return pick(response.json);
    },
    15_000,
    100,
  );
}

const statusOf = (id: number, tenant: TestTenant, predicate: (status: RunView) => boolean) =>
  poll(`status of ${id}`, tenant, `/statuses?instant_crawl_request_ids=${id}`, (json) => {
    const status = json.crawl_status as RunView;
    return status.instant_crawl_request_id !== undefined && predicate(status) ? status : undefined;
  });

const finishedRun = (id: number, tenant: TestTenant): Promise<RunView & { message?: string }> =>
  poll(
    `request ${id} to finish`,
    tenant,
    `/histories?instant_crawl_request_id=${id}`,
    (json) => json.crawl_histories[0],
  );

/** The run id of a request, from its status, as soon as a worker has claimed it. */
async function runIdOf(requestId: number, tenant: TestTenant): Promise<number> {
  const status = await statusOf(requestId, tenant, (view) => view.crawl_execution_status_dtype_id === 2020);
  return status.id;
}

/** Another tenant, crawling while the failing run fails: it is served and finishes normally. */
async function otherTenantCrawls(other: TestTenant): Promise<number> {
  const id = await kumo.requestCrawl({ seed_urls: [`${siteUrl}/other/0`] }, other);
  const status = await kumo.inject({
    method: 'GET',
    url: `${other.crawlerPath}/statuses?instant_crawl_request_ids=${id}`,
    headers: { 'x-mf-apikey': other.apiKey },
  });
  assert.equal(status.statusCode, 200, status.body);
  return id;
}

async function assertFinishedNormally(id: number, tenant: TestTenant): Promise<void> {
  const history = await finishedRun(id, tenant);
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  assert.equal(history.crawled_url_count, 3);
  const csv = await downloadArtifact(kumo.url, tenant.apiKey, tenant, id, 'url_list.csv.gz');
  assert.equal(csv.toString().trim().split('\r\n').length, 4, 'a header and three rows');
}

async function assertTroubled(id: number, reason: RegExp): Promise<RunView & { message?: string }> {
  const history = await finishedRun(id, kumo.tenant);
  assert.equal(history.crawl_execution_status_dtype_id, 2040, JSON.stringify(history));
  assert.match(history.message ?? '', reason);
  assert.ok(!history.message?.includes(kumo.dataDir), `the message names no server path: ${history.message}`);
  assert.equal(history.crawl_url_list_path, '-');
  const download = await kumo.inject({
    method: 'GET',
    url: downloadPathOf(kumo.tenant, id, 'url_list.csv.gz'),
    headers: { 'x-mf-apikey': kumo.apiKey },
  });
  assert.equal(download.statusCode, 404, download.body);
  return history;
}

test('a file where the run artifact folder goes: the run ends 2040 with the reason, another tenant crawls on', async () => {
  const other = await kumo.createTenant('other-1');
  const id = await kumo.requestCrawl({ seed_urls: [`${siteUrl}/blocked/0`] });
  const runId = await runIdOf(id, kumo.tenant);
  // The seed answers after 300 ms, so the run is still crawling when its folder is taken.
  const folder = path.join(kumo.dataDir, 'artifacts', String(runId));
  await mkdir(path.dirname(folder), { recursive: true });
  await writeFile(folder, 'in the way');
  const otherId = await otherTenantCrawls(other);

  await assertTroubled(id, /^creating the artifact folder failed: (EEXIST|ENOTDIR)\b/);
  // Removed right after the run is recorded as ended.
  await pollUntil('the working data to be removed', () =>
    existsSync(path.join(kumo.dataDir, 'work', String(runId))) ? undefined : true,
  );
  await assertFinishedNormally(otherId, other);
  const health = await kumo.inject({ method: 'GET', url: HEALTH });
  assert.equal(health.statusCode, 200, health.body);
});

test('a bundle that cannot be written after the URL list was: 2040, nothing of the run is left', async () => {
  const other = await kumo.createTenant('other-2');
  const id = await kumo.requestCrawl({ seed_urls: [`${siteUrl}/bundle/0`] });
  const runId = await runIdOf(id, kumo.tenant);
  // The URL list is written, then the bundle's temporary file is a folder: EISDIR.
  const folder = path.join(kumo.dataDir, 'artifacts', String(runId));
  await mkdir(path.join(folder, 'crawl_objects.tar.gz.partial'), { recursive: true });
  const otherId = await otherTenantCrawls(other);

  await assertTroubled(id, /^writing crawl_objects\.tar\.gz failed: EISDIR\b/);
  await pollUntil('the partial artifacts to be removed', () => (existsSync(folder) ? undefined : true));
  await assertFinishedNormally(otherId, other);
});

test('when even the 2040 cannot be recorded (the record store fails), the service goes on', async () => {
  const other = await kumo.createTenant('other-3');
  const runs = kumo.service.store.runs;
  const finish = runs.finish.bind(runs);
  let failedRunId: number | undefined;
  let refused = 0;
  runs.finish = async (runId, ...rest) => {
    if (runId === failedRunId) {
      refused += 1;
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    }
    await finish(runId, ...rest);
  };
  try {
    const id = await kumo.requestCrawl({ seed_urls: [`${siteUrl}/full/0`] });
    failedRunId = await runIdOf(id, kumo.tenant);
    await writeFile(path.join(kumo.dataDir, 'artifacts', String(failedRunId)), 'in the way');
    const otherId = await otherTenantCrawls(other);
    await pollUntil('the ending to be refused', () => (refused > 0 ? true : undefined));
    await assertFinishedNormally(otherId, other);
    // Not recorded as ended: the run stays 2020 in the store and resumes at the next start.
    const status = await statusOf(id, kumo.tenant, () => true);
    assert.equal(status.crawl_execution_status_dtype_id, 2020);
    assert.equal(refused, 1);
  } finally {
    runs.finish = finish;
  }
});

test('the failed runs do not hold the service: the demo tenant crawls again', async () => {
  const id = await kumo.requestCrawl({ seed_urls: [`${siteUrl}/again/0`] });
  await assertFinishedNormally(id, kumo.tenant);
});
