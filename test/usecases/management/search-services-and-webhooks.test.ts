/**
 * The management operations on search services, webhooks and their deliveries
 * (docs/design/management.md, Management layer), on a real SQLite store: configuration checks naming
 * their fields, secrets never shown, the delivery queue's listing and replay within a scope.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { EVERYWHERE, InvalidInputError, NotFoundError } from '../../../src/usecases/management/index.js';
import { closeManagementFixtures, managementFixture, OPERATOR } from '../../support/management-fixture.js';
import { rejected } from '../../support/thrown.js';

after(closeManagementFixtures);

const SECRET = 'webhook-secret-0123456789';

describe('search services', () => {
  test('created with a configuration, configured again, found only within the scope', async () => {
    const { management, tenant, other, clock, changes } = await managementFixture();
    const categories = [{ name: 'Docs', url_pattern: '^https://www\\.example\\.com/docs/' }];
    const created = await management.searchServices.create(OPERATOR, tenant, {
      name: ' site ',
      config: { categories },
    });
    assert.equal(created.name, 'site');
    assert.deepEqual(created.config, { categories });
    const bare = await management.searchServices.create(OPERATOR, tenant, { name: 'bare' });
    assert.deepEqual(bare.config, {});
    clock.micros += 1_000_000;
    const origins = ['https://www.example.com'];
    const configured = await management.searchServices.configure(OPERATOR, tenant, created.id, {
      allowed_origins: origins,
    });
    assert.deepEqual(configured.config, { allowed_origins: origins });
    assert.equal(configured.updatedMicros, clock.micros);
    assert.deepEqual(
      (await management.searchServices.list(tenant)).map((service) => service.id),
      [created.id, bare.id],
    );
    const notHere = await rejected(NotFoundError, () => management.searchServices.get(other, created.id));
    assert.equal(notHere.message, `no search service ${created.id} in this service group`);
    assert.equal((await management.searchServices.get(EVERYWHERE, created.id)).id, created.id);
    const unknown = await rejected(NotFoundError, () => management.searchServices.get(EVERYWHERE, 99));
    assert.equal(unknown.message, 'no search service 99');
    assert.deepEqual(
      changes.map(({ action, id }) => [action, id]),
      [
        ['create', created.id],
        ['create', bare.id],
        ['update', created.id],
      ],
    );
  });

  test('rules the schema cannot express are refused naming the field under config', async () => {
    const { management, tenant } = await managementFixture();
    const created = await management.searchServices.create(OPERATOR, tenant, { name: 'site' });
    const refused = await rejected(InvalidInputError, () =>
      management.searchServices.configure(OPERATOR, tenant, created.id, {
        categories: [{ name: 'Docs', url_pattern: '(' }],
        allowed_origins: ['https://www.example.com/path'],
      }),
    );
    assert.deepEqual(
      refused.errors.map((error) => error.field),
      ['config.categories[0].url_pattern', 'config.allowed_origins[0]'],
    );
    assert.deepEqual((await management.searchServices.get(tenant, created.id)).config, {}, 'unchanged');
    const blank = await rejected(InvalidInputError, () =>
      management.searchServices.create(OPERATOR, tenant, { name: '  ' }),
    );
    assert.deepEqual(blank.errors, [{ field: 'name', reason: 'must not be blank' }]);
  });
});

describe('webhooks', () => {
  test('created without showing the secret; its URL and secret are checked together', async () => {
    const { store, management, tenant } = await managementFixture();
    const created = await management.webhooks.create(OPERATOR, tenant, {
      url: 'https://hooks.example/k',
      secret: SECRET,
    });
    assert.equal('secret' in created, false);
    assert.equal((await store.webhooks.get(created.id))?.secret, SECRET);
    assert.deepEqual(await management.webhooks.list(tenant), [created]);
    assert.equal('secret' in (await management.webhooks.get(tenant, created.id)), false);
    const refused = await rejected(InvalidInputError, () =>
      management.webhooks.create(OPERATOR, tenant, { url: 'ftp://hooks.example/', secret: 'short' }),
    );
    assert.deepEqual(refused.errors, [
      { field: 'url', reason: 'scheme "ftp:" is not http or https' },
      { field: 'secret', reason: 'must be 16 to 256 characters, got 5' },
    ]);
    for (const [url, reason] of [
      ['hooks.example', '"hooks.example" is not an absolute URL'],
      ['https://u:p@hooks.example/', 'credentials in the URL are not allowed'],
      [`https://hooks.example/${'x'.repeat(2048)}`, 'at most 2048 characters'],
    ] as const) {
      const error = await rejected(InvalidInputError, () =>
        management.webhooks.create(OPERATOR, tenant, { url, secret: SECRET }),
      );
      assert.deepEqual(error.errors, [{ field: 'url', reason }]);
    }
  });

  test('deliveries are listed newest first, at most the limit; a limit out of bounds names limit', async () => {
    const { store, management, tenant, clock } = await managementFixture();
    const webhook = await management.webhooks.create(OPERATOR, tenant, {
      url: 'https://hooks.example/',
      secret: SECRET,
    });
    const ids: number[] = [];
    for (const n of [1, 2, 3]) {
      ids.push(
        (await store.deliveries.enqueue(webhook.id, 'crawl.finished', `event-${n}`, '{}', clock.micros + n))
          .id,
      );
    }
    assert.deepEqual(
      (await management.webhooks.deliveries(tenant, webhook.id)).map((delivery) => delivery.id),
      [...ids].reverse(),
    );
    assert.deepEqual(
      (await management.webhooks.deliveries(tenant, webhook.id, 2)).map((delivery) => delivery.id),
      [ids[2], ids[1]],
    );
    for (const limit of [0, 201, 1.5]) {
      const error = await rejected(InvalidInputError, () =>
        management.webhooks.deliveries(tenant, webhook.id, limit),
      );
      assert.deepEqual(error.errors, [
        { field: 'limit', reason: `expected an integer from 1 to 200, got ${limit}` },
      ]);
    }
  });

  test('a replay queues the delivery for now and wakes the dispatcher; wrong webhooks are not found', async () => {
    const { store, management, tenant, other, clock, deliveriesQueued, changes } = await managementFixture();
    const webhook = await management.webhooks.create(OPERATOR, tenant, {
      url: 'https://hooks.example/',
      secret: SECRET,
    });
    const second = await management.webhooks.create(OPERATOR, tenant, {
      url: 'https://hooks.example/2',
      secret: SECRET,
    });
    const delivery = await store.deliveries.enqueue(
      webhook.id,
      'crawl.finished',
      'event-1',
      '{}',
      clock.micros,
    );
    await store.deliveries.recordAttempt(
      delivery.id,
      { status: 500, error: 'HTTP 500', durationMs: 12, next: { kind: 'failed' } },
      clock.micros,
    );
    clock.micros += 5_000_000;
    const replayed = await management.webhooks.replay(OPERATOR, tenant, {
      webhookId: webhook.id,
      deliveryId: delivery.id,
    });
    assert.equal(replayed.state, 'pending');
    assert.equal(replayed.nextAttemptMicros, clock.micros);
    assert.equal(deliveriesQueued.count, 1);
    assert.deepEqual(changes.at(-1), {
      actor: OPERATOR,
      action: 'replay',
      resource: 'delivery',
      id: delivery.id,
      contractId: tenant.contractId,
      servicegroupId: tenant.servicegroupId,
      atMicros: clock.micros,
    });
    const ofOther = await rejected(NotFoundError, () =>
      management.webhooks.replay(OPERATOR, tenant, { webhookId: second.id, deliveryId: delivery.id }),
    );
    assert.equal(ofOther.message, `no delivery ${delivery.id} of webhook ${second.id}`);
    const otherGroup = await rejected(NotFoundError, () =>
      management.webhooks.replay(OPERATOR, other, { deliveryId: delivery.id }),
    );
    assert.equal(otherGroup.message, `no delivery ${delivery.id}`);
    assert.equal(deliveriesQueued.count, 1, 'refused replays wake nothing');
  });

  test('after a delete the webhook is gone; only the operator hears whose its deliveries were', async () => {
    const { store, management, tenant, clock } = await managementFixture();
    const webhook = await management.webhooks.create(OPERATOR, tenant, {
      url: 'https://hooks.example/',
      secret: SECRET,
    });
    const delivery = await store.deliveries.enqueue(
      webhook.id,
      'crawl.finished',
      'event-1',
      '{}',
      clock.micros,
    );
    await management.webhooks.delete(OPERATOR, tenant, webhook.id);
    for (const call of [
      () => management.webhooks.get(tenant, webhook.id),
      () => management.webhooks.delete(OPERATOR, tenant, webhook.id),
      () => management.webhooks.deliveries(tenant, webhook.id),
    ]) {
      assert.equal(
        (await rejected(NotFoundError, call)).message,
        `no webhook ${webhook.id} in this service group`,
      );
    }
    const operator = await rejected(NotFoundError, () =>
      management.webhooks.replay(OPERATOR, EVERYWHERE, { deliveryId: delivery.id }),
    );
    assert.equal(
      operator.message,
      `delivery ${delivery.id} belongs to webhook ${webhook.id}, which was deleted`,
    );
    const scoped = await rejected(NotFoundError, () =>
      management.webhooks.replay(OPERATOR, tenant, { deliveryId: delivery.id }),
    );
    assert.equal(scoped.message, `no delivery ${delivery.id}`);
  });
});
