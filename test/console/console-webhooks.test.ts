/**
 * The webhooks page in real Chromium against a real `kumo serve` (docs/console.md, Webhooks): an
 * owner adds a webhook (a bad URL refused next to its field with the API's reason, a generated
 * secret), sees a delivery the receiver refused with its response code, sends it again and sees
 * it delivered, then deletes the webhook after confirming; a viewer has no change control and
 * the API refuses the viewer's change.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { pollUntil } from '../support/service-harness.js';
import { assertAccessible, consoleSuite } from '../support/console-suite.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';

const suite = consoleSuite();
/** The receiver refuses the first request of each event id with a 500, then answers 204. */
const seen = new Set<string>();
let receiver: LocalServer;

before(async () => {
  receiver = await listenLocally(
    createServer((request, response) => {
      request.resume();
      const id = String(request.headers['x-mf-delivery']);
      if (seen.has(id)) {
        response.writeHead(204).end();
      } else {
        seen.add(id);
        response.writeHead(500).end('not yet');
      }
    }),
    '127.0.0.3',
  );
});

after(async () => {
  await receiver?.close();
});

describe('console webhooks', () => {
  test('an owner adds a webhook, reads its deliveries, sends one again and deletes the webhook', async () => {
    const tenant = await suite.tenant('hooks');
    await suite.account(tenant.contractId, 'owner@hooks.example', 'owner');
    const { page, pageErrors } = await suite.signIn('owner@hooks.example', {
      path: `/contracts/${tenant.contractId}/groups/${tenant.groupId}/webhooks`,
    });
    await page.getByText('This service group has no webhook.').waitFor();
    await assertAccessible(page, 'the webhooks page, empty');

    await page.getByLabel('URL').fill('ftp://example.com/hook');
    await page.getByRole('button', { name: 'Generate a secret' }).click();
    assert.match(await page.getByLabel('Signing secret').inputValue(), /^[0-9a-f]{64}$/);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const urlError = page.locator('.field-error').first();
    await urlError.waitFor();
    const refused = await suite.operator('POST', `${tenant.groupPath}/webhooks`, {
      url: 'ftp://example.com/hook',
      secret: 'a'.repeat(32),
    });
    assert.equal(refused.status, 400);
    assert.equal((await urlError.textContent())?.trim(), refused.json.errors[0].reason, 'the API reason');

    const target = `${receiver.baseUrl}/kumo-events`;
    await page.getByLabel('URL').fill(target);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByRole('heading', { name: target }).waitFor();
    const listed = await suite.operator('GET', `${tenant.groupPath}/webhooks`);
    const webhookId = listed.json.webhooks[0].id as number;

    // A run's event, queued the way the publisher does; the receiver refuses its first attempt.
    await suite.kumo.service.store.deliveries.enqueue(
      webhookId,
      'crawl.finished',
      'evt-console-1',
      '{}',
      Date.now() * 1000,
    );
    const deliveriesPath = `${tenant.groupPath}/webhooks/${webhookId}/deliveries`;
    await pollUntil('the first attempt', async () => {
      const answer = await suite.operator('GET', deliveriesPath);
      return answer.json.deliveries[0]?.last_status_code === 500 ? true : undefined;
    });
    await page.getByRole('button', { name: `Deliveries of ${target}` }).click();
    const row = page.getByRole('row').filter({ hasText: 'crawl.finished' });
    await row.getByRole('cell', { name: '500', exact: true }).waitFor();
    await assertAccessible(page, 'the webhooks page with deliveries');

    await row.getByRole('button', { name: 'Send again' }).click();
    await page.getByText('Queued to be sent again now.').waitFor();
    await pollUntil('the delivery', async () => {
      const answer = await suite.operator('GET', deliveriesPath);
      return answer.json.deliveries[0]?.state === 'delivered' ? true : undefined;
    });
    await page.getByRole('button', { name: 'Hide deliveries' }).click();
    await page.getByRole('button', { name: `Deliveries of ${target}` }).click();
    await row.getByRole('cell', { name: '204', exact: true }).waitFor();
    await row.getByText('Delivered', { exact: true }).waitFor();
    await row.getByRole('cell', { name: /^\d+ ms$/ }).waitFor();

    // A test ping: queued now, attempted at once, its answer and time shown without a reload.
    await page.getByRole('button', { name: 'Send a test ping' }).click();
    await page.getByText('Test ping queued; its answer appears below.').waitFor();
    const pingRow = page.getByRole('row').filter({ hasText: 'webhook.ping' });
    await pingRow.getByRole('cell', { name: '500', exact: true }).waitFor();
    await pingRow.getByRole('cell', { name: /^\d+ ms$/ }).waitFor();
    const pinged = (await suite.operator('GET', deliveriesPath)).json.deliveries[0];
    assert.equal(pinged.event, 'webhook.ping');
    assert.equal(typeof pinged.last_duration_ms, 'number');

    await page.getByRole('button', { name: `Delete: ${target}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('This service group has no webhook.').waitFor();
    assert.deepEqual((await suite.operator('GET', `${tenant.groupPath}/webhooks`)).json.webhooks, []);
    assert.deepEqual(pageErrors, []);
  });

  test('a viewer reads the webhooks without change controls, and the API refuses the change', async () => {
    const tenant = await suite.tenant('hooks-viewer');
    const created = await suite.operator('POST', `${tenant.groupPath}/webhooks`, {
      url: 'https://hooks.example/kumo',
      secret: 'b'.repeat(32),
    });
    assert.equal(created.status, 200);
    await suite.account(tenant.contractId, 'viewer@hooks.example', 'viewer');
    const { page } = await suite.signIn('viewer@hooks.example', {
      path: `/contracts/${tenant.contractId}/groups/${tenant.groupId}/webhooks`,
    });
    await page.getByRole('heading', { name: 'https://hooks.example/kumo' }).waitFor();
    await page.getByText('Only owners add and delete webhooks').waitFor();
    assert.equal(await page.getByRole('button', { name: /Add webhook|Delete|Send again/ }).count(), 0);
    const direct = await page.evaluate(
      async ([path, id]) => {
        const session = (await (await fetch('/admin/v1/session')).json()) as { csrf_token: string };
        const response = await fetch(`/admin/v1${path}/webhooks/${id}`, {
          method: 'DELETE',
          headers: { 'x-kumo-csrf-token': session.csrf_token },
        });
        return response.status;
      },
      [tenant.groupPath, created.json.webhook_id as number] as const,
    );
    assert.equal(direct, 403);
  });
});
