/**
 * The limits of webhooks through the management API (docs/reference/webhooks.md, Limits): a
 * service group has at most 10 webhooks (one more is a 409 naming the limit), and a contract may
 * queue 10 pings, then 10 a minute (over it a 429 with Retry-After), other contracts unaffected.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertNg } from '../support/api-assertions.js';
import {
  type InjectResult,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
  type TestTenant,
} from '../support/service-harness.js';

const SECRET = 'webhook-secret-0123456789';
/** Port 9 (discard) on loopback: nothing listens, so a queued ping fails at once and costs nothing. */
const URL = 'http://127.0.0.1:9/hook';

let kumo: TestService;

before(async () => {
  kumo = await startTestService({ env: { KUMO_WEBHOOK_BACKOFF_SECONDS: '3600' } });
});

after(async () => {
  await kumo?.close();
});

function admin(method: 'POST' | 'DELETE', url: string, body?: object): Promise<InjectResult> {
  return kumo.inject({
    method,
    url: `/admin/v1${url}`,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    ...(body !== undefined && { payload: body }),
  });
}

const hooksOf = (tenant: TestTenant) =>
  `/contracts/${tenant.contractId}/servicegroups/${tenant.servicegroupId}/webhooks`;

async function createWebhook(tenant: TestTenant): Promise<InjectResult> {
  return admin('POST', hooksOf(tenant), { url: URL, secret: SECRET });
}

test('a service group has at most 10 webhooks; one more is a 409 naming the limit', async () => {
  const tenant = await kumo.createTenant('many hooks');
  const ids: number[] = [];
  for (let i = 0; i < 10; i += 1) {
    const created = await createWebhook(tenant);
    assert.equal(created.statusCode, 200, created.body);
    ids.push(created.json.webhook_id as number);
  }
  const refused = await createWebhook(tenant);
  assertNg(refused, 409);
  assert.equal(
    refused.json.message,
    `service group ${tenant.servicegroupId} has 10 webhooks, the most it may have (10); delete one first`,
  );

  // Another group of the same contract has its own 10.
  const sibling = await kumo.createServiceGroup(tenant, 'sibling');
  assert.equal((await createWebhook(sibling)).statusCode, 200);

  // A deleted webhook frees its place.
  assert.equal((await admin('DELETE', `${hooksOf(tenant)}/${ids[0]}`)).statusCode, 200);
  assert.equal((await createWebhook(tenant)).statusCode, 200);
});

test('a contract may ping 10 times, then 10 a minute: over it a 429 with Retry-After', async () => {
  const tenant = await kumo.createTenant('pinger');
  const hook = (await createWebhook(tenant)).json.webhook_id as number;
  for (let i = 0; i < 10; i += 1) {
    const pinged = await admin('POST', `${hooksOf(tenant)}/${hook}/ping`);
    assert.equal(pinged.statusCode, 200, `ping ${i + 1}: ${pinged.body}`);
  }
  const refused = await admin('POST', `${hooksOf(tenant)}/${hook}/ping`);
  assertNg(refused, 429);
  // One ping comes back every 6 s; the pings before took part of that.
  const retryAfter = Number(refused.headers['retry-after']);
  assert.ok(retryAfter >= 1 && retryAfter <= 6, `Retry-After ${retryAfter}`);
  assert.equal(
    refused.json.message,
    `contract ${tenant.contractId} sent the most pings it may (10, then 10 a minute); ` +
      `try again in ${retryAfter} s`,
  );
  // The limit is the contract's: another webhook of it is refused too.
  const second = (await createWebhook(tenant)).json.webhook_id as number;
  assertNg(await admin('POST', `${hooksOf(tenant)}/${second}/ping`), 429);

  // Another contract pings as before.
  const other = await kumo.createTenant('other pinger');
  const otherHook = (await createWebhook(other)).json.webhook_id as number;
  assert.equal((await admin('POST', `${hooksOf(other)}/${otherHook}/ping`)).statusCode, 200);
});
