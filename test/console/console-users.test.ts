/**
 * The users and audit log pages in real Chromium against a real `kumo serve` (docs/console.md,
 * Users and the audit log): an owner invites a user and gets the link once, the invited person
 * accepts it, the owner signs them out everywhere and reads both changes in the audit log; an
 * editor reads the users without change controls, the API refuses the editor's invitation, and the
 * audit log is not theirs to read.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertAccessible, CONSOLE_PASSWORD, consoleSuite } from '../support/console-suite.js';

const suite = consoleSuite();

describe('console users and audit log', () => {
  test('an owner invites a user, changes the role, ends a session, removes the user, and reads it all in the audit log', async () => {
    const tenant = await suite.tenant('people');
    await suite.account(tenant.contractId, 'owner@people.example', 'owner');
    const { page, pageErrors } = await suite.signIn('owner@people.example', {
      path: `/contracts/${tenant.contractId}/users`,
    });
    await page.getByRole('cell', { name: 'owner@people.example', exact: true }).waitFor();
    await assertAccessible(page, 'the users page');

    await page.getByLabel('Email address').fill('new.editor@people.example');
    await page.getByLabel('Role', { exact: true }).selectOption('editor');
    await page.getByRole('button', { name: 'Create invitation' }).click();
    const link = page.getByLabel('Invitation link for new.editor@people.example', { exact: true });
    await link.waitFor();
    const acceptUrl = ((await link.textContent()) ?? '').trim();
    assert.match(acceptUrl, /\/console\/invitation#token=[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'Done' }).click();
    assert.equal(await page.getByText(acceptUrl).count(), 0, 'the link is not shown again');

    // The invited person accepts in their own browser and is signed in by it.
    const invited = await suite.open();
    await invited.page.goto(acceptUrl);
    await invited.page.getByLabel('New password').fill(CONSOLE_PASSWORD);
    await invited.page.getByLabel('Repeat the password').fill(CONSOLE_PASSWORD);
    await invited.page.getByRole('button', { name: 'Create my account' }).click();
    await invited.page.getByRole('heading', { name: 'Overview' }).waitFor();

    await page.reload();
    const email = 'new.editor@people.example';
    const role = page.getByRole('combobox', { name: `Role: ${email}` });
    assert.equal(await role.inputValue(), 'editor');
    await role.selectOption('viewer');
    await page.getByText(`${email} is now Viewer.`).waitFor();
    const users = await suite.operator('GET', `/contracts/${tenant.contractId}/users`);
    assert.equal(users.json.users.find((user: { email: string }) => user.email === email).role, 'viewer');

    // The last owner cannot demote themselves: the API's reason is shown.
    await page.getByRole('combobox', { name: 'Role: owner@people.example' }).selectOption('editor');
    await page.getByText(/is the contract's last owner and cannot be demoted/).waitFor();
    assert.equal(
      await page.getByRole('combobox', { name: 'Role: owner@people.example' }).inputValue(),
      'owner',
    );

    // One session of the user ends; their next step asks them to sign in again.
    await page.getByRole('button', { name: `Sessions of ${email}` }).click();
    const sessions = page.getByRole('list', { name: `Sessions of ${email}` });
    await sessions.getByRole('listitem').first().waitFor();
    assert.equal(await sessions.getByRole('listitem').count(), 1);
    await sessions.getByRole('button', { name: new RegExp(`^End the session of ${email}`) }).click();
    await page.getByText(`${email} has no session now.`).waitFor();
    await invited.page.getByRole('link', { name: email }).click();
    await invited.page.getByText('Your session has ended').waitFor();

    await page.getByRole('button', { name: `Remove: ${email}` }).click();
    await page
      .getByRole('dialog', { name: 'Remove this user?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByText(`${email} was removed.`).waitFor();
    await page.getByRole('cell', { name: email, exact: true }).waitFor({ state: 'detached' });

    await page
      .getByRole('navigation', { name: 'Console navigation' })
      .getByRole('link', { name: 'Audit log' })
      .click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const accepted = page.getByRole('row').filter({ hasText: 'accept' });
    await accepted.getByText('new.editor@people.example').waitFor();
    const revoked = page.getByRole('row').filter({ hasText: 'revoke' }).first();
    await revoked.getByText('owner@people.example').waitFor();
    const signedIn = page.getByRole('row').filter({ hasText: 'sign_in' }).filter({ hasText: email });
    await signedIn.first().waitFor();
    await page
      .getByRole('row')
      .filter({ hasText: 'delete' })
      .filter({ hasText: 'account' })
      .first()
      .waitFor();
    await assertAccessible(page, 'the audit log page');
    assert.deepEqual(pageErrors, []);
  });

  test('an editor reads the users without controls; the API refuses the invitation and the audit log', async () => {
    const tenant = await suite.tenant('people-editor');
    await suite.account(tenant.contractId, 'editor@people.example', 'editor');
    const { page } = await suite.signIn('editor@people.example', {
      path: `/contracts/${tenant.contractId}/users`,
    });
    await page.getByRole('cell', { name: 'editor@people.example', exact: true }).waitFor();
    await page.getByText('Only owners invite users').waitFor();
    assert.equal(
      await page.getByRole('button', { name: /Create invitation|Sign out everywhere/ }).count(),
      0,
    );
    assert.equal(await page.getByRole('link', { name: 'Audit log' }).count(), 0);
    const statuses = await page.evaluate(async (contractId) => {
      const session = (await (await fetch('/admin/v1/session')).json()) as { csrf_token: string };
      const invite = await fetch(`/admin/v1/contracts/${contractId}/invitations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-kumo-csrf-token': session.csrf_token },
        body: JSON.stringify({ email: 'friend@people.example', role: 'owner' }),
      });
      const audit = await fetch(`/admin/v1/contracts/${contractId}/audit_log`);
      return [invite.status, audit.status];
    }, tenant.contractId);
    assert.deepEqual(statuses, [403, 403]);
  });
});
