/**
 * The operator's console sessions in the console, in real Chromium against a real `kumo serve`
 * (docs/console.md, Operator pages): the operator signed in on two browsers lists both sessions,
 * this one marked, ends the other, which is back at the sign-in page at its next load; the page
 * reads in Japanese too.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContextOptions } from 'playwright-core';
import {
  assertAccessible,
  CONSOLE_ADMIN_TOKEN,
  consoleSuite,
  type OpenedConsole,
} from '../support/console-suite.js';

const suite = consoleSuite();

async function operatorSignIn(options: BrowserContextOptions): Promise<OpenedConsole> {
  const opened = await suite.open(options);
  const { page } = opened;
  await page.goto(suite.url('/'));
  await page.getByText('Operator? Sign in with the admin token').click();
  await page.getByLabel('Admin token').fill(CONSOLE_ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in as the operator' }).click();
  await page.getByRole('heading', { name: 'Contracts', level: 1 }).waitFor();
  return opened;
}

describe('console operator sessions', () => {
  test('the operator lists the sessions of the admin token and signs out another browser', async () => {
    const desk = await operatorSignIn({ userAgent: 'Desk browser' });
    const laptop = await operatorSignIn({ userAgent: 'Laptop browser' });
    const { page } = desk;

    await page
      .getByRole('navigation', { name: 'Console navigation' })
      .getByRole('link', { name: 'Operator sessions' })
      .click();
    await page.getByRole('heading', { name: 'Operator sessions', level: 1 }).waitFor();
    assert.match(page.url(), /\/console\/operator\/sessions$/);
    const deskRow = page.getByRole('row').filter({ hasText: 'Desk browser' });
    const laptopRow = page.getByRole('row').filter({ hasText: 'Laptop browser' });
    await deskRow.getByText('This session').waitFor();
    assert.equal(await deskRow.getByRole('button').count(), 0, 'this session is not ended from here');
    await assertAccessible(page, 'the operator sessions page');

    const listed = await suite.operator('GET', '/operator_session/sessions');
    const laptopId = (listed.json.sessions as { id: number; user_agent: string }[]).find(
      (row) => row.user_agent === 'Laptop browser',
    )!.id;
    await laptopRow.getByRole('button', { name: 'Sign out this session' }).click();
    await page.getByRole('status').getByText(`Operator session ${laptopId} is signed out.`).waitFor();
    await laptopRow.waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('row').count(), 2, 'the header and this session');

    // The laptop is signed out: its next load shows the sign-in page.
    await laptop.page.reload();
    await laptop.page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    const refused = await laptop.page.evaluate(async () => (await fetch('/admin/v1/contracts/usage')).status);
    assert.equal(refused, 401);

    // In Japanese: a browser whose language is Japanese, with the desk's session.
    const japanese = await suite.open({ locale: 'ja-JP' });
    await japanese.context.addCookies(await desk.context.cookies());
    await japanese.page.goto(suite.url('/operator/sessions'));
    await japanese.page.getByRole('heading', { name: 'オペレーターのセッション', level: 1 }).waitFor();
    const deskInJapanese = japanese.page.getByRole('row').filter({ hasText: 'Desk browser' });
    await deskInJapanese.getByText('このセッション').waitFor();
    assert.deepEqual(japanese.pageErrors, []);
    assert.deepEqual(desk.pageErrors, []);
    assert.deepEqual(laptop.pageErrors, []);
  });
});
