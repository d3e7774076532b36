/**
 * A person's first steps in the console, in real Chromium against a real `kumo serve`
 * (docs/console.md): an operator's invitation link, choosing a password, signing in, the account
 * page, the language switch, signing out, a session that ends while the page is open, and a
 * wrong password.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertAccessible, CONSOLE_PASSWORD, consoleSuite } from '../support/console-suite.js';

const suite = consoleSuite();
const HOUR_MICROS = 3600 * 1_000_000;

describe('console sign-in', () => {
  test('an invited owner opens the link, sets a password and lands signed in on the overview', async () => {
    const tenant = await suite.tenant('acme');
    const acceptUrl = await suite.invite(tenant.contractId, 'owner@acme.example', 'owner');
    assert.match(acceptUrl, /\/console\/invitation#token=/);
    const { page, pageErrors } = await suite.open();
    await page.goto(acceptUrl);
    await page.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    await assertAccessible(page, 'the invitation page');

    // Too short: the API's reason, next to the field.
    await page.getByLabel('New password').fill('short');
    await page.getByLabel('Repeat the password').fill('short');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page
      .locator('.field-error')
      .filter({ hasText: /12 characters/ })
      .waitFor();
    assert.equal(await page.getByLabel('New password').getAttribute('aria-invalid'), 'true');

    await page.getByLabel('New password').fill(CONSOLE_PASSWORD);
    await page.getByLabel('Repeat the password').fill(CONSOLE_PASSWORD);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    assert.equal(new URL(page.url()).hash, '', 'the spent token left the address');
    assert.equal(
      new URL(page.url()).pathname,
      `/console/contracts/${tenant.contractId}/groups/${tenant.groupId}`,
    );
    await assertAccessible(page, 'the overview');
    assert.deepEqual(pageErrors, []);
  });

  test('a used invitation link says why it cannot be used again', async () => {
    const tenant = await suite.tenant('reuse');
    const acceptUrl = await suite.invite(tenant.contractId, 'reuse@acme.example', 'viewer');
    const { page } = await suite.open();
    for (const attempt of [1, 2]) {
      await page.goto(acceptUrl);
      await page.getByLabel('New password').fill(CONSOLE_PASSWORD);
      await page.getByLabel('Repeat the password').fill(CONSOLE_PASSWORD);
      await page.getByRole('button', { name: 'Create my account' }).click();
      if (attempt === 1) await page.getByRole('heading', { name: 'Overview' }).waitFor();
    }
    await page.getByRole('alert').filter({ hasText: 'the invitation was already used' }).waitFor();
  });

  test('a wrong password is refused with the API message and the form stays filled', async () => {
    const tenant = await suite.tenant('wrong');
    await suite.account(tenant.contractId, 'wrong@acme.example', 'editor');
    const { page } = await suite.open();
    await page.goto(suite.url('/'));
    await page.getByLabel('Email address').fill('wrong@acme.example');
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'the email address or the password is not right' })
      .waitFor();
    assert.equal(await page.getByLabel('Email address').inputValue(), 'wrong@acme.example');
  });

  test('Japanese from the browser, English by choice, remembered after a reload', async () => {
    const tenant = await suite.tenant('lang');
    await suite.account(tenant.contractId, 'lang@acme.example', 'viewer');
    const { page } = await suite.signIn('lang@acme.example', { locale: 'ja-JP' });
    await page.getByRole('heading', { name: '概要' }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'ja');
    await page.getByLabel('言語').selectOption('en');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  });

  test('the account page changes the password and lists the sessions; sign-out ends the session', async () => {
    const tenant = await suite.tenant('account');
    await suite.account(tenant.contractId, 'me@acme.example', 'editor');
    const { page } = await suite.signIn('me@acme.example');
    await page.getByRole('link', { name: 'me@acme.example' }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    // The sessions are read after the page shows: wait for the table before counting its rows.
    const thisSession = page.getByRole('cell', { name: 'This session', exact: true });
    await thisSession.first().waitFor();
    assert.equal(await thisSession.count(), 1);
    await assertAccessible(page, 'the account page');

    await page.getByLabel('Current password').fill('not the current one');
    await page.getByLabel('New password').fill('another long passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page
      .locator('.field-error')
      .filter({ hasText: /not the current/ })
      .waitFor();
    await page.getByLabel('Current password').fill(CONSOLE_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Kumo' }).waitFor();
    await page.goto(suite.url('/account'));
    await page.getByRole('heading', { name: 'Sign in to Kumo' }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('next'), '/account');
  });

  test('a session that ends while the page is open asks to sign in again, then returns to the page', async () => {
    const tenant = await suite.tenant('expiry');
    await suite.account(tenant.contractId, 'idle@acme.example', 'viewer');
    const { page } = await suite.signIn('idle@acme.example');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // The overview's reads have all answered: only the click below meets the ended session.
    for (const text of [
      'No run is waiting or running.',
      'No run has ended yet.',
      'No crawl setting is scheduled.',
      'No search service yet.',
    ])
      await page.getByText(text).waitFor();
    suite.clock.offsetMicros = 3 * HOUR_MICROS;
    await page.getByRole('link', { name: 'idle@acme.example' }).click();
    await page.getByText('Your session has ended').waitFor();
    suite.clock.offsetMicros = 0;
    await page.getByLabel('Email address').fill('idle@acme.example');
    await page.getByLabel('Password').fill(CONSOLE_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
  });

  test('on a phone the navigation folds behind the menu button', async () => {
    const tenant = await suite.tenant('phone');
    await suite.account(tenant.contractId, 'phone@acme.example', 'viewer');
    const { page } = await suite.signIn('phone@acme.example', { viewport: { width: 375, height: 740 } });
    const nav = page.getByRole('navigation', { name: 'Console navigation' });
    assert.equal(await nav.isVisible(), false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Overview' }).waitFor();
    const width = await page.evaluate(
      () =>
        (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
          .documentElement.scrollWidth,
    );
    assert.ok(width <= 375, `no sideways scrolling on a phone (page is ${width} px wide)`);
  });
});
