/**
 * Webhook deliveries are shared fairly between contracts (docs/reference/webhooks.md, Delivery
 * and retries): a contract whose receiver never answers, with a backlog of 40 deliveries to it,
 * does not hold up another contract's ping, and an attempt that cannot connect ends at the
 * connect timeout rather than at the attempt's total timeout. Through `kumo serve`'s dispatcher,
 * its admin API and real receivers on loopback sockets.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import {
  type InjectResult,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
  type TestTenant,
} from '../support/service-harness.js';

const ADMIN = '/admin/v1';
const SECRET = 'webhook-secret-0123456789';
/** How long another contract's ping may take to be delivered while the slow contract's backlog waits. */
const PROMPT_DELIVERY_MS = 2000;

function admin(kumo: TestService, method: 'GET' | 'POST', url: string, body?: object): Promise<InjectResult> {
  return kumo.inject({
    method,
    url: `${ADMIN}${url}`,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    ...(body !== undefined && { payload: body }),
  });
}

const hooksOf = (tenant: TestTenant) =>
  `/contracts/${tenant.contractId}/servicegroups/${tenant.servicegroupId}/webhooks`;

async function createWebhook(kumo: TestService, tenant: TestTenant, url: string): Promise<number> {
  const created = await admin(kumo, 'POST', hooksOf(tenant), { url, secret: SECRET });
  assert.equal(created.statusCode, 200, created.body);
  return created.json.webhook_id as number;
}

async function ping(kumo: TestService, tenant: TestTenant, webhookId: number): Promise<number> {
  const pinged = await admin(kumo, 'POST', `${hooksOf(tenant)}/${webhookId}/ping`);
  assert.equal(pinged.statusCode, 200, pinged.body);
  return pinged.json.delivery.id as number;
}

interface DeliveryView {
  id: number;
  state: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string;
  last_duration_ms: number | null;
}

async function deliveryOf(
  kumo: TestService,
  tenant: TestTenant,
  webhookId: number,
  deliveryId: number,
): Promise<DeliveryView | undefined> {
  const listed = await admin(kumo, 'GET', `${hooksOf(tenant)}/${webhookId}/deliveries?limit=200`);
  assert.equal(listed.statusCode, 200, listed.body);
  return (listed.json.deliveries as DeliveryView[]).find((delivery) => delivery.id === deliveryId);
}

/** Polls the delivery until `done` holds or `withinMs` has passed; returns it and when it was seen so. */
async function watchDelivery(
  kumo: TestService,
  tenant: TestTenant,
  webhookId: number,
  deliveryId: number,
  done: (delivery: DeliveryView) => boolean,
  withinMs: number,
): Promise<{ delivery: DeliveryView | undefined; elapsedMs: number }> {
  const started = performance.now();
  for (;;) {
    const delivery = await deliveryOf(kumo, tenant, webhookId, deliveryId);
    const elapsedMs = performance.now() - started;
    if ((delivery !== undefined && done(delivery)) || elapsedMs > withinMs) return { delivery, elapsedMs };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface SilentReceiver extends LocalServer {
  /** Requests received so far. */
  requests(): number;
  /** The most requests it held open at once. */
  mostOpen(): number;
}

/** A receiver that reads each request and never answers it. */
async function silentReceiver(): Promise<SilentReceiver> {
  let requests = 0;
  let open = 0;
  let mostOpen = 0;
  const server = createServer((request, response) => {
    requests += 1;
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    response.on('close', () => (open -= 1));
    request.resume();
  });
  return { ...(await listenLocally(server)), requests: () => requests, mostOpen: () => mostOpen };
}

/** A receiver answering 204 at once. */
function promptReceiver(): Promise<LocalServer> {
  return listenLocally(
    createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(204).end());
    }),
  );
}

describe('a contract whose receiver never answers', () => {
  let kumo: TestService;
  const receivers: LocalServer[] = [];

  before(async () => {
    // A total timeout long enough that, sent in arrival order, the backlog would hold the ping for
    // ten rounds of it (40 deliveries over 4 slots).
    kumo = await startTestService({ env: { KUMO_WEBHOOK_TIMEOUT_SECONDS: '3' } });
  });

  after(async () => {
    await kumo?.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  test("does not hold up another contract's ping", async () => {
    const silent = await silentReceiver();
    const prompt = await promptReceiver();
    receivers.push(silent, prompt);
    const slow = await kumo.createTenant('slow');
    const other = await kumo.createTenant('other');
    const slowHook = await createWebhook(kumo, slow, `${silent.baseUrl}/hook`);
    const otherHook = await createWebhook(kumo, other, `${prompt.baseUrl}/hook`);

    // The slow contract's backlog: a few pings and the events of earlier runs, 40 deliveries in all.
    for (let i = 0; i < 5; i += 1) await ping(kumo, slow, slowHook);
    const now = Date.now() * 1000;
    for (let i = 0; i < 35; i += 1)
      await kumo.service.store.deliveries.enqueue(slowHook, 'crawl.finished', `event-${i}`, '{}', now);
    // The dispatcher has started on the backlog.
    const deadline = performance.now() + 2000;
    while (silent.requests() === 0 && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(silent.requests() > 0, 'the slow receiver is being sent the backlog');

    const pinged = await ping(kumo, other, otherHook);
    const { delivery, elapsedMs } = await watchDelivery(
      kumo,
      other,
      otherHook,
      pinged,
      (seen) => seen.state === 'delivered',
      PROMPT_DELIVERY_MS,
    );
    console.log(`another contract's ping delivered after ${Math.round(elapsedMs)} ms`);
    assert.equal(delivery?.state, 'delivered', `the ping is ${JSON.stringify(delivery)}`);
    assert.equal(delivery.last_status_code, 204);
    assert.ok(elapsedMs < PROMPT_DELIVERY_MS, `delivered after ${Math.round(elapsedMs)} ms`);
    // The slow contract holds at most its share of the attempts at once.
    assert.ok(silent.mostOpen() <= 2, `${silent.mostOpen()} attempts to the silent receiver at once`);
  });
});

/**
 * A listener whose process never accepts: after its backlog is full, the kernel drops further
 * connection requests, so a connect hangs. Its event loop is blocked, so nothing is accepted.
 */
async function unacceptingListener(): Promise<{ port: number; close(): void }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const net = require('node:net'); const fs = require('node:fs');
       const server = net.createServer();
       server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
         fs.writeSync(1, server.address().port + '\\n');
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
       });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (data: Buffer) => resolve(Number(String(data).trim())));
  });
  // Fill the backlog: these connections complete in the kernel, the next ones wait for ever.
  const fillers: Socket[] = [];
  for (let i = 0; i < 3; i += 1) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    fillers.push(socket);
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  return {
    port,
    close: () => {
      for (const socket of fillers) socket.destroy();
      child.kill('SIGKILL');
    },
  };
}

describe('an attempt that cannot connect', () => {
  let kumo: TestService;
  let listener: { port: number; close(): void } | undefined;

  before(async () => {
    kumo = await startTestService({
      env: {
        KUMO_WEBHOOK_TIMEOUT_SECONDS: '8',
        KUMO_WEBHOOK_CONNECT_TIMEOUT_SECONDS: '0.3',
        KUMO_WEBHOOK_BACKOFF_SECONDS: '60',
      },
    });
    listener = await unacceptingListener();
  });

  after(async () => {
    listener?.close();
    await kumo?.close();
  });

  test('ends at the connect timeout, not the total timeout', async () => {
    const tenant = await kumo.createTenant('unreachable');
    const hook = await createWebhook(kumo, tenant, `http://127.0.0.1:${listener!.port}/hook`);
    const pinged = await ping(kumo, tenant, hook);
    const { delivery, elapsedMs } = await watchDelivery(
      kumo,
      tenant,
      hook,
      pinged,
      (seen) => seen.attempts > 0,
      4000,
    );
    console.log(
      `the attempt that could not connect took ${delivery?.last_duration_ms} ms, ` +
        `recorded ${Math.round(elapsedMs)} ms after the ping`,
    );
    assert.equal(delivery?.attempts, 1, `the ping is ${JSON.stringify(delivery)}`);
    assert.equal(delivery.state, 'pending', 'it is retried later');
    assert.equal(delivery.last_error, 'connect timeout after 0.3 s');
    // The HTTP client checks connect timeouts about every half second; the total timeout is 8 s.
    assert.ok(delivery.last_duration_ms! < 2000, `the attempt took ${delivery.last_duration_ms} ms`);
    assert.ok(elapsedMs < 3000, `recorded after ${Math.round(elapsedMs)} ms`);
  });
});
