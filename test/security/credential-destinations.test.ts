/**
 * A stored Basic password goes only to the hosts it was entered for (docs/security.md, Stored
 * passwords). A management PUT that sends the password back as `********` keeps it only when the
 * hosts it may be sent to are unchanged; every way of widening them (other seeds, another or no
 * url_pattern, new allow patterns, a listed sitemap elsewhere, rendered pages) is refused with a
 * 400 naming the password, and the run that follows never sends the password to a listener on
 * another loopback host. An update that keeps the hosts keeps the password, and its crawl, led to
 * the other host by a link, a redirect and a robots.txt redirect, sends it only to its own host.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { after, before, test } from 'node:test';
import { REDACTED } from '../../src/domain/index.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import {
  type InjectResult,
  pollUntil,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
} from '../support/service-harness.js';

const SETTINGS = '/admin/v1/contracts/1/servicegroups/1/service_settings';
const SCHEDULE = { interval: 0 };
const USER = 'crawler';
const PASSWORD = 'Stored-Pa55word-e81d';
const HEADER = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
const PASSWORD_FIELD = 'body.setting.authorizations[0].password';
const HOSTS_CHANGED = /^the hosts this password may be sent to changed \(.+\); enter the password again$/;

/** A loopback server that records the path and Authorization header of every request. */
interface RecordingSite extends LocalServer {
  requests: { path: string; authorization: string | undefined }[];
}

async function startRecordingSite(
  host: string,
  answer: (path: string, response: ServerResponse) => void,
): Promise<RecordingSite> {
  const requests: RecordingSite['requests'] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '/';
    requests.push({ path, authorization: request.headers.authorization });
    answer(path, response);
  });
  return { ...(await listenLocally(server, host)), requests };
}

const page = (response: ServerResponse, body: string) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(`<!doctype html><html><head><title>page</title></head><body>${body}</body></html>`);
};

let kumo: TestService;
/** The site the password was entered for, on 127.0.0.1. */
let site: RecordingSite;
/** A listener on another host, 127.0.0.2, where the password must never arrive. */
let elsewhere: RecordingSite;

before(async () => {
  elsewhere = await startRecordingSite('127.0.0.2', (_path, response) => page(response, 'elsewhere'));
  site = await startRecordingSite('127.0.0.1', (path, response) => {
    // Every way the site leads the crawler to the other host: a link, a redirect of a page and
    // a redirect of robots.txt.
    if (path === '/robots.txt' || path === '/go') {
      response.writeHead(302, { location: `${elsewhere.baseUrl}/private${path}` });
      response.end();
      return;
    }
    page(response, `<a href="${elsewhere.baseUrl}/private/linked">away</a> <a href="/private/own">own</a>`);
  });
  kumo = await startTestService();
});

after(async () => {
  await kumo?.close();
  await site?.close();
  await elsewhere?.close();
});

function admin(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<InjectResult> {
  return kumo.inject({
    method,
    url,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

type Setting = Record<string, unknown>;

const baseSetting = (urlPattern?: string): Setting => ({
  seed_urls: [`${site.baseUrl}/`],
  depth_limit: 1,
  robots_txt: false,
  authorizations: [
    {
      type: 'BASIC',
      user: USER,
      password: PASSWORD,
      ...(urlPattern === undefined ? {} : { url_pattern: urlPattern }),
    },
  ],
});

/** Creates the setting and reads it back as a GET shows it: the password reads `********`. */
async function createAndRead(setting: Setting): Promise<{ id: number; shown: Setting }> {
  const created = await admin('POST', SETTINGS, { name: 'protected', setting, schedule: SCHEDULE });
  assert.equal(created.statusCode, 200, created.body);
  const id = created.json.service_setting_id as number;
  const read = await admin('GET', `${SETTINGS}/${id}`);
  const shown = read.json.service_setting.setting as Setting;
  assert.equal((shown.authorizations as { password: string }[])[0]!.password, REDACTED);
  return { id, shown };
}

const storedPassword = async (id: number) =>
  (await kumo.service.store.serviceSettings.get(id))?.setting.authorizations?.[0]?.password;

/** Runs the stored setting to its end. */
async function runToEnd(id: number): Promise<void> {
  const run = await admin('POST', `${SETTINGS}/${id}/run`);
  assert.equal(run.statusCode, 200, run.body);
  const runId = run.json.run_id as number;
  await pollUntil(
    `run ${runId} to end`,
    async () => {
      const state = await kumo.service.store.runs.getRun(runId);
      return state !== undefined && state.endMicros !== null ? state : undefined;
    },
    20_000,
  );
}

const passwordsElsewhere = () => elsewhere.requests.filter((request) => request.authorization === HEADER);

/** The allow pattern of both loopback sites. */
const bothHosts = () =>
  `^http://127\\.0\\.0\\.(1:${new URL(site.baseUrl).port}|2:${new URL(elsewhere.baseUrl).port})/`;

/** A url_pattern naming no host: it matches /private/ on any host the crawl reaches. */
const ANY_HOST_PATTERN = '/private/';

/** A url_pattern naming the own site: its /private/ pages only. */
const ownPrivatePages = () => `^${site.baseUrl.replaceAll('.', '\\.')}/private/`;

/** One way an editor who does not know the password could try to send it elsewhere. */
interface Widening {
  name: string;
  /** The url_pattern the password was entered with; none when absent. */
  urlPattern?: () => string;
  /** More of the setting as stored, beside the seed and the password. */
  stored?: () => Setting;
  /** The stored setting, as a GET shows it, edited to widen the hosts. */
  widen: (shown: Setting) => Setting;
  /** The setting is run after the refused PUT (not where a run needs a browser). */
  runs: boolean;
}

const widenings: Widening[] = [
  {
    name: 'seeds moved to another host',
    widen: (shown) => ({ ...shown, seed_urls: [`${elsewhere.baseUrl}/private/`] }),
    runs: true,
  },
  {
    name: 'a seed added on another host',
    widen: (shown) => ({ ...shown, seed_urls: [`${site.baseUrl}/`, `${elsewhere.baseUrl}/private/`] }),
    runs: true,
  },
  {
    name: 'a seed moved to another port of the same host',
    widen: (shown) => ({
      ...shown,
      seed_urls: [`${elsewhere.baseUrl.replace('127.0.0.2', '127.0.0.1')}/`],
    }),
    runs: false,
  },
  {
    name: 'url_pattern changed to match any host',
    urlPattern: ownPrivatePages,
    widen: (shown) => withPattern(shown, ANY_HOST_PATTERN),
    runs: true,
  },
  {
    name: 'url_pattern removed, seeds elsewhere',
    urlPattern: ownPrivatePages,
    widen: (shown) => ({ ...withPattern(shown, null), seed_urls: [`${elsewhere.baseUrl}/private/`] }),
    runs: true,
  },
  {
    name: 'an allow pattern added that reaches another host',
    urlPattern: () => ANY_HOST_PATTERN,
    widen: (shown) => ({ ...shown, allow_urls_patterns: [bothHosts()] }),
    runs: true,
  },
  {
    name: 'a deny pattern removed',
    urlPattern: () => ANY_HOST_PATTERN,
    // The deny pattern kept the other host out.
    stored: () => ({ allow_urls_patterns: [bothHosts()], deny_urls_patterns: ['^http://127\\.0\\.0\\.2'] }),
    widen: (shown) => ({ ...shown, deny_urls_patterns: null }),
    runs: true,
  },
  {
    name: 'a sitemap listed on another host',
    urlPattern: () => ANY_HOST_PATTERN,
    widen: (shown) => ({ ...shown, sitemap_urls: [`${elsewhere.baseUrl}/private/sitemap.xml`] }),
    runs: true,
  },
  {
    name: 'pages rendered (their requests may go to any host)',
    urlPattern: () => ANY_HOST_PATTERN,
    widen: (shown) => ({ ...shown, wait_type: 2 }),
    // Rendering needs a browser; the refusal alone is the point.
    runs: false,
  },
];

function withPattern(setting: Setting, urlPattern: string | null): Setting {
  const [entry] = setting.authorizations as Setting[];
  return { ...setting, authorizations: [{ ...entry, url_pattern: urlPattern }] };
}

for (const widening of widenings) {
  test(`${widening.name}: ******** is refused and the password never reaches the other host`, async () => {
    const { id, shown } = await createAndRead({
      ...baseSetting(widening.urlPattern?.()),
      ...widening.stored?.(),
    });
    const put = await admin('PUT', `${SETTINGS}/${id}`, {
      setting: widening.widen(shown),
      schedule: SCHEDULE,
    });
    assert.equal(put.statusCode, 400, put.body);
    assert.equal(put.json.errors.length, 1, put.body);
    assert.equal(put.json.errors[0].field, PASSWORD_FIELD);
    assert.match(put.json.errors[0].reason, HOSTS_CHANGED);
    assert.ok(!put.body.includes(PASSWORD));
    assert.equal(await storedPassword(id), PASSWORD, 'a refused PUT changes nothing');
    if (widening.runs) await runToEnd(id);
    assert.deepEqual(passwordsElsewhere(), [], 'no request to the other host carried the password');
  });
}

test('the refusal says which hosts changed', async () => {
  const { id, shown } = await createAndRead(baseSetting());
  const put = await admin('PUT', `${SETTINGS}/${id}`, {
    setting: { ...shown, seed_urls: [`${elsewhere.baseUrl}/`] },
    schedule: SCHEDULE,
  });
  assert.equal(put.statusCode, 400, put.body);
  assert.equal(
    put.json.errors[0].reason,
    `the hosts this password may be sent to changed (seed sites: ${site.baseUrl} → ${elsewhere.baseUrl}); ` +
      'enter the password again',
  );
});

test('the password given again is taken for the new hosts', async () => {
  const { id, shown } = await createAndRead(baseSetting());
  const moved = { ...shown, seed_urls: [`${site.baseUrl}/`, `${elsewhere.baseUrl}/private/given`] };
  const [entry] = shown.authorizations as Setting[];
  const put = await admin('PUT', `${SETTINGS}/${id}`, {
    setting: { ...moved, authorizations: [{ ...entry, password: 'a-new-password' }] },
    schedule: SCHEDULE,
  });
  assert.equal(put.statusCode, 200, put.body);
  assert.equal(await storedPassword(id), 'a-new-password');
});

test('an update that keeps the hosts keeps the password; links and redirects to another host never carry it', async () => {
  const { id, shown } = await createAndRead(baseSetting());
  const siteBefore = site.requests.length;
  const elsewhereBefore = elsewhere.requests.length;
  // Same seed site, another path; the crawl may now reach the other host, and robots.txt is read.
  const edited = {
    ...shown,
    seed_urls: [`${site.baseUrl}/`, `${site.baseUrl}/go`],
    allow_urls_patterns: [bothHosts()],
    robots_txt: true,
  };
  const put = await admin('PUT', `${SETTINGS}/${id}`, { setting: edited, schedule: SCHEDULE });
  assert.equal(put.statusCode, 200, put.body);
  assert.equal(await storedPassword(id), PASSWORD, 'the stored password is kept');
  await runToEnd(id);

  const siteRequests = site.requests.slice(siteBefore);
  const reached = elsewhere.requests.slice(elsewhereBefore).map((request) => request.path);
  assert.ok(
    siteRequests.some((request) => request.path === '/' && request.authorization === HEADER),
    'the own site got the kept password',
  );
  // The crawl did reach the other host, by each of the three ways, without the password.
  for (const path of ['/private/linked', '/private/go', '/private/robots.txt']) {
    assert.ok(reached.includes(path), `${path} was requested: ${reached.join(', ')}`);
  }
  assert.deepEqual(passwordsElsewhere(), []);
});
