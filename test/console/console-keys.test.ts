/**
 * The API keys page in real Chromium against a real `kumo serve` (docs/console.md, API keys): an
 * owner creates a key, sees it once, the key works on the instant crawl API, and revoking it (after
 * confirming) makes the API refuse it; a viewer reads the list without any change control and the
 * API refuses the viewer's change; another contract's keys are "not found".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertAccessible, consoleSuite } from '../support/console-suite.js';

const suite = consoleSuite();

async function histories(contractId: number, groupId: number, apiKey: string): Promise<number> {
  const response = await fetch(
    `${suite.kumo.url}/api/v1/contracts/${contractId}/servicegroups/${groupId}/crawler/histories`,
    { headers: { accept: 'application/json', 'x-mf-apikey': apiKey } },
  );
  await response.arrayBuffer();
  return response.status;
}

describe('console API keys', () => {
  test('an owner creates a key, sees it once, uses it, then revokes it after confirming', async () => {
    const tenant = await suite.tenant('keys');
    await suite.account(tenant.contractId, 'owner@keys.example', 'owner');
    const { page, pageErrors } = await suite.signIn('owner@keys.example');
    await page
      .getByRole('navigation', { name: 'Console navigation' })
      .getByRole('link', { name: 'API keys' })
      .click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByText('This service group has no API key yet.').waitFor();
    await assertAccessible(page, 'the API keys page, empty');

    await page.getByLabel('Label').fill('nightly import');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const shown = page.getByLabel('Your new API key', { exact: true });
    await shown.waitFor();
    const apiKey = ((await shown.textContent()) ?? '').trim();
    assert.ok(apiKey.length >= 20, `a whole key is shown: ${apiKey}`);
    await assertAccessible(page, 'the API keys page with a new key');
    assert.equal(await histories(tenant.contractId, tenant.groupId, apiKey), 200, 'the new key works');

    const row = page.getByRole('row').filter({ hasText: 'nightly import' });
    await row.getByText('Active').waitFor();
    assert.ok(apiKey.startsWith(((await row.locator('code').textContent()) ?? '').replace('…', '')));
    await page.getByRole('button', { name: 'I have saved the key' }).click();
    assert.equal(await page.getByText(apiKey).count(), 0, 'the key is not shown again');
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'nightly import' }).waitFor();
    assert.equal(await page.getByText(apiKey).count(), 0, 'nor after a reload');
    // The key was used once: "Last used" is a time, not "Never".
    const lastUsed = await page
      .getByRole('row')
      .filter({ hasText: 'nightly import' })
      .getByRole('cell')
      .nth(3)
      .textContent();
    assert.match(lastUsed ?? '', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);

    // Rotation: a new key first, then the old one revoked; the new one keeps working.
    await page.getByLabel('Label').fill('nightly import 2');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const rotated = ((await page.getByLabel('Your new API key', { exact: true }).textContent()) ?? '').trim();
    await page.getByRole('button', { name: 'I have saved the key' }).click();
    assert.equal(
      await page
        .getByRole('row')
        .filter({ hasText: 'nightly import 2' })
        .getByRole('cell')
        .nth(3)
        .textContent(),
      'Never',
    );

    // Escape keeps the key; confirming revokes it.
    await page.getByRole('button', { name: 'Revoke: nightly import', exact: true }).click();
    await page.getByRole('dialog', { name: 'Revoke this API key?' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    assert.equal(await histories(tenant.contractId, tenant.groupId, apiKey), 200);
    await page.getByRole('button', { name: 'Revoke: nightly import', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'nightly import', exact: true }) })
      .getByText(/^Revoked /)
      .waitFor();
    assert.equal(
      await histories(tenant.contractId, tenant.groupId, apiKey),
      401,
      'the revoked key is refused',
    );
    assert.equal(await histories(tenant.contractId, tenant.groupId, rotated), 200, 'the new key works');
    assert.deepEqual(pageErrors, []);
  });

  test('a viewer reads the keys without change controls, and the API refuses the change', async () => {
    const tenant = await suite.tenant('keys-viewer');
    const key = await suite.operator('POST', `${tenant.groupPath}/api_keys`, { label: 'deploy bot' });
    assert.equal(key.status, 200);
    await suite.account(tenant.contractId, 'viewer@keys.example', 'viewer');
    const { page } = await suite.signIn('viewer@keys.example', {
      path: `/contracts/${tenant.contractId}/groups/${tenant.groupId}/keys`,
    });
    await page.getByRole('row').filter({ hasText: 'deploy bot' }).waitFor();
    await page.getByText('Only owners create and revoke keys.').waitFor();
    assert.equal(await page.getByRole('button', { name: /Create API key|Revoke/ }).count(), 0);
    await assertAccessible(page, 'the API keys page of a viewer');

    const refused = await page.evaluate(async (path) => {
      const session = (await (await fetch('/admin/v1/session')).json()) as { csrf_token: string };
      const response = await fetch(`/admin/v1${path}/api_keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-kumo-csrf-token': session.csrf_token },
        body: JSON.stringify({ label: 'sneaky' }),
      });
      return response.status;
    }, tenant.groupPath);
    assert.equal(refused, 403);
  });

  test("another contract's keys page is not found", async () => {
    const mine = await suite.tenant('keys-mine');
    const theirs = await suite.tenant('keys-theirs');
    await suite.operator('POST', `${theirs.groupPath}/api_keys`, { label: 'their secret bot' });
    await suite.account(mine.contractId, 'nosy@keys.example', 'owner');
    const { page } = await suite.signIn('nosy@keys.example', {
      path: `/contracts/${theirs.contractId}/groups/${theirs.groupId}/keys`,
    });
    await page.getByText('This page does not exist, or your account cannot see it.').waitFor();
    assert.equal(await page.getByText('their secret bot').count(), 0);
  });
});
