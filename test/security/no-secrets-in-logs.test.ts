/**
 * Nothing secret reaches a log line. Once through buildApp's logger option with a stream the
 * test reads (whatever a handler logs: headers, a request body, a setting), once end to end: a
 * `kumo serve` child process logging at trace level through a crawl with Basic credentials, a
 * signed webhook delivery and management calls, with every secret checked against its output.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { after, test } from 'node:test';
import { buildApp, DownloadSigner } from '../../src/api/index.js';
import { LocalArtifactStore } from '../../src/blob/index.js';
import { REDACTED } from '../../src/domain/index.js';
import {
  apiKeyPrefix,
  hashApiKey,
  InstantCrawlService,
  Management,
  ScheduledCrawlService,
  TenantWork,
} from '../../src/usecases/index.js';
import { SearchServices } from '../../src/search/index.js';
import { openSqliteRecordStore } from '../../src/store/sqlite/index.js';
import { systemClock } from '../../src/util/index.js';
import { verifySignature } from '../../src/webhooks/index.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { startServeProcess } from '../support/serve-process.js';
import { freePort, makeTempDir, pollUntil } from '../support/service-harness.js';
import { createServiceLogger } from '../../src/observability/service-logger.js';
import {
  COOKIE_VALUE,
  SITE_PASSWORD,
  SITE_SECRETS,
  SITE_USER,
  startBasicAuthSite,
} from './basic-auth-site.js';

const ADMIN_TOKEN = 'kumo_admin_log-test-token-6d1e';
const API_KEY = 'kumo_log-test-api-key-0b7c44';
const WRONG_TOKEN = 'a-wrong-guess-token-81f2';
const WEBHOOK_SECRET = 'webhook-secret-log-test-4c2d';
const SECRET_KEY = 'c0ffee'.repeat(10) + 'c0ff';
const REQUEST_CREDENTIALS = [ADMIN_TOKEN, API_KEY, WRONG_TOKEN, `session=${COOKIE_VALUE}`];

const cleanups: (() => Promise<unknown> | unknown)[] = [];
after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

test('the service logger redacts credentials and setting passwords in anything the app logs through it', async () => {
  const dataDir = await makeTempDir('kumo-log-app-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const store = openSqliteRecordStore(path.join(dataDir, 'kumo.db'));
  cleanups.push(() => store.close());
  const now = systemClock.nowMicros();
  await store.tenants.createContract('c', now, 1);
  await store.tenants.createServiceGroup(1, 'g', now, 1);
  const tenant = { contractId: 1, servicegroupId: 1 };
  await store.apiKeys.insert(tenant, hashApiKey(API_KEY), apiKeyPrefix(API_KEY), 'k', now);
  const dispatcher = { notifyPending: () => {}, cancelRun: () => {}, runEnded: () => {} };
  const searchServices = new SearchServices(store.searchServices, dataDir, systemClock);
  cleanups.push(() => searchServices.close());
  const scheduledCrawl = new ScheduledCrawlService(store, dispatcher, systemClock, 'UTC');
  const lines: string[] = [];
  const tenantWork = new TenantWork();
  cleanups.push(() => tenantWork.close());
  const app = await buildApp({
    store,
    instantCrawl: new InstantCrawlService(store.runs, dispatcher, systemClock, tenantWork),
    tenantWork,
    scheduledCrawl,
    searchServices,
    management: new Management({ store, scheduledCrawl, tenantWork, clock: systemClock, timezone: 'UTC' }),
    adminToken: ADMIN_TOKEN,
    artifacts: new LocalArtifactStore(path.join(dataDir, 'artifacts')),
    signer: new DownloadSigner('signing-secret'),
    clock: systemClock,
    settings: {
      publicUrl: 'http://127.0.0.1',
      timezone: 'UTC',
      instantCrawlerBasePath: '/api/v1',
      crawlerBasePath: '/api/v1.0/crawler_service',
      finderBasePath: '/api/v1.0/finder_service',
    },
    logger: createServiceLogger({
      level: 'trace',
      stream: { write: (line: string) => void lines.push(line) },
    }),
  });
  cleanups.push(() => app.close());
  // A handler that logs everything it has: the redaction holds whoever logs what.
  app.post('/test/log-everything', async (request) => {
    const body = request.body as { setting: unknown };
    request.log.info(
      {
        headers: request.headers,
        req: { headers: request.headers },
        body,
        setting: body.setting,
        run: { id: 1, setting: body.setting },
        webhook: { url: 'https://example.com/', secret: WEBHOOK_SECRET },
      },
      'logging everything',
    );
    return { ok: true };
  });
  const setting = {
    seed_urls: ['http://127.0.0.1:9/'],
    authorizations: [{ type: 'BASIC', user: SITE_USER, password: SITE_PASSWORD }],
  };
  const credentials = {
    authorization: `Bearer ${ADMIN_TOKEN}`,
    'x-mf-apikey': API_KEY,
    cookie: `session=${COOKIE_VALUE}`,
    'proxy-authorization': `Basic ${Buffer.from(`${SITE_USER}:${SITE_PASSWORD}`).toString('base64')}`,
  };
  const logged = await app.inject({
    method: 'POST',
    url: '/test/log-everything',
    headers: credentials,
    payload: { setting },
  });
  assert.equal(logged.statusCode, 200, logged.body);
  const calls = [
    {
      method: 'POST' as const,
      url: '/api/v1/contracts/1/servicegroups/1/crawler/request',
      payload: { setting },
    },
    {
      method: 'POST' as const,
      url: '/admin/v1/contracts/1/servicegroups/1/service_settings',
      payload: { setting, schedule: { interval: 0 } },
    },
    {
      method: 'GET' as const,
      url: '/admin/v1/contracts',
      headers: { authorization: `Bearer ${WRONG_TOKEN}` },
    },
  ];
  for (const call of calls) {
    const response = await app.inject({ headers: credentials, ...call });
    assert.ok(response.statusCode < 500, response.body);
  }

  assert.ok(lines.length > 6, 'requests were logged');
  const everything = lines.join('');
  for (const secret of [...REQUEST_CREDENTIALS, ...SITE_SECRETS, WEBHOOK_SECRET]) {
    assert.ok(!everything.includes(secret), `the logs contain ${secret}`);
  }
  const record = lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((entry) => entry.msg === 'logging everything');
  assert.ok(record, 'the handler logged');
  const headers = record.headers as Record<string, string>;
  assert.equal(headers.authorization, REDACTED);
  assert.equal(headers['x-mf-apikey'], REDACTED);
  assert.equal(headers.cookie, REDACTED);
  assert.equal(headers['proxy-authorization'], REDACTED);
  assert.equal(headers['content-type'], 'application/json', 'other headers stay');
  assert.deepEqual((record.setting as typeof setting).authorizations, [
    { type: 'BASIC', user: SITE_USER, password: REDACTED },
  ]);
});

test('kumo serve logs no secret through crawls with credentials, webhooks and management calls', async () => {
  const site = await startBasicAuthSite();
  cleanups.push(() => site.close());
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const dataDir = await makeTempDir('kumo-log-serve-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const serve = await startServeProcess({
    dataDir,
    port,
    env: {
      KUMO_BOOTSTRAP_API_KEY: API_KEY,
      KUMO_ADMIN_TOKEN: ADMIN_TOKEN,
      KUMO_SECRET_KEY: SECRET_KEY,
      KUMO_LOG_LEVEL: 'trace',
      KUMO_RETRY_BASE_DELAY_MS: '50',
      KUMO_WEBHOOK_BACKOFF_SECONDS: '0.1,0.1',
    },
  });
  cleanups.push(() => serve.stop('SIGTERM'));

  const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const call = async (method: string, url: string, headers: Record<string, string>, body?: unknown) => {
    const response = await fetch(`${serve.url}${url}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  const group = '/admin/v1/contracts/1/servicegroups/1';
  const hook = await call('POST', `${group}/webhooks`, adminHeaders, {
    url: `${receiver.baseUrl}/hook`,
    secret: WEBHOOK_SECRET,
  });
  assert.equal(hook.status, 200, JSON.stringify(hook.json));
  const setting = {
    seed_urls: [`${site.baseUrl}/`],
    depth_limit: 2,
    robots_txt: false,
    authorizations: [{ type: 'BASIC', user: SITE_USER, password: SITE_PASSWORD }],
  };
  const created = await call('POST', `${group}/service_settings`, adminHeaders, {
    setting,
    schedule: { interval: 0 },
  });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const settingId = created.json.service_setting_id as number;
  const shown = await call('GET', `${group}/service_settings/${settingId}`, adminHeaders);
  const put = await call('PUT', `${group}/service_settings/${settingId}`, adminHeaders, {
    setting: (shown.json.service_setting as { setting: unknown }).setting,
    schedule: { interval: 0 },
  });
  assert.equal(put.status, 200, JSON.stringify(put.json));
  const ranNow = await call('POST', `${group}/service_settings/${settingId}/run`, {
    authorization: `Bearer ${ADMIN_TOKEN}`,
  });
  assert.equal(ranNow.status, 200, JSON.stringify(ranNow.json));
  const wrong = await call('GET', '/admin/v1/contracts', { authorization: `Bearer ${WRONG_TOKEN}` });
  assert.equal(wrong.status, 401);

  const crawler = '/api/v1/contracts/1/servicegroups/1/crawler';
  const keyHeaders = {
    'x-mf-apikey': API_KEY,
    'content-type': 'application/json',
    cookie: `session=${COOKIE_VALUE}`,
  };
  const requested = await call('POST', `${crawler}/request`, keyHeaders, { setting });
  assert.equal(requested.status, 200, JSON.stringify(requested.json));
  const requestId = requested.json.instant_crawl_request_id as number;
  await pollUntil(
    'the instant run to finish',
    async () => {
      const histories = await call(
        'GET',
        `${crawler}/histories?instant_crawl_request_id=${requestId}`,
        keyHeaders,
      );
      return (histories.json.crawl_histories as unknown[]).length > 0 ? true : undefined;
    },
    20_000,
  );
  // Both runs ended: the webhook got crawl.finished twice, signed with the stored (decrypted) secret.
  await pollUntil(
    'crawl.finished deliveries',
    () =>
      receiver.received.filter((delivery) => delivery.event === 'crawl.finished').length >= 2
        ? true
        : undefined,
    20_000,
  );
  for (const delivery of receiver.received) {
    assert.ok(
      verifySignature(delivery.signature, WEBHOOK_SECRET, delivery.body, Math.floor(Date.now() / 1000)),
      'deliveries are signed with the webhook secret',
    );
  }
  for (const page of ['/', '/linked.html', '/plain.html']) assert.ok(site.authorized.includes(page), page);
  await serve.stop('SIGTERM');

  const output = serve.output();
  const logLines = output.split('\n').filter((line) => line.startsWith('{'));
  assert.ok(logLines.length > 20, `trace logging captured (${logLines.length} lines)`);
  assert.ok(
    logLines.some((line) => line.includes('"run finished"')),
    'the runs logged',
  );
  assert.ok(
    logLines.some((line) => line.includes('webhook delivered')),
    'the webhooks logged',
  );
  for (const secret of [
    ADMIN_TOKEN,
    WRONG_TOKEN,
    `session=${COOKIE_VALUE}`,
    WEBHOOK_SECRET,
    SECRET_KEY,
    ...SITE_SECRETS,
  ]) {
    assert.ok(!output.includes(secret), `kumo serve printed ${secret}`);
  }
  // `kumo serve` prints the demo key once at the first start, on purpose; no log line has it.
  assert.ok(!logLines.join('\n').includes(API_KEY), 'no log line has the API key');

  // KUMO_SECRET_KEY was used: no key file was generated, and the store holds no plain secret.
  assert.ok(!existsSync(path.join(dataDir, 'secret-key')));
  const stored = readFileSync(path.join(dataDir, 'kumo.db')).toString('latin1');
  for (const secret of [WEBHOOK_SECRET, SITE_PASSWORD]) assert.ok(!stored.includes(secret), secret);
});

interface Receiver extends LocalServer {
  received: { event: string; signature: string | undefined; body: string }[];
}

async function startReceiver(): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        event: String(request.headers['x-mf-event']),
        signature: request.headers['x-mf-signature'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(204).end();
    });
  });
  return { ...(await listenLocally(server)), received };
}
