/** The demo tenant of a first start, and later starts after an operator changed it. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { DEMO_SERVICE_SETTING_ID, issueDemoKey } from '../../src/startup/bootstrap.js';
import { hashApiKey } from '../../src/usecases/index.js';
import { openSqliteRecordStore } from '../../src/store/sqlite/index.js';
import { systemClock } from '../../src/util/index.js';
import { bootstrapDemo } from '../support/demo-tenant.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-bootstrap-'));
after(() => rmSync(folder, { recursive: true, force: true }));

test('the demo crawl service setting is created once; deleting it does not stop the next start', async () => {
  const file = path.join(folder, 'kumo.db');
  let store = openSqliteRecordStore(file);
  await bootstrapDemo(store);
  assert.ok((await issueDemoKey(store, systemClock, undefined)) !== undefined);
  const demo = await store.serviceSettings.get(DEMO_SERVICE_SETTING_ID);
  assert.equal(demo?.searchServiceId, 1);
  assert.equal(demo?.schedule.interval, 0);
  assert.ok(await store.serviceSettings.delete(DEMO_SERVICE_SETTING_ID, systemClock.nowMicros()));
  await store.close();

  store = openSqliteRecordStore(file);
  await bootstrapDemo(store);
  assert.equal(await issueDemoKey(store, systemClock, undefined), undefined, 'no new key at a later start');
  assert.equal(
    await store.serviceSettings.get(DEMO_SERVICE_SETTING_ID),
    undefined,
    'a deleted demo setting stays deleted',
  );
  assert.deepEqual(await store.serviceSettings.list(), []);
  await store.close();
});

test('the demo key is issued once, by the first start that gets as far as issuing it', async () => {
  const file = path.join(folder, 'issue.db');
  let store = openSqliteRecordStore(file);
  // A start that stopped before listening: the demo tenant exists, without a key.
  await bootstrapDemo(store);
  assert.deepEqual(await store.apiKeys.list(), []);
  await store.close();

  store = openSqliteRecordStore(file);
  await bootstrapDemo(store);
  const key = await issueDemoKey(store, systemClock, undefined);
  assert.ok(key !== undefined, 'the next start issues the key');
  assert.equal((await store.apiKeys.findActiveByHash(hashApiKey(key)))?.servicegroupId, 1);
  const [issued] = await store.apiKeys.list();
  assert.ok(await store.apiKeys.revoke(issued!.id, systemClock.nowMicros()));
  assert.equal(await issueDemoKey(store, systemClock, undefined), undefined, 'a revoked key is not replaced');
  await store.close();
});

test('a pinned key is the demo key of the first start, and is added on later starts', async () => {
  const file = path.join(folder, 'pinned.db');
  const store = openSqliteRecordStore(file);
  await bootstrapDemo(store, 'pinned-key-1');
  assert.equal(await issueDemoKey(store, systemClock, 'pinned-key-1'), 'pinned-key-1');
  await bootstrapDemo(store, 'pinned-key-2');
  assert.equal(
    await issueDemoKey(store, systemClock, 'pinned-key-2'),
    undefined,
    'printed at the first start only',
  );
  for (const pinned of ['pinned-key-1', 'pinned-key-2'])
    assert.equal((await store.apiKeys.findActiveByHash(hashApiKey(pinned)))?.contractId, 1, pinned);
  await store.close();
});

test('the demo tenant is made through the management operations: the audit log has each part', async () => {
  const store = openSqliteRecordStore(path.join(folder, 'audited.db'));
  await bootstrapDemo(store);
  const entries = await store.audit.list({ contractId: 1, limit: 10 });
  assert.deepEqual(
    entries
      .reverse()
      .map((entry) => [entry.actorKind, entry.actorVia, entry.action, entry.resource, entry.resourceId]),
    [
      ['operator', 'first-start', 'create', 'contract', 1],
      ['operator', 'first-start', 'create', 'service group', 1],
      ['operator', 'first-start', 'create', 'search service', 1],
      ['operator', 'first-start', 'create', 'crawl service setting', DEMO_SERVICE_SETTING_ID],
    ],
  );
  await bootstrapDemo(store);
  assert.equal(
    (await store.audit.list({ contractId: 1, limit: 10 })).length,
    4,
    'a later start changes nothing',
  );
  await store.close();
});
