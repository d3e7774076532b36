/**
 * The webhook dispatcher under the address policy, checked when connecting: a receiver on a
 * refused address gets nothing, even when the check before the attempt was fooled by a DNS
 * answer that changed (rebinding). Real sockets and a real SQLite queue; names resolved by a
 * scripted resolver, never by real DNS.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, test } from 'node:test';
import { AddressPolicy } from '../../src/net/address-policy.js';
import type { DeliveryRecord, RecordStore } from '../../src/store/index.js';
import { openSqliteRecordStore } from '../../src/store/sqlite/index.js';
import { systemClock } from '../../src/util/index.js';
import {
  RunEventPublisher,
  WebhookDispatcher,
  type WebhookDispatcherOptions,
} from '../../src/webhooks/index.js';
import { fakeLookup } from './support/fake-lookup.js';
import { type RecordingServer, startRecordingServer } from './support/recording-server.js';

const cleanups: (() => Promise<unknown> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(host: string): Promise<RecordingServer> {
  const started = await startRecordingServer(host, () => ({ status: 204 }));
  cleanups.push(() => started.close());
  return started;
}

/** Queues one crawl.started delivery to `url` and runs the dispatcher until it is settled. */
async function deliverOnce(
  url: string,
  addresses: WebhookDispatcherOptions['addresses'],
): Promise<DeliveryRecord> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-webhook-guard-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const store: RecordStore = openSqliteRecordStore(path.join(dir, 'service.db'));
  cleanups.push(() => store.close());
  const now = systemClock.nowMicros();
  const contract = await store.tenants.createContract('t', now);
  const group = await store.tenants.createServiceGroup(contract.id, 'g', now);
  const tenant = { contractId: contract.id, servicegroupId: group.id };
  const run = await store.runs.createInstantRun(
    tenant,
    { seed_urls: ['http://example.test/'] } as never,
    now,
  );
  const webhook = await store.webhooks.create(tenant, url, 'whsec_0123456789abcdef', now);
  const noLog = () => {};
  const dispatcher = new WebhookDispatcher({
    deliveries: store.deliveries,
    webhooks: store.webhooks,
    clock: systemClock,
    backoffSeconds: [],
    timeoutMs: 3000,
    userAgent: 'kumo-test/1.0',
    logger: { info: noLog, warn: noLog, error: noLog },
    pollIntervalMs: 50,
    addresses,
  });
  cleanups.push(() => dispatcher.stop());
  dispatcher.start();
  await new RunEventPublisher({
    webhooks: store.webhooks,
    deliveries: store.deliveries,
    clock: systemClock,
    timezone: 'UTC',
    onQueued: () => dispatcher.nudge(),
  }).publish('crawl.started', run);
  const deadline = performance.now() + 5000;
  for (;;) {
    const [delivery] = await store.deliveries.list(webhook.id, 10);
    if (delivery !== undefined && delivery.state !== 'pending') return delivery;
    if (performance.now() > deadline) throw new Error('the delivery did not settle');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('webhook deliveries under the address policy', () => {
  test('a receiver on 127.0.0.1 receives nothing with the default policy', async () => {
    const target = await receiver('127.0.0.1');
    const delivery = await deliverOnce(`${target.origin}/hook`, new AddressPolicy(false));
    assert.equal(delivery.state, 'failed');
    assert.equal(
      delivery.lastError,
      'refused: 127.0.0.1 is a loopback address and private networks are not allowed',
    );
    assert.equal(target.connections, 0);
    assert.deepEqual(target.requests, []);
  });

  test('DNS rebinding: the check before the attempt sees a public address, the connection is refused', async () => {
    const target = await receiver('127.0.0.1');
    const lookup = fakeLookup([['93.184.216.34'], ['127.0.0.1']]);
    const delivery = await deliverOnce(
      `http://hooks.test:${target.port}/hook`,
      new AddressPolicy(false, { lookup }),
    );
    assert.equal(delivery.state, 'failed');
    assert.equal(
      delivery.lastError,
      'refused: hooks.test resolves to a refused address: ' +
        '127.0.0.1 is a loopback address and private networks are not allowed',
    );
    assert.deepEqual(lookup.calls, ['hooks.test', 'hooks.test'], 'checked first, then resolved to connect');
    assert.equal(target.connections, 0);
    assert.deepEqual(target.requests, []);
  });

  test('a check by host name alone (no connect-time guard) still refuses before the attempt', async () => {
    const target = await receiver('127.0.0.1');
    const delivery = await deliverOnce(`${target.origin}/hook`, {
      refusalOfHost: (host) => Promise.resolve(`${host} is refused`),
    });
    assert.equal(delivery.lastError, 'refused: 127.0.0.1 is refused');
    assert.equal(target.connections, 0);
  });

  test('a receiver in an allowed range is delivered to', async () => {
    const target = await receiver('127.0.0.2');
    const lookup = fakeLookup([['127.0.0.2']]);
    const delivery = await deliverOnce(
      `http://hooks.test:${target.port}/hook`,
      new AddressPolicy(['127.0.0.2/32'], { lookup }),
    );
    assert.equal(delivery.state, 'delivered', delivery.lastError);
    assert.deepEqual(target.requests, ['/hook']);
  });
});
