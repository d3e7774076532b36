/**
 * The setup every console test file shares (docs/console.md): one `kumo serve` on loopback with a
 * known admin token and a clock the test can move, one Debian Chromium per file, a fresh browser
 * context per test, and the operator's calls a test needs to set the scene (contracts, service
 * groups, invitations) through the documented management API.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before } from 'node:test';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { systemClock } from '../../src/util/index.js';
import { startTestService, type StartTestServiceOptions, type TestService } from './service-harness.js';
import { startedTogether } from './started-together.js';
import { launchWidgetBrowser, type WidgetBrowser } from './widget-browser.js';
import { assertNoSeriousViolations, seriousAxeViolations } from './widget-driver.js';

export const CONSOLE_ADMIN_TOKEN = 'console-test-admin-token-0123456789';
export const CONSOLE_PASSWORD = 'correct horse battery staple';

export interface OperatorAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are inspected loosely
  json: any;
}

export interface ConsoleTenant {
  contractId: number;
  groupId: number;
  /** `/contracts/{c}/servicegroups/{g}` under /admin/v1. */
  groupPath: string;
}

export interface OpenedConsole {
  context: BrowserContext;
  page: Page;
  /** Errors the page threw or logged. */
  pageErrors: string[];
}

export interface ConsoleSuite {
  kumo: TestService;
  browser: WidgetBrowser;
  /** The service's clock: the system clock moved forward by `offsetMicros`. */
  clock: { offsetMicros: number; nowMicros(): number };
  /** A call to /admin/v1 with the operator's bearer token; answers status and JSON. */
  operator(method: string, path: string, body?: unknown): Promise<OperatorAnswer>;
  /** A new contract with one service group. */
  tenant(name: string): Promise<ConsoleTenant>;
  /** Invites `email` into the contract with `role`; answers the accept URL (token in its fragment). */
  invite(contractId: number, email: string, role: 'viewer' | 'editor' | 'owner'): Promise<string>;
  /** Invites and accepts through the API: an account ready to sign in with CONSOLE_PASSWORD. */
  account(contractId: number, email: string, role: 'viewer' | 'editor' | 'owner'): Promise<void>;
  /** A new context and page (1280×900 unless told) that records page errors. */
  open(options?: BrowserContextOptions): Promise<OpenedConsole>;
  /** Opens the console's sign-in page and signs in; waits for the signed-in frame. */
  signIn(email: string, options?: BrowserContextOptions & { path?: string }): Promise<OpenedConsole>;
  /** The console address of an inside path. */
  url(path: string): string;
}

/** Registers the file's hooks; the returned object is filled in by `before`. */
export function consoleSuite(options: StartTestServiceOptions = {}): ConsoleSuite {
  const suite = {} as ConsoleSuite;
  const clock = { offsetMicros: 0, nowMicros: () => systemClock.nowMicros() + clock.offsetMicros };
  suite.clock = clock;
  before(async () => {
    const [kumo, browser] = await startedTogether(
      startTestService({
        clock,
        ...options,
        overrides: { adminToken: CONSOLE_ADMIN_TOKEN, ...options.overrides },
      }),
      launchWidgetBrowser(),
    );
    suite.kumo = kumo;
    suite.browser = browser;
  });
  afterEach(async () => {
    clock.offsetMicros = 0;
    await suite.browser?.closeContexts();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.kumo?.close();
  });

  suite.url = (path) => `${suite.kumo.url}/console${path}`;
  suite.operator = async (method, path, body) => {
    const response = await fetch(`${suite.kumo.url}/admin/v1${path}`, {
      method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${CONSOLE_ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
  };
  const expectOk = (answer: OperatorAnswer, what: string) => {
    assert.equal(answer.status, 200, `${what}: ${JSON.stringify(answer.json)}`);
    return answer.json;
  };
  suite.tenant = async (name) => {
    const contract = expectOk(await suite.operator('POST', '/contracts', { name }), 'create contract');
    const contractId = contract.contract_id as number;
    const group = expectOk(
      await suite.operator('POST', `/contracts/${contractId}/servicegroups`, { name: `${name} web` }),
      'create service group',
    );
    const groupId = group.servicegroup_id as number;
    return { contractId, groupId, groupPath: `/contracts/${contractId}/servicegroups/${groupId}` };
  };
  suite.invite = async (contractId, email, role) => {
    const answer = expectOk(
      await suite.operator('POST', `/contracts/${contractId}/invitations`, { email, role }),
      'invite',
    );
    return answer.accept_url as string;
  };
  suite.account = async (contractId, email, role) => {
    const acceptUrl = await suite.invite(contractId, email, role);
    const token = new URLSearchParams(new URL(acceptUrl).hash.slice(1)).get('token');
    const response = await fetch(`${suite.kumo.url}/admin/v1/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ token, password: CONSOLE_PASSWORD }),
    });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    // Accepting signs the account in: that session is ended here, so the session a test's
    // browser signs in with is the account's only one.
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
    const signOut = await fetch(`${suite.kumo.url}/admin/v1/session`, {
      method: 'DELETE',
      headers: {
        accept: 'application/json',
        cookie,
        origin: suite.kumo.url,
        'x-kumo-csrf-token': (JSON.parse(text) as { csrf_token: string }).csrf_token,
      },
    });
    assert.equal(signOut.status, 200, await signOut.text());
  };
  suite.open = async (contextOptions) => {
    const { context, page } = await suite.browser.newPage(contextOptions);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        pageErrors.push(message.text());
      }
    });
    return { context, page, pageErrors };
  };
  suite.signIn = async (email, signInOptions = {}) => {
    const { path = '/', ...contextOptions } = signInOptions;
    const opened = await suite.open(contextOptions);
    const { page } = opened;
    await page.goto(suite.url(path));
    await page.getByLabel(/^(Email address|メールアドレス)$/).fill(email);
    await page.getByLabel(/^(Password|パスワード)$/).fill(CONSOLE_PASSWORD);
    await page.getByRole('button', { name: /^(Sign in|サインイン)$/ }).click();
    await page.locator('.shell').waitFor();
    return opened;
  };
  return suite;
}

/** Runs axe-core on the page as it is and fails on any serious or critical violation. */
export async function assertAccessible(page: Page, where: string): Promise<void> {
  assertNoSeriousViolations(await seriousAxeViolations(page), where);
}
