/**
 * Webhook delivery end to end over real sockets and a real SQLite queue: signed requests, retries
 * with backoff, giving up and replay, timeouts that never hold up publishing, a queue that
 * survives reopening the store, and tenants that only hear about their own runs.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, test } from 'node:test';
import type {
  RunRecord,
  RecordStore,
  TenantRef,
  WebhookDeliveryStore,
  WebhookRecord,
} from '../../src/store/index.js';
import { openTestRecordStore } from '../support/test-store.js';
import { systemClock } from '../../src/util/index.js';
import { RunEventPublisher, runEventBody } from '../../src/webhooks/run-event-publisher.js';
import { WebhookDispatcher, type WebhookDispatcherOptions } from '../../src/webhooks/webhook-dispatcher.js';
import { signatureHeader, verifySignature } from '../../src/webhooks/webhook-signature.js';

const TIMEZONE = 'Asia/Tokyo';
const USER_AGENT = 'kumo-webhooks-test/1.0';
const SECRET = 'whsec_0123456789abcdef';
const API_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+09:00$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function waitFor(
  what: string,
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 2000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await predicate())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The signature checked independently of webhook-signature.ts. */
  signatureValid: boolean;
  atMs: number;
  answered: number | 'hang';
}

interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

type Answer = number | 'hang';

/** An HTTP endpoint on 127.0.0.1 answering each request as `answer` decides. */
async function startReceiver(
  answer: (request: Omit<ReceivedRequest, 'answered'>, index: number) => Answer,
  port = 0,
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        signatureValid: independentlyValid(req.headers['x-mf-signature'], body),
        atMs: performance.now(),
      };
      const answered = answer(received, requests.length);
      requests.push({ ...received, answered });
      if (answered === 'hang') return;
      if (answered >= 300 && answered < 400) res.setHeader('location', '/elsewhere');
      res.statusCode = answered;
      res.end(`answer ${answered}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actualPort = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${actualPort}/hook?token=abc`,
    port: actualPort,
    requests,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
  cleanups.push(() => receiver.close());
  return receiver;
}

function independentlyValid(header: string | string[] | undefined, body: string): boolean {
  const match = typeof header === 'string' ? /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) : null;
  if (!match) return false;
  const [, t, v1] = match;
  const fresh = Math.abs(Number(t) - Date.now() / 1000) < 5;
  return fresh && createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex') === v1;
}

interface Fixture {
  file: string;
  store: RecordStore;
  tenant: TenantRef;
  run: RunRecord;
}

async function openFixture(): Promise<Fixture> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-webhooks-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'service.db');
  const store = await openStore(file);
  const now = systemClock.nowMicros();
  const contract = await store.tenants.createContract('t', now);
  const group = await store.tenants.createServiceGroup(contract.id, 'g', now);
  const tenant = { contractId: contract.id, servicegroupId: group.id };
  const run = await createRun(store, tenant);
  return { file, store, tenant, run };
}

async function openStore(file: string): Promise<RecordStore> {
  const store = await openTestRecordStore(file);
  let open = true;
  cleanups.push(async () => {
    if (open) await store.close();
    open = false;
  });
  const close = store.close;
  store.close = async () => {
    if (open) await close();
    open = false;
  };
  return store;
}

async function createRun(store: RecordStore, tenant: TenantRef): Promise<RunRecord> {
  return store.runs.createInstantRun(
    tenant,
    { seed_urls: ['http://127.0.0.1:1/'] } as never,
    systemClock.nowMicros(),
  );
}

interface LogEntry {
  level: string;
  obj: object;
  msg: string;
}

function startDispatcher(
  store: RecordStore,
  options: Partial<WebhookDispatcherOptions> = {},
): { dispatcher: WebhookDispatcher; logs: LogEntry[] } {
  const logs: LogEntry[] = [];
  const log = (level: string) => (obj: object, msg: string) => logs.push({ level, obj, msg });
  const dispatcher = new WebhookDispatcher({
    deliveries: store.deliveries,
    webhooks: store.webhooks,
    clock: systemClock,
    backoffSeconds: [0.05, 0.05, 0.05],
    timeoutMs: 2000,
    userAgent: USER_AGENT,
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    pollIntervalMs: 1000,
    ...options,
  });
  cleanups.push(() => dispatcher.stop());
  dispatcher.start();
  return { dispatcher, logs };
}

function publisherFor(store: RecordStore, dispatcher?: WebhookDispatcher): RunEventPublisher {
  return new RunEventPublisher({
    webhooks: store.webhooks,
    deliveries: store.deliveries,
    clock: systemClock,
    timezone: TIMEZONE,
    ...(dispatcher ? { onQueued: () => dispatcher.nudge() } : {}),
  });
}

async function createWebhook(store: RecordStore, tenant: TenantRef, url: string): Promise<WebhookRecord> {
  return store.webhooks.create(tenant, url, SECRET, systemClock.nowMicros());
}

const settled = (store: RecordStore, webhookId: number, count: number) => async () => {
  const list = await store.deliveries.list(webhookId, 100);
  return list.length === count && list.every((delivery) => delivery.state !== 'pending');
};

test('signed deliveries are retried after 500s and delivered once per event', async () => {
  const { store, tenant, run } = await openFixture();
  const seen = new Map<string, number>();
  const receiver = await startReceiver((request) => {
    const id = String(request.headers['x-mf-delivery']);
    const count = (seen.get(id) ?? 0) + 1;
    seen.set(id, count);
    return count <= 2 ? 500 : 200;
  });
  const webhook = await createWebhook(store, tenant, receiver.url);
  const { dispatcher, logs } = startDispatcher(store);
  const publisher = publisherFor(store, dispatcher);

  assert.equal(await publisher.publish('crawl.started', run), 1);
  assert.equal(await publisher.publish('crawl.finished', run), 1);
  await waitFor('both deliveries to settle', settled(store, webhook.id, 2));

  assert.ok(receiver.requests.every((request) => request.signatureValid));
  const deliveries = await store.deliveries.list(webhook.id, 10);
  for (const event of ['crawl.started', 'crawl.finished']) {
    const delivery = deliveries.find((candidate) => candidate.event === event);
    assert.ok(delivery, event);
    assert.equal(delivery.state, 'delivered');
    assert.equal(delivery.attempts, 3);
    assert.equal(delivery.lastStatus, 200);
    assert.equal(delivery.lastError, '');
    assert.ok(delivery.deliveredMicros !== null);

    const requests = receiver.requests.filter((request) => request.headers['x-mf-event'] === event);
    assert.deepEqual(
      requests.map((request) => request.answered),
      [500, 500, 200],
    );
    // Each retry waits its backoff (50 ms) after the failed attempt.
    for (let i = 1; i < requests.length; i += 1) {
      assert.ok(requests[i]!.atMs - requests[i - 1]!.atMs >= 40, `retry ${i} of ${event} came too soon`);
    }
    for (const request of requests) {
      assert.equal(request.method, 'POST');
      assert.equal(request.path, '/hook?token=abc');
      assert.equal(request.headers['content-type'], 'application/json');
      assert.equal(request.headers['user-agent'], USER_AGENT);
      assert.equal(request.headers['x-mf-delivery'], delivery.eventId);
      assert.equal(request.body, delivery.body);
    }
    const body = JSON.parse(requests[2]!.body) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), [
      'contract_id',
      'crawl_history',
      'event',
      'event_id',
      'instant_crawl_request_id',
      'occurred_at',
      'servicegroup_id',
    ]);
    assert.equal(body.event, event);
    assert.equal(body.event_id, delivery.eventId);
    assert.match(String(body.event_id), UUID);
    assert.match(String(body.occurred_at), API_TIMESTAMP);
    assert.equal(body.contract_id, tenant.contractId);
    assert.equal(body.servicegroup_id, tenant.servicegroupId);
    assert.equal(body.instant_crawl_request_id, run.requestId);
    const history = body.crawl_history as Record<string, unknown>;
    assert.equal(history.id, run.id);
    assert.equal(history.instant_crawl_request_id, run.requestId);
    assert.equal(history.crawl_execution_status_dtype_id, run.state);
  }
  assert.notEqual(deliveries[0]!.eventId, deliveries[1]!.eventId);
  assert.equal(receiver.requests.length, 6);
  assert.equal(logs.filter((entry) => entry.msg === 'webhook delivered').length, 2);
  assert.ok(!JSON.stringify(logs).includes(SECRET), 'the secret stays out of the logs');
  assert.ok(!JSON.stringify(logs).includes('token=abc'), 'the URL query stays out of the logs');
});

test('a dead endpoint fails after the last retry and a replay delivers once it is up', async () => {
  const { store, tenant, run } = await openFixture();
  const placeholder = await startReceiver(() => 200);
  await placeholder.close();
  const webhook = await createWebhook(store, tenant, placeholder.url);
  // A short poll interval: the replay below is noticed by polling, as one made by the admin CLI is.
  const { dispatcher } = startDispatcher(store, { backoffSeconds: [0.02, 0.02], pollIntervalMs: 50 });

  assert.equal(await publisherFor(store, dispatcher).publish('crawl.finished', run), 1);
  await waitFor('the delivery to fail', settled(store, webhook.id, 1));
  const [failed] = await store.deliveries.list(webhook.id, 10);
  assert.ok(failed);
  assert.equal(failed.state, 'failed');
  assert.equal(failed.attempts, 3);
  assert.equal(failed.lastStatus, null);
  assert.match(failed.lastError, /^connect ECONNREFUSED 127\.0\.0\.1:\d+$/);

  const receiver = await startReceiver(() => 200, placeholder.port);
  assert.equal(await store.deliveries.replay(failed.id, systemClock.nowMicros()), true);
  await waitFor(
    'the replay to be delivered',
    async () => (await store.deliveries.get(failed.id))?.state === 'delivered',
  );
  const replayed = (await store.deliveries.get(failed.id))!;
  assert.equal(replayed.attempts, 4);
  assert.equal(replayed.lastStatus, 200);
  assert.equal(receiver.requests.length, 1);
  assert.equal(receiver.requests[0]!.headers['x-mf-delivery'], failed.eventId);
  assert.ok(receiver.requests[0]!.signatureValid);
});

test('a slow endpoint times out without holding up publishing', async () => {
  const { store, tenant, run } = await openFixture();
  const receiver = await startReceiver(() => 'hang');
  const webhook = await createWebhook(store, tenant, receiver.url);
  const { dispatcher } = startDispatcher(store, { backoffSeconds: [], timeoutMs: 200 });
  const publisher = publisherFor(store, dispatcher);

  await publisher.publish('crawl.started', run);
  await waitFor('the endpoint to hold the first request', () => receiver.requests.length === 1);
  const startedMs = performance.now();
  assert.equal(await publisher.publish('crawl.finished', run), 1);
  const publishMs = performance.now() - startedMs;
  assert.ok(publishMs < 50, `publish took ${publishMs.toFixed(1)} ms`);
  assert.equal(
    (await store.deliveries.list(webhook.id, 10)).find((d) => d.event === 'crawl.started')?.state,
    'pending',
  );

  await waitFor('both deliveries to time out', settled(store, webhook.id, 2));
  for (const delivery of await store.deliveries.list(webhook.id, 10)) {
    assert.equal(delivery.state, 'failed');
    assert.equal(delivery.attempts, 1);
    assert.equal(delivery.lastStatus, null);
    assert.equal(delivery.lastError, 'timeout after 0.2 s');
  }
  const stopStarted = performance.now();
  await dispatcher.stop();
  assert.ok(performance.now() - stopStarted < 500, 'stop does not wait on hanging endpoints');
});

test('redirects are not followed: a 3xx is a failed attempt', async () => {
  const { store, tenant, run } = await openFixture();
  const receiver = await startReceiver(() => 302);
  const webhook = await createWebhook(store, tenant, receiver.url);
  const { dispatcher } = startDispatcher(store, { backoffSeconds: [] });
  await publisherFor(store, dispatcher).publish('crawl.started', run);
  await waitFor('the delivery to fail', settled(store, webhook.id, 1));
  const [delivery] = await store.deliveries.list(webhook.id, 10);
  assert.equal(delivery?.state, 'failed');
  assert.equal(delivery.lastStatus, 302);
  assert.equal(delivery.lastError, 'HTTP 302');
  assert.deepEqual(
    receiver.requests.map((request) => request.path),
    ['/hook?token=abc'],
  );
});

test('queued deliveries survive closing the store and stopping a dispatcher mid-way', async () => {
  const fixture = await openFixture();
  let answers = 0;
  const receiver = await startReceiver(() => (++answers === 1 ? 500 : 200));
  const webhook = await createWebhook(fixture.store, fixture.tenant, receiver.url);

  // Queued while no dispatcher runs.
  assert.equal(await publisherFor(fixture.store).publish('crawl.started', fixture.run), 1);
  await fixture.store.close();

  // A dispatcher that sees one failed attempt, then stops before the retry.
  const second = await openStore(fixture.file);
  const { dispatcher } = startDispatcher(second, { backoffSeconds: [0.3] });
  await waitFor(
    'the first attempt',
    async () => (await second.deliveries.list(webhook.id, 1))[0]?.attempts === 1,
  );
  await dispatcher.stop();
  const [midway] = await second.deliveries.list(webhook.id, 1);
  assert.equal(midway?.state, 'pending');
  assert.equal(midway.lastStatus, 500);
  await second.close();

  const third = await openStore(fixture.file);
  startDispatcher(third, { backoffSeconds: [0.3] });
  await waitFor('the retry after the restart', settled(third, webhook.id, 1));
  const [delivery] = await third.deliveries.list(webhook.id, 10);
  assert.equal(delivery?.state, 'delivered');
  assert.equal(delivery.attempts, 2);
  assert.deepEqual(
    receiver.requests.map((request) => request.answered),
    [500, 200],
  );
  assert.ok(receiver.requests.every((request) => request.headers['x-mf-delivery'] === delivery.eventId));
});

test('a webhook of another tenant receives nothing', async () => {
  const { store, tenant, run } = await openFixture();
  const now = systemClock.nowMicros();
  const otherContract = await store.tenants.createContract('other', now);
  const otherGroup = await store.tenants.createServiceGroup(otherContract.id, 'g', now);
  const other = { contractId: otherContract.id, servicegroupId: otherGroup.id };
  // Same contract, other service group: still another tenant.
  const sibling = {
    contractId: tenant.contractId,
    servicegroupId: (await store.tenants.createServiceGroup(tenant.contractId, 's', now)).id,
  };
  const own = await startReceiver(() => 200);
  const foreign = await startReceiver(() => 200);
  const ownHook = await createWebhook(store, tenant, own.url);
  const otherHook = await createWebhook(store, other, foreign.url);
  const siblingHook = await createWebhook(store, sibling, foreign.url);
  const { dispatcher } = startDispatcher(store);

  assert.equal(await publisherFor(store, dispatcher).publish('crawl.started', run), 1);
  await waitFor('the own delivery', settled(store, ownHook.id, 1));
  assert.equal(own.requests.length, 1);
  assert.equal(foreign.requests.length, 0);
  assert.deepEqual(await store.deliveries.list(otherHook.id, 10), []);
  assert.deepEqual(await store.deliveries.list(siblingHook.id, 10), []);
});

test('a delivery whose webhook was deleted fails without a request', async () => {
  const { store, tenant, run } = await openFixture();
  const receiver = await startReceiver(() => 200);
  const webhook = await createWebhook(store, tenant, receiver.url);
  assert.equal(await publisherFor(store).publish('crawl.finished', run), 1);
  await store.webhooks.delete(webhook.id, systemClock.nowMicros());
  assert.equal(
    await publisherFor(store).publish('crawl.finished', run),
    0,
    'deleted webhooks get no new events',
  );

  startDispatcher(store);
  await waitFor('the delivery to fail', settled(store, webhook.id, 1));
  const [delivery] = await store.deliveries.list(webhook.id, 10);
  assert.equal(delivery?.state, 'failed');
  assert.equal(delivery.lastError, 'webhook deleted');
  assert.equal(receiver.requests.length, 0);
});

test('a host refused by the address policy gets no request', async () => {
  const { store, tenant, run } = await openFixture();
  const receiver = await startReceiver(() => 200);
  const webhook = await createWebhook(store, tenant, receiver.url);
  const { dispatcher } = startDispatcher(store, {
    backoffSeconds: [],
    addresses: { refusalOfHost: (host) => Promise.resolve(`${host} is a loopback address`) },
  });
  await publisherFor(store, dispatcher).publish('crawl.started', run);
  await waitFor('the delivery to fail', settled(store, webhook.id, 1));
  const [delivery] = await store.deliveries.list(webhook.id, 10);
  assert.equal(delivery?.state, 'failed');
  assert.equal(delivery.lastError, 'refused: 127.0.0.1 is a loopback address');
  assert.equal(receiver.requests.length, 0);
});

test('a store that cannot record an attempt is logged, not retried in a loop', async () => {
  const { store, tenant, run } = await openFixture();
  const receiver = await startReceiver(() => 200);
  const webhook = await createWebhook(store, tenant, receiver.url);
  const real = store.deliveries;
  const failing: WebhookDeliveryStore = {
    enqueue: (...args) => real.enqueue(...args),
    dueByContract: (...args) => real.dueByContract(...args),
    claim: (...args) => real.claim(...args),
    nextDueMicros: () => real.nextDueMicros(),
    recordAttempt: () => {
      throw new Error('disk I/O error');
    },
    get: (id) => real.get(id),
    list: (...args) => real.list(...args),
    replay: (...args) => real.replay(...args),
  };
  const { dispatcher, logs } = startDispatcher(store, { deliveries: failing, pollIntervalMs: 1000 });
  await publisherFor(store, dispatcher).publish('crawl.started', run);
  await waitFor('the error to be logged', () => logs.some((entry) => entry.level === 'error'));
  await new Promise((resolve) => setTimeout(resolve, 150));
  assert.equal(receiver.requests.length, 1, 'held back until the next poll');
  assert.equal((await store.deliveries.list(webhook.id, 1))[0]?.state, 'pending');
});

test('scheduled runs name their service setting instead of a request', () => {
  const run = {
    id: 9,
    contractId: 1,
    servicegroupId: 2,
    requestId: 0,
    state: 2030,
    isCancelRequest: false,
    createdMicros: 1_700_000_000_000_000,
    requestReceivedMicros: 1_700_000_000_000_000,
    updatedMicros: 1_700_000_000_000_000,
    startMicros: 1_700_000_000_000_000,
    endMicros: 1_700_000_060_000_000,
    crawledCount: 3,
    totalCount: 3,
    artifacts: [],
    artifactsDeletedMicros: null,
    message: '',
    messageParts: [],
    setting: { seed_urls: ['http://127.0.0.1:1/'] } as never,
    serviceSettingId: 7,
    downloadKey: 'key',
    trigger: 'schedule',
    endReason: 'completed',
  } satisfies RunRecord;
  const body = runEventBody({
    event: 'crawl.finished',
    eventId: 'e-1',
    occurredMicros: 1_700_000_060_123_456,
    run,
    timezone: TIMEZONE,
  });
  assert.equal(body.service_setting_id, 7);
  assert.ok(!('instant_crawl_request_id' in body));
  assert.equal(body.occurred_at, '2023-11-15T07:14:20.123456+09:00');
  assert.equal(body.crawl_history.id, 9);
  assert.ok(!('instant_crawl_request_id' in body.crawl_history));
});

test('signatureHeader signs "<t>.<body>" and verifySignature rejects tampering and stale times', () => {
  const body = '{"event":"crawl.started","event_id":"abc"}';
  const t = 1_700_000_000;
  const expected = createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex');
  const header = signatureHeader(SECRET, body, t);
  assert.equal(header, `t=${t},v1=${expected}`);

  assert.equal(verifySignature(header, SECRET, body, t), true);
  assert.equal(verifySignature(header, SECRET, body, t + 300), true);
  assert.equal(verifySignature(header, SECRET, `${body} `, t), false, 'tampered body');
  assert.equal(verifySignature(header, 'whsec_other', body, t), false, 'wrong secret');
  assert.equal(verifySignature(header, SECRET, body, t + 301), false, 'stale t');
  assert.equal(verifySignature(header, SECRET, body, t - 301), false, 't from the future');
  assert.equal(verifySignature(header, SECRET, body, t + 30, 10), false, 'custom tolerance');
  assert.equal(
    verifySignature(header.replace(`t=${t}`, `t=${t + 1}`), SECRET, body, t),
    false,
    'the time is signed too',
  );
  assert.equal(verifySignature(undefined, SECRET, body, t), false);
  assert.equal(verifySignature('', SECRET, body, t), false);
  assert.equal(verifySignature(`t=${t}`, SECRET, body, t), false);
  assert.equal(verifySignature(`v1=${expected}`, SECRET, body, t), false);
  assert.equal(verifySignature(`t=${t},v1=${expected.slice(2)}`, SECRET, body, t), false);
  // A second v1 (another secret during rotation) does not hide a matching one.
  assert.equal(verifySignature(`t=${t},v1=${'0'.repeat(64)},v1=${expected}`, SECRET, body, t), true);
});
