/**
 * The management operations on search services, webhooks and their deliveries
 * (docs/architecture.md, Management layer), on a real SQLite store: configuration checks naming
 * their fields, secrets never shown, the delivery queue's listing and replay within a scope.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { EVERYWHERE, InvalidInputError, NotFoundError } from '../../../src/service/management/index.js';
import { closeManagementFixtures, managementFixture, OPERATOR } from '../../support/management-fixture.js';
import { thrown } from '../../support/thrown.js';

after(closeManagementFixtures);

const SECRET = 'webhook-secret-0123456789';

describe('search services', () => {
  test('created with a configuration, configured again, found only within the scope', () => {
    const { management, tenant, other, clock, changes } = managementFixture();
    const categories = [{ name: 'Docs', url_pattern: '^https://www\\.example\\.com/docs/' }];
    const created = management.searchServices.create(OPERATOR, tenant, {
      name: ' site ',
      config: { categories },
    });
    assert.equal(created.name, 'site');
    assert.deepEqual(created.config, { categories });
    const bare = management.searchServices.create(OPERATOR, tenant, { name: 'bare' });
    assert.deepEqual(bare.config, {});
    clock.micros += 1_000_000;
    const origins = ['https://www.example.com'];
    const configured = management.searchServices.configure(OPERATOR, tenant, created.id, {
      allowed_origins: origins,
    });
    assert.deepEqual(configured.config, { allowed_origins: origins });
    assert.equal(configured.updatedMicros, clock.micros);
    assert.deepEqual(
      management.searchServices.list(tenant).map((service) => service.id),
      [created.id, bare.id],
    );
    const notHere = thrown(NotFoundError, () => management.searchServices.get(other, created.id));
    assert.equal(notHere.message, `no search service ${created.id} in this service group`);
    assert.equal(management.searchServices.get(EVERYWHERE, created.id).id, created.id);
    const unknown = thrown(NotFoundError, () => management.searchServices.get(EVERYWHERE, 99));
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

  test('rules the schema cannot express are refused naming the field under config', () => {
    const { management, tenant } = managementFixture();
    const created = management.searchServices.create(OPERATOR, tenant, { name: 'site' });
    const refused = thrown(InvalidInputError, () =>
      management.searchServices.configure(OPERATOR, tenant, created.id, {
        categories: [{ name: 'Docs', url_pattern: '(' }],
        allowed_origins: ['https://www.example.com/path'],
      }),
    );
    assert.deepEqual(
      refused.errors.map((error) => error.field),
      ['config.categories[0].url_pattern', 'config.allowed_origins[0]'],
    );
    assert.deepEqual(management.searchServices.get(tenant, created.id).config, {}, 'unchanged');
    const blank = thrown(InvalidInputError, () =>
      management.searchServices.create(OPERATOR, tenant, { name: '  ' }),
    );
    assert.deepEqual(blank.errors, [{ field: 'name', reason: 'must not be blank' }]);
  });
});

describe('webhooks', () => {
  test('created without showing the secret; its URL and secret are checked together', () => {
    const { store, management, tenant } = managementFixture();
    const created = management.webhooks.create(OPERATOR, tenant, {
      url: 'https://hooks.example/k',
      secret: SECRET,
    });
    assert.equal('secret' in created, false);
    assert.equal(store.webhooks.get(created.id)?.secret, SECRET);
    assert.deepEqual(management.webhooks.list(tenant), [created]);
    assert.equal('secret' in management.webhooks.get(tenant, created.id), false);
    const refused = thrown(InvalidInputError, () =>
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
      const error = thrown(InvalidInputError, () =>
        management.webhooks.create(OPERATOR, tenant, { url, secret: SECRET }),
      );
      assert.deepEqual(error.errors, [{ field: 'url', reason }]);
    }
  });

  test('deliveries are listed newest first, at most the limit; a limit out of bounds names limit', () => {
    const { store, management, tenant, clock } = managementFixture();
    const webhook = management.webhooks.create(OPERATOR, tenant, {
      url: 'https://hooks.example/',
      secret: SECRET,
    });
    const ids = [1, 2, 3].map(
      (n) => store.deliveries.enqueue(webhook.id, 'crawl.finished', `event-${n}`, '{}', clock.micros + n).id,
    );
    assert.deepEqual(
      management.webhooks.deliveries(tenant, webhook.id).map((delivery) => delivery.id),
      [...ids].reverse(),
    );
    assert.deepEqual(
      management.webhooks.deliveries(tenant, webhook.id, 2).map((delivery) => delivery.id),
      [ids[2], ids[1]],
    );
    for (const limit of [0, 201, 1.5]) {
      const error = thrown(InvalidInputError, () =>
        management.webhooks.deliveries(tenant, webhook.id, limit),
      );
      assert.deepEqual(error.errors, [
        { field: 'limit', reason: `expected an integer from 1 to 200, got ${limit}` },
      ]);
    }
  });

  test('a replay queues the delivery for now and wakes the dispatcher; wrong webhooks are not found', () => {
    const { store, management, tenant, other, clock, deliveriesQueued, changes } = managementFixture();
    const webhook = management.webhooks.create(OPERATOR, tenant, {
      url: 'https://hooks.example/',
      secret: SECRET,
    });
    const second = management.webhooks.create(OPERATOR, tenant, {
      url: 'https://hooks.example/2',
      secret: SECRET,
    });
    const delivery = store.deliveries.enqueue(webhook.id, 'crawl.finished', 'event-1', '{}', clock.micros);
    store.deliveries.recordAttempt(
      delivery.id,
      { status: 500, error: 'HTTP 500', durationMs: 12, next: { kind: 'failed' } },
      clock.micros,
    );
    clock.micros += 5_000_000;
    const replayed = management.webhooks.replay(OPERATOR, tenant, {
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
    const ofOther = thrown(NotFoundError, () =>
      management.webhooks.replay(OPERATOR, tenant, { webhookId: second.id, deliveryId: delivery.id }),
    );
    assert.equal(ofOther.message, `no delivery ${delivery.id} of webhook ${second.id}`);
    const otherGroup = thrown(NotFoundError, () =>
      management.webhooks.replay(OPERATOR, other, { deliveryId: delivery.id }),
    );
    assert.equal(otherGroup.message, `no delivery ${delivery.id}`);
    assert.equal(deliveriesQueued.count, 1, 'refused replays wake nothing');
  });

  test('after a delete the webhook is gone; only the operator hears whose its deliveries were', () => {
    const { store, management, tenant, clock } = managementFixture();
    const webhook = management.webhooks.create(OPERATOR, tenant, {
      url: 'https://hooks.example/',
      secret: SECRET,
    });
    const delivery = store.deliveries.enqueue(webhook.id, 'crawl.finished', 'event-1', '{}', clock.micros);
    management.webhooks.delete(OPERATOR, tenant, webhook.id);
    for (const call of [
      () => management.webhooks.get(tenant, webhook.id),
      () => management.webhooks.delete(OPERATOR, tenant, webhook.id),
      () => management.webhooks.deliveries(tenant, webhook.id),
    ]) {
      assert.equal(thrown(NotFoundError, call).message, `no webhook ${webhook.id} in this service group`);
    }
    const operator = thrown(NotFoundError, () =>
      management.webhooks.replay(OPERATOR, EVERYWHERE, { deliveryId: delivery.id }),
    );
    assert.equal(
      operator.message,
      `delivery ${delivery.id} belongs to webhook ${webhook.id}, which was deleted`,
    );
    const scoped = thrown(NotFoundError, () =>
      management.webhooks.replay(OPERATOR, tenant, { deliveryId: delivery.id }),
    );
    assert.equal(scoped.message, `no delivery ${delivery.id}`);
  });
});
