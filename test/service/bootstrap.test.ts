/** The demo tenant of a first start, and later starts after an operator changed it. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { bootstrapDemoTenant, DEMO_SERVICE_SETTING_ID } from '../../src/service/bootstrap.js';
import { openSqliteServiceStore } from '../../src/store/sqlite/open-service-store.js';
import { systemClock } from '../../src/util/clock.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-bootstrap-'));
after(() => rmSync(folder, { recursive: true, force: true }));

test('the demo crawl service setting is created once; deleting it does not stop the next start', () => {
  const file = path.join(folder, 'kumo.db');
  let store = openSqliteServiceStore(file);
  const key = bootstrapDemoTenant(store, systemClock, undefined);
  assert.ok(key !== undefined);
  const demo = store.serviceSettings.get(DEMO_SERVICE_SETTING_ID);
  assert.equal(demo?.searchServiceId, 1);
  assert.equal(demo?.schedule.interval, 0);
  assert.ok(store.serviceSettings.delete(DEMO_SERVICE_SETTING_ID, systemClock.nowMicros()));
  store.close();

  store = openSqliteServiceStore(file);
  assert.equal(bootstrapDemoTenant(store, systemClock, undefined), undefined, 'no new key at a later start');
  assert.equal(
    store.serviceSettings.get(DEMO_SERVICE_SETTING_ID),
    undefined,
    'a deleted demo setting stays deleted',
  );
  assert.deepEqual(store.serviceSettings.list(), []);
  store.close();
});
