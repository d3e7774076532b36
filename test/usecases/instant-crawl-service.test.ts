/**
 * The instant crawl use case checks the setting it is given itself (docs/design/management.md,
 * One check of a crawl setting): whoever calls it, the API or the console's "Run now", a setting
 * its schema or its rules refuse is answered with every bad field and queues nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { InvalidInputError } from '../../src/domain/index.js';
import { InstantCrawlService } from '../../src/usecases/instant-crawl-service.js';
import { TenantWork } from '../../src/usecases/tenant-work/tenant-work.js';
import type { RecordStore, TenantRef } from '../../src/store/index.js';
import { systemClock } from '../../src/util/index.js';
import { openTestRecordStore } from '../support/test-store.js';
import { rejected } from '../support/thrown.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-instant-service-'));
const tenantWork = new TenantWork();
let store: RecordStore;
let tenant: TenantRef;
let service: InstantCrawlService;
const dispatched = { pending: 0 };

before(async () => {
  store = await openTestRecordStore(path.join(folder, 'kumo.db'));
  const { id: contractId } = await store.tenants.createContract('acme', 1);
  const { id: servicegroupId } = await store.tenants.createServiceGroup(contractId, 'web', 1);
  tenant = { contractId, servicegroupId };
  const dispatcher = {
    notifyPending: () => void (dispatched.pending += 1),
    cancelRun: () => {},
    runEnded: () => {},
  };
  service = new InstantCrawlService(store.runs, dispatcher, systemClock, tenantWork);
});
after(async () => {
  await Promise.all([store.close(), tenantWork.close()]);
  rmSync(folder, { recursive: true, force: true });
});

test('a setting the schema refuses is named field by field and queues nothing', async () => {
  const refused = await rejected(InvalidInputError, () =>
    service.request(tenant, { seed_urls: 'https://www.example.com/', deph_limit: 2 }),
  );
  assert.deepEqual(refused.errors, [
    { field: 'setting.deph_limit', reason: 'unknown field; did you mean `depth_limit`?' },
    { field: 'setting.seed_urls', reason: 'Expected array' },
  ]);
  assert.deepEqual(await store.runs.listActive(tenant), []);
  assert.equal(dispatched.pending, 0);
});

test('a setting the schema passes is held to the rules it cannot express', async () => {
  const refused = await rejected(InvalidInputError, () =>
    service.request(tenant, { seed_urls: ['ftp://files.example/'], allow_urls_patterns: ['(unclosed'] }),
  );
  assert.deepEqual(
    refused.errors.map((error) => error.field),
    ['setting.seed_urls[0]', 'setting.allow_urls_patterns[0]'],
  );
  assert.deepEqual(await store.runs.listActive(tenant), []);
});

test('a good setting is queued and the workers are told', async () => {
  const run = await service.request(tenant, { seed_urls: ['https://www.example.com/'] });
  assert.deepEqual(
    (await store.runs.listActive(tenant)).map((active) => active.id),
    [run.id],
  );
  assert.equal(dispatched.pending, 1);
});
