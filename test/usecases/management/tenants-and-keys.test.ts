/**
 * The management operations on contracts, service groups and API keys (docs/design/management.md,
 * Management layer), on a real SQLite store: results, the errors naming the field or the
 * resource, the scope a caller reaches and the changes reported with their actor.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { hashApiKey } from '../../../src/usecases/api-key-codec.js';
import {
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

describe('contracts and service groups', () => {
  test('a contract is created with its name trimmed, and the change names the actor', async () => {
    const { management, changes } = await managementFixture();
    const contract = await management.tenants.createContract(OPERATOR, { name: '  initech ' });
    assert.equal(contract.name, 'initech');
    assert.deepEqual(await management.tenants.getContract(contract.id), contract);
    assert.deepEqual(changes, [
      {
        actor: OPERATOR,
        action: 'create',
        resource: 'contract',
        id: contract.id,
        contractId: contract.id,
        servicegroupId: null,
        atMicros: START_MICROS,
      },
    ]);
  });

  test('a blank or too long name is refused naming the field; nothing is stored or reported', async () => {
    const { management, changes } = await managementFixture();
    const before = await management.tenants.listContracts();
    const blank = await rejected(InvalidInputError, () =>
      management.tenants.createContract(OPERATOR, { name: ' ' }),
    );
    assert.deepEqual(blank.errors, [{ field: 'name', reason: 'must not be blank' }]);
    const long = await rejected(InvalidInputError, () =>
      management.tenants.createContract(OPERATOR, { name: 'x'.repeat(201) }),
    );
    assert.deepEqual(long.errors, [{ field: 'name', reason: 'at most 200 characters' }]);
    assert.deepEqual(await management.tenants.listContracts(), before);
    assert.deepEqual(changes, []);
  });

  test('an unknown contract is a NotFoundError naming it, also when a group is created in it', async () => {
    const { management } = await managementFixture();
    const missing = await rejected(NotFoundError, () => management.tenants.getContract(99));
    assert.deepEqual([missing.resource, missing.id, missing.message], ['contract', 99, 'no contract 99']);
    const inMissing = await rejected(NotFoundError, () =>
      management.tenants.createServiceGroup(OPERATOR, 99, { name: 'web' }),
    );
    assert.equal(inMissing.message, 'no contract 99');
  });

  test('service groups are created in a contract and listed by contract or all', async () => {
    const { management, tenant, other, changes } = await managementFixture();
    const group = await management.tenants.createServiceGroup(OPERATOR, tenant.contractId, {
      name: 'intranet',
    });
    assert.equal(group.contractId, tenant.contractId);
    assert.deepEqual(
      (await management.tenants.listServiceGroups(tenant.contractId)).map((one) => one.name),
      ['web', 'intranet'],
    );
    assert.equal((await management.tenants.listServiceGroups()).length, 3);
    assert.deepEqual(await management.tenants.listServiceGroups(other.contractId + 5), []);
    assert.deepEqual(
      changes.map(({ action, resource, contractId, servicegroupId }) => [
        action,
        resource,
        contractId,
        servicegroupId,
      ]),
      [['create', 'service group', tenant.contractId, group.id]],
    );
  });

  test('a missing service group is refused by every operation on its resources, with one message', async () => {
    const { management, tenant } = await managementFixture();
    const missing = { contractId: tenant.contractId, servicegroupId: 42 };
    const message = `no service group 42 in contract ${tenant.contractId}`;
    const draft: ServiceSettingDraft = {
      setting: { seed_urls: ['https://a.example/'] },
      schedule: { interval: 0 },
    };
    const calls: (() => Promise<unknown>)[] = [
      () => management.tenants.getServiceGroup(missing),
      () => management.apiKeys.list(missing),
      () => management.apiKeys.create(OPERATOR, missing, {}),
      () => management.apiKeys.revoke(OPERATOR, missing, 1),
      () => management.searchServices.list(missing),
      () => management.searchServices.create(OPERATOR, missing, { name: 'site' }),
      () => management.serviceSettings.list(missing),
      () => management.serviceSettings.create(OPERATOR, missing, draft),
      () => management.serviceSettings.runNow(OPERATOR, missing, 1),
      () => management.webhooks.list(missing),
      () =>
        management.webhooks.create(OPERATOR, missing, { url: 'https://h.example/', secret: 's'.repeat(16) }),
      () => management.webhooks.replay(OPERATOR, missing, { deliveryId: 1, webhookId: 1 }),
    ];
    for (const call of calls) {
      const error = await rejected(NotFoundError, call);
      assert.deepEqual([error.resource, error.id, error.message], ['service group', 42, message]);
    }
  });
});

describe('API keys', () => {
  test('a key is shown once at creation; the store keeps its hash and its first characters', async () => {
    const { store, management, tenant, changes } = await managementFixture();
    const { record, apiKey } = await management.apiKeys.create(OPERATOR, tenant, { label: 'site search' });
    assert.match(apiKey, /^kumo_/);
    assert.equal(record.prefix, apiKey.slice(0, 8));
    assert.equal(record.label, 'site search');
    assert.equal((await store.apiKeys.findActiveByHash(hashApiKey(apiKey)))?.id, record.id);
    assert.deepEqual(
      changes.map(({ action, resource, id }) => [action, resource, id]),
      [['create', 'API key', record.id]],
    );
    const long = await rejected(InvalidInputError, () =>
      management.apiKeys.create(OPERATOR, tenant, { label: 'x'.repeat(201) }),
    );
    assert.deepEqual(long.errors, [{ field: 'label', reason: 'at most 200 characters' }]);
  });

  test('a listing shows the keys within the scope only', async () => {
    const { management, tenant, other } = await managementFixture();
    const mine = (await management.apiKeys.create(OPERATOR, tenant, {})).record;
    const theirs = (await management.apiKeys.create(OPERATOR, other, {})).record;
    assert.deepEqual(
      (await management.apiKeys.list(tenant)).map((key) => key.id),
      [mine.id],
    );
    assert.deepEqual(
      (await management.apiKeys.list({ contractId: other.contractId })).map((key) => key.id),
      [theirs.id],
    );
    assert.deepEqual(
      (await management.apiKeys.list(EVERYWHERE)).map((key) => key.id),
      [mine.id, theirs.id],
    );
  });

  test("a key is revoked once; another group's key is not found from this group", async () => {
    const { store, management, tenant, other, clock } = await managementFixture();
    const { record, apiKey } = await management.apiKeys.create(OPERATOR, tenant, {});
    const theirs = await management.apiKeys.create(OPERATOR, other, {});
    clock.micros += 1_000_000;
    await management.apiKeys.revoke(OPERATOR, tenant, record.id);
    assert.equal(await store.apiKeys.findActiveByHash(hashApiKey(apiKey)), undefined);
    assert.equal((await management.apiKeys.list(tenant))[0]?.revokedMicros, clock.micros);
    const again = await rejected(NotFoundError, () => management.apiKeys.revoke(OPERATOR, tenant, record.id));
    assert.equal(again.message, `no active API key ${record.id} in this service group`);
    const foreign = await rejected(NotFoundError, () =>
      management.apiKeys.revoke(OPERATOR, tenant, theirs.record.id),
    );
    assert.equal(foreign.message, `no active API key ${theirs.record.id} in this service group`);
    assert.ok(await store.apiKeys.findActiveByHash(hashApiKey(theirs.apiKey)), 'the other key still works');
    const unknown = await rejected(NotFoundError, () => management.apiKeys.revoke(OPERATOR, EVERYWHERE, 99));
    assert.equal(unknown.message, 'no active API key 99');
  });
});
