/**
 * Answers that show stored settings never show their passwords: the management API's crawl
 * service settings (GET one, list, PUT's answer) read `********`, and a PUT of `********` keeps
 * the stored password, so GET, edit, PUT round trips, and the kept password is the one a run
 * then crawls with. The instant crawl API does not echo the setting at all.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import path from 'node:path';
import { REDACTED } from '../../src/domain/index.js';
import {
  type InjectResult,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
} from '../support/service-harness.js';
import { type BasicAuthSite, SITE_PASSWORD, SITE_USER, startBasicAuthSite } from './basic-auth-site.js';

const SETTINGS = '/admin/v1/contracts/1/servicegroups/1/service_settings';
const SCHEDULE = { interval: 0 };
let kumo: TestService;
let site: BasicAuthSite;

before(async () => {
  site = await startBasicAuthSite();
  kumo = await startTestService();
});

after(async () => {
  await kumo?.close();
  await site?.close();
});

function admin(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<InjectResult> {
  return kumo.inject({
    method,
    url,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

const settingWith = (password: string | null, user = SITE_USER) => ({
  seed_urls: [`${site.baseUrl}/plain.html`],
  depth_limit: 0,
  robots_txt: false,
  authorizations: [{ type: 'BASIC', user, password }],
});

/** The password the store holds for the setting (what a run crawls with). */
const storedPassword = async (id: number) =>
  (await kumo.service.store.serviceSettings.get(id))?.setting.authorizations?.[0]?.password;

async function createSetting(password: string): Promise<number> {
  const created = await admin('POST', SETTINGS, {
    name: 'auth',
    setting: settingWith(password),
    schedule: SCHEDULE,
  });
  assert.equal(created.statusCode, 200, created.body);
  return created.json.service_setting_id as number;
}

test('GET of one setting and the list show passwords as ********', async () => {
  const id = await createSetting(SITE_PASSWORD);
  const one = await admin('GET', `${SETTINGS}/${id}`);
  assert.equal(one.statusCode, 200, one.body);
  assert.deepEqual(one.json.service_setting.setting.authorizations, [
    { type: 'BASIC', user: SITE_USER, password: REDACTED },
  ]);
  const list = await admin('GET', SETTINGS);
  assert.equal(list.statusCode, 200, list.body);
  const listed = (list.json.service_settings as { id: number; setting: { authorizations: unknown } }[]).find(
    (entry) => entry.id === id,
  );
  assert.deepEqual(listed?.setting.authorizations, [{ type: 'BASIC', user: SITE_USER, password: REDACTED }]);
  for (const body of [one.body, list.body]) assert.ok(!body.includes(SITE_PASSWORD));
  assert.equal(await storedPassword(id), SITE_PASSWORD, 'the store still has it');
  // ... encrypted in the database file.
  const db = new Database(path.join(kumo.dataDir, 'kumo.db'), { readonly: true });
  const json = db
    .prepare<[number], string>('SELECT setting_json FROM service_settings WHERE id = ?')
    .pluck()
    .get(id);
  db.close();
  assert.ok(json !== undefined && !json.includes(SITE_PASSWORD) && json.includes('"password":"v1:'));
});

test('GET, edit, PUT: ******** keeps the stored password and a run crawls with it', async () => {
  const id = await createSetting(SITE_PASSWORD);
  const read = await admin('GET', `${SETTINGS}/${id}`);
  const view = read.json.service_setting as { name: string; setting: Record<string, unknown> };
  const edited = { ...view.setting, depth_limit: 1 };
  const put = await admin('PUT', `${SETTINGS}/${id}`, {
    name: view.name,
    setting: edited,
    schedule: SCHEDULE,
  });
  assert.equal(put.statusCode, 200, put.body);
  assert.equal(
    put.json.service_setting.setting.authorizations[0].password,
    REDACTED,
    'the answer is redacted too',
  );
  assert.equal(put.json.service_setting.setting.depth_limit, 1);
  assert.ok(!put.body.includes(SITE_PASSWORD));
  assert.equal(await storedPassword(id), SITE_PASSWORD);

  const before = site.authorized.length;
  const run = await admin('POST', `${SETTINGS}/${id}/run`);
  assert.equal(run.statusCode, 200, run.body);
  assert.ok(!run.body.includes(SITE_PASSWORD));
  const runId = run.json.run_id as number;
  const finished = await pollFinished(runId);
  assert.equal(finished.crawledCount, 1, 'the page answered to the kept password');
  assert.ok(site.authorized.slice(before).includes('/plain.html'));
});

test('PUT with a new password replaces it; ******** with another user, other URLs or at a new position is refused', async () => {
  const id = await createSetting(SITE_PASSWORD);
  const put = (setting: unknown) => admin('PUT', `${SETTINGS}/${id}`, { setting, schedule: SCHEDULE });

  const changed = await put(settingWith('a-new-password'));
  assert.equal(changed.statusCode, 200, changed.body);
  assert.equal(await storedPassword(id), 'a-new-password');

  const otherUser = await put(settingWith(REDACTED, 'someone-else'));
  assert.equal(otherUser.statusCode, 400, otherUser.body);
  assert.equal(otherUser.json.errors[0].field, 'body.setting.authorizations[0].password');
  // The stored password never goes to other URLs than it was given for.
  const otherHosts = await put({
    ...settingWith(REDACTED),
    authorizations: [
      { type: 'BASIC', user: SITE_USER, password: REDACTED, url_pattern: '^https://elsewhere\\.example/' },
    ],
  });
  assert.equal(otherHosts.statusCode, 400, otherHosts.body);
  assert.equal(otherHosts.json.errors[0].field, 'body.setting.authorizations[0].password');
  const second = await put({
    ...settingWith(REDACTED),
    authorizations: [
      { type: 'BASIC', user: SITE_USER, password: REDACTED },
      { type: 'BASIC', user: SITE_USER, password: REDACTED },
    ],
  });
  assert.equal(second.statusCode, 400, second.body);
  assert.equal(second.json.errors[0].field, 'body.setting.authorizations[1].password');
  assert.equal(await storedPassword(id), 'a-new-password', 'a refused PUT changes nothing');

  const noPassword = await put(settingWith(null));
  assert.equal(noPassword.statusCode, 200, noPassword.body);
  assert.equal(await storedPassword(id), null);
  const nothingToKeep = await put(settingWith(REDACTED));
  assert.equal(nothingToKeep.statusCode, 400, nothingToKeep.body);
});

test('POST of a setting with ******** as password is refused: there is nothing stored to keep', async () => {
  const created = await admin('POST', SETTINGS, { setting: settingWith(REDACTED), schedule: SCHEDULE });
  assert.equal(created.statusCode, 400, created.body);
  assert.equal(created.json.errors[0].field, 'body.setting.authorizations[0].password');
});

test('the instant crawl API does not echo the setting: request, statuses and histories', async () => {
  const headers = { 'x-mf-apikey': kumo.apiKey, 'content-type': 'application/json' };
  const requested = await kumo.inject({
    method: 'POST',
    url: `${kumo.tenant.crawlerPath}/request`,
    headers,
    payload: JSON.stringify({ setting: settingWith(SITE_PASSWORD) }),
  });
  assert.equal(requested.statusCode, 200, requested.body);
  const requestId = requested.json.instant_crawl_request_id as number;
  const statuses = await kumo.inject({
    method: 'GET',
    url: `${kumo.tenant.crawlerPath}/statuses?instant_crawl_request_ids=${requestId}`,
    headers,
  });
  const history = await kumo.waitForFinished(requestId);
  assert.equal(history.crawled_url_count, 1, 'crawled with the password');
  const histories = await kumo.inject({
    method: 'GET',
    url: `${kumo.tenant.crawlerPath}/histories`,
    headers,
  });
  for (const answer of [requested, statuses, histories]) {
    assert.equal(answer.statusCode, 200, answer.body);
    assert.ok(!answer.body.includes(SITE_PASSWORD), answer.body);
    assert.ok(!answer.body.includes('authorizations'), answer.body);
  }
});

async function pollFinished(runId: number) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const run = await kumo.service.store.runs.getRun(runId);
    if (run && run.endMicros !== null) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
