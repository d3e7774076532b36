/**
 * The management operations on crawl service settings (docs/design/management.md, Management layer),
 * on a real SQLite store: the checks beyond the schema naming their fields, passwords kept but
 * never shown, the next run in the service's time zone, run now and its conflict, delete.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { InstantCrawlerSetting } from '../../../src/domain/schemas.js';
import { REDACTED } from '../../../src/domain/index.js';
import {
  ConflictError,
  EVERYWHERE,
  InvalidInputError,
  NotFoundError,
  type ServiceSettingDraft,
} from '../../../src/usecases/management/index.js';
import {
  closeManagementFixtures,
  managementFixture,
  OPERATOR,
  START_MICROS,
} from '../../support/management-fixture.js';
import { rejected } from '../../support/thrown.js';

after(closeManagementFixtures);

const SECRET = 'site-password-7f3a';
const SETTING: InstantCrawlerSetting = {
  seed_urls: ['https://www.example.com/'],
  authorizations: [{ type: 'BASIC', user: 'crawler', password: SECRET }],
};
/** Daily at 09:30; the fixture's clock is 12:00 UTC, so the next run is tomorrow. */
const DAILY = { interval: 2, min: 30, hour: 9 } as const;
const draft = (overrides: Partial<ServiceSettingDraft> = {}): ServiceSettingDraft => ({
  name: ' nightly ',
  setting: SETTING,
  schedule: DAILY,
  ...overrides,
});

describe('crawl service settings', () => {
  test('a created setting is shown with its password redacted and its next run', async () => {
    const { store, management, tenant, changes } = await managementFixture();
    const service = await store.searchServices.create(tenant, 'site', {}, START_MICROS);
    const created = await management.serviceSettings.create(
      OPERATOR,
      tenant,
      draft({ searchServiceId: service.id }),
    );
    assert.equal(created.name, 'nightly');
    assert.equal(created.setting.authorizations?.[0]?.password, REDACTED);
    assert.equal(
      (await store.serviceSettings.get(created.id))?.setting.authorizations?.[0]?.password,
      SECRET,
    );
    assert.equal(created.searchServiceId, service.id);
    assert.equal(created.nextRunMicros, Date.UTC(2030, 0, 16, 9, 30) * 1000);
    assert.equal(created.activeRunId, null);
    assert.deepEqual(await management.serviceSettings.get(tenant, created.id), created);
    assert.deepEqual(await management.serviceSettings.list(tenant), [created]);
    assert.deepEqual(
      changes.map(({ action, resource, id }) => [action, resource, id]),
      [['create', 'crawl service setting', created.id]],
    );
  });

  test('the next run is counted in the service time zone; an off schedule has none', async () => {
    const { management, tenant } = await managementFixture('Asia/Tokyo');
    const created = await management.serviceSettings.create(OPERATOR, tenant, draft());
    // 12:00 UTC is 21:00 in Tokyo: the next 09:30 there is 00:30 UTC of the next day.
    assert.equal(created.nextRunMicros, Date.UTC(2030, 0, 16, 0, 30) * 1000);
    const off = await management.serviceSettings.create(
      OPERATOR,
      tenant,
      draft({ schedule: { interval: 0 } }),
    );
    assert.equal(off.nextRunMicros, null);
  });

  test('a setting as sent is checked against its schema too, whoever sends it; nothing is stored', async () => {
    const { management, tenant } = await managementFixture();
    // What `kumo admin` reads from a file reaches the operation unparsed, as the API's body does.
    const setting: unknown = { seed_urls: 'https://www.example.com/', deph_limit: 2 };
    const refused = await rejected(InvalidInputError, () =>
      management.serviceSettings.create(OPERATOR, tenant, draft({ setting })),
    );
    assert.deepEqual(refused.errors, [
      { field: 'setting.deph_limit', reason: 'unknown field; did you mean `depth_limit`?' },
      { field: 'setting.seed_urls', reason: 'Expected array' },
    ]);
    assert.deepEqual(
      await management.serviceSettings.crawlSettingErrors(tenant.contractId, setting),
      refused.errors,
    );
    assert.deepEqual(await management.serviceSettings.list(tenant), []);
  });

  test('checks beyond the schema name every field; nothing is stored', async () => {
    const { management, tenant, other, store } = await managementFixture();
    const bad = await rejected(InvalidInputError, () =>
      management.serviceSettings.create(
        OPERATOR,
        tenant,
        draft({ setting: { seed_urls: ['ftp://x.example/'] }, schedule: { interval: 2 } }),
      ),
    );
    assert.deepEqual(
      bad.errors.map((error) => error.field),
      ['setting.seed_urls[0]', 'schedule.min', 'schedule.hour'],
    );
    const foreign = await store.searchServices.create(other, 'theirs', {}, START_MICROS);
    const theirs = await rejected(InvalidInputError, () =>
      management.serviceSettings.create(OPERATOR, tenant, draft({ searchServiceId: foreign.id })),
    );
    assert.deepEqual(theirs.errors, [
      { field: 'service_id', reason: `no search service ${foreign.id} in this service group` },
    ]);
    const copied = await rejected(InvalidInputError, () =>
      management.serviceSettings.create(
        OPERATOR,
        tenant,
        draft({ setting: { ...SETTING, authorizations: [{ user: 'crawler', password: REDACTED }] } }),
      ),
    );
    assert.deepEqual(
      copied.errors.map((error) => error.field),
      ['setting.authorizations[0].password'],
    );
    const long = await rejected(InvalidInputError, () =>
      management.serviceSettings.create(OPERATOR, tenant, draft({ name: 'x'.repeat(201) })),
    );
    assert.deepEqual(long.errors, [{ field: 'name', reason: 'at most 200 characters' }]);
    assert.deepEqual(await management.serviceSettings.list(tenant), []);
  });

  test('an update keeps the name when absent and a redacted password as stored', async () => {
    const { store, management, tenant, clock, changes } = await managementFixture();
    const created = await management.serviceSettings.create(OPERATOR, tenant, draft());
    clock.micros += 60_000_000;
    const updated = await management.serviceSettings.update(OPERATOR, tenant, created.id, {
      setting: created.setting,
      schedule: { interval: 1, min: 15 },
    });
    assert.equal(updated.name, 'nightly');
    assert.deepEqual(updated.schedule, { interval: 1, min: 15 });
    assert.equal(updated.updatedMicros, clock.micros);
    assert.equal(
      (await store.serviceSettings.get(created.id))?.setting.authorizations?.[0]?.password,
      SECRET,
    );
    assert.deepEqual(
      changes.map(({ action }) => action),
      ['create', 'update'],
    );
  });

  test("another group's setting is not found from this group; the operator reaches it", async () => {
    const { management, tenant, other } = await managementFixture();
    const theirs = await management.serviceSettings.create(OPERATOR, other, draft());
    for (const call of [
      () => management.serviceSettings.get(tenant, theirs.id),
      () => management.serviceSettings.update(OPERATOR, tenant, theirs.id, draft()),
      () => management.serviceSettings.delete(OPERATOR, tenant, theirs.id),
      () => management.serviceSettings.runNow(OPERATOR, tenant, theirs.id),
    ]) {
      const error = await rejected(NotFoundError, call);
      assert.equal(error.message, `no crawl service setting ${theirs.id} in this service group`);
    }
    assert.equal((await management.serviceSettings.get(EVERYWHERE, theirs.id)).id, theirs.id);
    assert.deepEqual(
      await management.serviceSettings.list({ contractId: tenant.contractId }),
      [],
      'a listing by contract shows only its settings',
    );
  });

  test('run now queues one run at a time; delete cancels it and the setting is gone', async () => {
    const { management, tenant, dispatched, changes } = await managementFixture();
    const created = await management.serviceSettings.create(OPERATOR, tenant, draft());
    const run = await management.serviceSettings.runNow(OPERATOR, tenant, created.id);
    assert.equal(run.serviceSettingId, created.id);
    assert.equal(run.trigger, 'manual');
    assert.equal(dispatched.pending, 1);
    assert.equal((await management.serviceSettings.get(tenant, created.id)).activeRunId, run.id);
    const busy = await rejected(ConflictError, () =>
      management.serviceSettings.runNow(OPERATOR, tenant, created.id),
    );
    assert.equal(
      busy.message,
      `run ${run.id} of crawl service setting ${created.id} is still pending or running`,
    );
    await management.serviceSettings.delete(OPERATOR, tenant, created.id);
    assert.deepEqual(dispatched.ended, [run.id], 'the pending run ended with its setting');
    const gone = await rejected(NotFoundError, () => management.serviceSettings.get(tenant, created.id));
    assert.equal(gone.message, `no crawl service setting ${created.id} in this service group`);
    assert.deepEqual(
      changes.map(({ action }) => action),
      ['create', 'run', 'delete'],
    );
  });
});
