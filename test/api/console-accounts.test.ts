/**
 * Console accounts and sessions over a real HTTP server on loopback (docs/api.md, Accounts and
 * sessions): invitations, sign-in and sign-out, the session cookie, CSRF, the sign-in limits,
 * session expiry on the service's clock, roles, contract isolation and the audit log.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent, fetch } from 'undici';
import { systemClock } from '../../src/util/index.js';
import { startTestService, type TestService } from '../support/service-harness.js';

const ADMIN_TOKEN = 'test-admin-token-0123456789';
const PASSWORD = 'correct horse battery';
const HOUR_MICROS = 3600 * 1_000_000;

/** The service's clock: the system clock moved forward by `offsetMicros`. */
const clock = { offsetMicros: 0, nowMicros: () => systemClock.nowMicros() + clock.offsetMicros };

let kumo: TestService;
/** The contract the accounts belong to, its service group path, and another contract. */
let acme: { contractId: number; groupPath: string };
let globex: { contractId: number; groupPath: string };
const agents: Agent[] = [];

interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are inspected loosely
  json: any;
}

interface CallOptions {
  body?: unknown;
  bearer?: boolean;
  session?: Session;
  /** The CSRF header: the session's by default, null for none. */
  csrf?: string | null;
  /** The Origin header: the service's by default on changes, null for none. */
  origin?: string | null;
  agent?: Agent;
}

interface Session {
  cookie: string;
  csrf: string;
}

async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.bearer) headers.authorization = `Bearer ${ADMIN_TOKEN}`;
  if (options.session) {
    headers.cookie = options.session.cookie;
    const csrf = options.csrf === undefined ? options.session.csrf : options.csrf;
    if (csrf !== null) headers['x-kumo-csrf-token'] = csrf;
  }
  const origin = options.origin === undefined && method !== 'GET' ? kumo.url : options.origin;
  if (origin !== undefined && origin !== null) headers.origin = origin;
  const response = await fetch(`${kumo.url}/admin/v1${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.agent === undefined ? {} : { dispatcher: options.agent }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, headers: response.headers, json };
}

const operator = (method: string, path: string, body?: unknown) => call(method, path, { body, bearer: true });

function expect(answer: Answer, status: number): Answer {
  assert.equal(answer.status, status, JSON.stringify(answer.json));
  return answer;
}

async function invite(contractId: number, email: string, role: string): Promise<string> {
  const answer = expect(await operator('POST', `/contracts/${contractId}/invitations`, { email, role }), 200);
  return answer.json.token as string;
}

async function signIn(email: string, password = PASSWORD, agent?: Agent): Promise<Answer> {
  return call('POST', '/session', { body: { email, password }, agent });
}

/** A new account of the contract with `role`, signed in by accepting its invitation. */
async function userWith(contractId: number, email: string, role: string): Promise<Session> {
  const token = await invite(contractId, email, role);
  return sessionOf(
    expect(await call('POST', '/invitations/accept', { body: { token, password: PASSWORD } }), 200),
  );
}

function sessionOf(answer: Answer): Session {
  const setCookie = answer.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0]!, csrf: answer.json.csrf_token as string };
}

async function tenantOf(name: string): Promise<{ contractId: number; groupPath: string }> {
  const contract = expect(await operator('POST', '/contracts', { name }), 200);
  const contractId = contract.json.contract_id as number;
  const group = expect(
    await operator('POST', `/contracts/${contractId}/servicegroups`, { name: 'web' }),
    200,
  );
  return { contractId, groupPath: `/contracts/${contractId}/servicegroups/${group.json.servicegroup_id}` };
}

before(async () => {
  kumo = await startTestService({ clock, overrides: { adminToken: ADMIN_TOKEN } });
  acme = await tenantOf('acme');
  globex = await tenantOf('globex');
});

after(async () => {
  for (const agent of agents) await agent.close();
  await kumo?.close();
});

describe('invitation, sign-in, a call, sign-out', () => {
  test('an invited user sets a password, signs in, calls the API and signs out', async () => {
    const token = await invite(acme.contractId, 'Alice@Example.com', 'owner');
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    const short = await call('POST', '/invitations/accept', { body: { token, password: 'short' } });
    expect(short, 400);
    assert.equal(short.json.errors[0].field, 'body.password');
    assert.match(short.json.errors[0].reason, /at least 12 characters/);
    const accepted = expect(
      await call('POST', '/invitations/accept', { body: { token, password: PASSWORD } }),
      200,
    );
    assert.equal(accepted.json.account.email, 'alice@example.com');
    assert.equal(accepted.json.account.role, 'owner');

    const signedIn = expect(await signIn('alice@example.com'), 200);
    const cookie = signedIn.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^kumo_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/);
    assert.doesNotMatch(cookie, /Secure/, 'plain http without an https public URL: no Secure');
    const session = sessionOf(signedIn);
    assert.equal(typeof session.csrf, 'string');

    const current = expect(await call('GET', '/session', { session }), 200);
    assert.equal(current.json.account.email, 'alice@example.com');
    assert.equal(current.json.csrf_token, session.csrf);
    expect(await call('GET', `${acme.groupPath}/service_settings`, { session }), 200);

    expect(await call('DELETE', '/session', { session }), 200);
    const after = expect(await call('GET', '/session', { session }), 401);
    assert.match(after.json.message, /sign in again/);
  });

  test('a used or expired invitation is refused', async () => {
    const token = await invite(acme.contractId, 'bob@example.com', 'viewer');
    expect(await call('POST', '/invitations/accept', { body: { token, password: PASSWORD } }), 200);
    const again = expect(
      await call('POST', '/invitations/accept', { body: { token, password: PASSWORD } }),
      400,
    );
    assert.deepEqual(again.json.errors, [{ field: 'body.token', reason: 'the invitation was already used' }]);

    const late = await invite(acme.contractId, 'carol@example.com', 'viewer');
    clock.offsetMicros += 7 * 24 * HOUR_MICROS + 1_000_000;
    try {
      const expired = expect(
        await call('POST', '/invitations/accept', { body: { token: late, password: PASSWORD } }),
        400,
      );
      assert.deepEqual(expired.json.errors, [{ field: 'body.token', reason: 'the invitation has expired' }]);
    } finally {
      clock.offsetMicros = 0;
    }
    const unknown = expect(
      await call('POST', '/invitations/accept', { body: { token: 'x'.repeat(43), password: PASSWORD } }),
      400,
    );
    assert.equal(unknown.json.errors[0].reason, 'no such invitation');
  });

  test('an unknown account and a wrong password get the same answer in similar time', async () => {
    const timed = async (email: string) => {
      const started = performance.now();
      const answer = await signIn(email, 'not the password at all');
      return { answer, ms: performance.now() - started };
    };
    const unknown = await timed('nobody@example.com');
    const wrong = await timed('bob@example.com');
    expect(unknown.answer, 401);
    expect(wrong.answer, 401);
    assert.deepEqual(unknown.answer.json, wrong.answer.json);
    assert.equal(unknown.answer.headers.get('set-cookie'), null);
    // Both check a scrypt hash: neither answers at once (a lookup alone takes well under 5 ms).
    assert.ok(unknown.ms > wrong.ms / 4, `unknown ${unknown.ms} ms, wrong ${wrong.ms} ms`);
  });
});

describe('the sign-in limits', () => {
  test('the sixth failure of one account within 15 minutes is 429 with Retry-After, even with the right password', async () => {
    await userWith(acme.contractId, 'dave@example.com', 'viewer');
    for (let attempt = 0; attempt < 5; attempt++)
      expect(await signIn('dave@example.com', 'wrong password!'), 401);
    const limited = expect(await signIn('dave@example.com'), 429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After ${retryAfter}`);
    clock.offsetMicros += 15 * 60 * 1_000_000 + 1_000_000;
    try {
      expect(await signIn('dave@example.com'), 200);
    } finally {
      clock.offsetMicros = 0;
    }
  });

  test('one client address is limited after 20 failures over any accounts', async () => {
    const agent = new Agent({ localAddress: '127.0.0.2' });
    agents.push(agent);
    for (let n = 0; n < 20; n++) expect(await signIn(`guess${n}@example.com`, 'wrong password!', agent), 401);
    const limited = expect(await signIn('bob@example.com', PASSWORD, agent), 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    // Another address is not limited.
    expect(await signIn('bob@example.com'), 200);
  });
});

describe('accepting an invitation signs in', () => {
  test('the answer carries a session as sign-in does; past the sign-in limits the account is made without one', async () => {
    const agent = new Agent({ localAddress: '127.0.0.3' });
    agents.push(agent);
    const token = await invite(acme.contractId, 'fay@example.com', 'editor');
    const accepted = expect(
      await call('POST', '/invitations/accept', { body: { token, password: PASSWORD }, agent }),
      200,
    );
    assert.equal(accepted.json.signed_in, true);
    assert.equal(accepted.json.account.email, 'fay@example.com');
    assert.match(
      accepted.headers.get('set-cookie') ?? '',
      /^kumo_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/,
    );
    const session = sessionOf(accepted);
    const current = expect(await call('GET', '/session', { session }), 200);
    assert.equal(current.json.account.email, 'fay@example.com');
    assert.equal(current.json.csrf_token, accepted.json.csrf_token);
    assert.equal(current.json.operator, false);

    // Five failed sign-ins of the invited address: the account's limit holds for the new account.
    const second = await invite(acme.contractId, 'gus@example.com', 'viewer');
    for (let attempt = 0; attempt < 5; attempt++)
      expect(await signIn('gus@example.com', 'wrong password!', agent), 401);
    const limited = expect(
      await call('POST', '/invitations/accept', { body: { token: second, password: PASSWORD }, agent }),
      200,
    );
    assert.equal(limited.json.signed_in, false);
    assert.equal(limited.headers.get('set-cookie'), null);
    assert.match(
      limited.json.message,
      /sign in with its password \(too many failed sign-ins; try again in \d+ s\)/,
    );
    clock.offsetMicros += 15 * 60 * 1_000_000 + 1_000_000;
    try {
      expect(await signIn('gus@example.com', PASSWORD, agent), 200);
    } finally {
      clock.offsetMicros = 0;
    }
  });
});

describe('CSRF', () => {
  let owner: Session;
  before(async () => {
    owner = await userWith(acme.contractId, 'erin@example.com', 'owner');
  });
  const createKey = (options: CallOptions) =>
    call('POST', `${acme.groupPath}/api_keys`, { body: { label: 'k' }, session: owner, ...options });

  test('a change without the token, with a wrong one or from another origin is 403', async () => {
    expect(await createKey({ csrf: null }), 403);
    expect(await createKey({ csrf: 'wrong' }), 403);
    expect(await createKey({ origin: 'https://evil.example' }), 403);
    const noOrigin = expect(await createKey({ origin: null }), 403);
    assert.match(noOrigin.json.message, /Origin/);
  });

  test("the session's token and origin are accepted; the admin token needs neither", async () => {
    expect(await createKey({}), 200);
    expect(
      await call('POST', `${acme.groupPath}/api_keys`, { body: { label: 'op' }, bearer: true, origin: null }),
      200,
    );
  });

  test('sign-in from another origin is refused', async () => {
    expect(
      await call('POST', '/session', {
        body: { email: 'erin@example.com', password: PASSWORD },
        origin: 'https://evil.example',
      }),
      403,
    );
  });
});

describe('roles', () => {
  let viewer: Session;
  let editor: Session;
  let owner: Session;
  let ids: { service: number; setting: number; webhook: number; key: number; delivery: number };

  before(async () => {
    viewer = await userWith(acme.contractId, 'vic@example.com', 'viewer');
    editor = await userWith(acme.contractId, 'ed@example.com', 'editor');
    owner = await userWith(acme.contractId, 'olive@example.com', 'owner');
    const service = expect(
      await operator('POST', `${acme.groupPath}/search_services`, { name: 'site' }),
      200,
    );
    const setting = expect(
      await operator('POST', `${acme.groupPath}/service_settings`, {
        setting: { seed_urls: ['https://www.example.com/'] },
        schedule: { interval: 0 },
      }),
      200,
    );
    const webhook = expect(
      await operator('POST', `${acme.groupPath}/webhooks`, {
        url: 'https://hooks.example.com/x',
        secret: 's'.repeat(16),
      }),
      200,
    );
    const key = expect(await operator('POST', `${acme.groupPath}/api_keys`, { label: 'x' }), 200);
    ids = {
      service: service.json.service_id,
      setting: setting.json.service_setting_id,
      webhook: webhook.json.webhook_id,
      key: key.json.api_key_id,
      delivery: 1,
    };
  });

  /** Every changing call of a contract's resources. */
  const changes = () => {
    const g = acme.groupPath;
    const settingBody = { setting: { seed_urls: ['https://www.example.com/'] }, schedule: { interval: 0 } };
    return [
      ['POST', `/contracts/${acme.contractId}/servicegroups`, { name: 'x' }],
      ['POST', `${g}/api_keys`, { label: 'x' }],
      ['DELETE', `${g}/api_keys/${ids.key}`],
      ['POST', `${g}/search_services`, { name: 'x' }],
      ['PUT', `${g}/search_services/${ids.service}`, { config: {} }],
      ['POST', `${g}/service_settings`, settingBody],
      ['PUT', `${g}/service_settings/${ids.setting}`, settingBody],
      ['POST', `${g}/service_settings/${ids.setting}/run`],
      ['DELETE', `${g}/service_settings/${ids.setting}`],
      ['POST', `${g}/webhooks`, { url: 'https://hooks.example.com/y', secret: 's'.repeat(16) }],
      ['DELETE', `${g}/webhooks/${ids.webhook}`],
      ['POST', `${g}/webhooks/${ids.webhook}/deliveries/${ids.delivery}/replay`],
      ['POST', `/contracts/${acme.contractId}/invitations`, { email: 'z@example.com', role: 'viewer' }],
      ['DELETE', `/contracts/${acme.contractId}/users/1/sessions`],
      ['POST', '/contracts', { name: 'x' }],
    ] as const;
  };

  test('a viewer reads everything of its contract and changes nothing (403)', async () => {
    const g = acme.groupPath;
    for (const path of [
      `/contracts/${acme.contractId}`,
      `/contracts/${acme.contractId}/servicegroups`,
      `${g}/api_keys`,
      `${g}/search_services`,
      `${g}/search_services/${ids.service}`,
      `${g}/service_settings`,
      `${g}/service_settings/${ids.setting}`,
      `${g}/webhooks`,
      `/contracts/${acme.contractId}/users`,
    ]) {
      expect(await call('GET', path, { session: viewer }), 200);
    }
    for (const [method, path, body] of changes()) {
      const answer = await call(method, path, { session: viewer, body });
      assert.equal(answer.status, 403, `${method} ${path}: ${JSON.stringify(answer.json)}`);
    }
    expect(await call('GET', `/contracts/${acme.contractId}/audit_log`, { session: viewer }), 403);
  });

  test('an editor changes settings and search services but not keys, webhooks or users', async () => {
    const g = acme.groupPath;
    const created = await call('POST', `${g}/service_settings`, {
      session: editor,
      body: { setting: { seed_urls: ['https://www.example.com/'] }, schedule: { interval: 0 } },
    });
    expect(created, 200);
    expect(
      await call('PUT', `${g}/search_services/${ids.service}`, { session: editor, body: { config: {} } }),
      200,
    );
    expect(
      await call('DELETE', `${g}/service_settings/${created.json.service_setting_id}`, { session: editor }),
      200,
    );
    for (const [method, path, body] of changes()) {
      if (path.includes('service_settings') || path.includes('search_services')) continue;
      const answer = await call(method, path, { session: editor, body });
      assert.equal(answer.status, 403, `${method} ${path}: ${JSON.stringify(answer.json)}`);
    }
  });

  test('an owner manages keys and users; only the operator makes contracts', async () => {
    const g = acme.groupPath;
    expect(await call('POST', `${g}/api_keys`, { session: owner, body: { label: 'mine' } }), 200);
    const invited = expect(
      await call('POST', `/contracts/${acme.contractId}/invitations`, {
        session: owner,
        body: { email: 'new@example.com', role: 'editor' },
      }),
      200,
    );
    assert.match(invited.json.accept_url, new RegExp(`^${kumo.url}/console/invitation#token=`));
    expect(await call('POST', '/contracts', { session: owner, body: { name: 'mine' } }), 403);
    expect(await call('GET', '/contracts', { session: owner }), 403);
  });

  test("a session of another contract gets 404 for this contract's resources", async () => {
    const stranger = await userWith(globex.contractId, 'gina@example.com', 'owner');
    const g = acme.groupPath;
    for (const [method, path, body] of [
      ['GET', `/contracts/${acme.contractId}`],
      ['GET', `${g}/service_settings`],
      ['GET', `${g}/service_settings/${ids.setting}`],
      ['GET', `/contracts/${acme.contractId}/users`],
      ['GET', `/contracts/${acme.contractId}/audit_log`],
      ['POST', `${g}/api_keys`, { label: 'x' }],
      ['DELETE', `${g}/webhooks/${ids.webhook}`],
    ] as const) {
      const answer = await call(method, path, { session: stranger, body });
      assert.equal(answer.status, 404, `${method} ${path}: ${JSON.stringify(answer.json)}`);
    }
    // The same ids under its own contract's path: not found either (another service group).
    const own = `/contracts/${globex.contractId}/servicegroups/${acme.groupPath.split('/').pop()}`;
    expect(await call('GET', `${own}/service_settings/${ids.setting}`, { session: stranger }), 404);
  });

  test('the audit log names who changed what, with paging, for owners', async () => {
    const log = expect(
      await call('GET', `/contracts/${acme.contractId}/audit_log?limit=200`, { session: owner }),
      200,
    );
    const entries = log.json.entries as {
      actor: { kind: string; via: string; email: string | null };
      action: string;
      resource: string;
    }[];
    const byOwner = entries.find((e) => e.actor.email === 'olive@example.com' && e.resource === 'API key');
    assert.ok(byOwner, JSON.stringify(entries.slice(0, 5)));
    assert.equal(byOwner.action, 'create');
    assert.equal(byOwner.actor.kind, 'account');
    assert.ok(
      entries.some(
        (e) =>
          e.actor.email === 'ed@example.com' &&
          e.resource === 'crawl service setting' &&
          e.action === 'delete',
      ),
    );
    assert.ok(
      entries.some(
        (e) => e.actor.kind === 'operator' && e.actor.via === 'admin-api' && e.resource === 'webhook',
      ),
    );
    const first = expect(
      await call('GET', `/contracts/${acme.contractId}/audit_log?limit=2`, { session: owner }),
      200,
    );
    assert.equal(first.json.entries.length, 2);
    const next = first.json.next_before_id as number;
    const second = expect(
      await call('GET', `/contracts/${acme.contractId}/audit_log?limit=2&before_id=${next}`, {
        session: owner,
      }),
      200,
    );
    assert.ok(second.json.entries.every((e: { id: number }) => e.id < next));
    assert.equal(second.json.entries[0].id, (log.json.entries[2] as { id: number }).id);
  });
});

describe('passwords and sessions', () => {
  test('changing the password needs the current one and ends the other sessions', async () => {
    const first = await userWith(acme.contractId, 'pat@example.com', 'editor');
    const second = sessionOf(expect(await signIn('pat@example.com'), 200));
    const wrong = expect(
      await call('PUT', '/session/password', {
        session: first,
        body: { current_password: 'nope nope nope', new_password: 'a new long password' },
      }),
      400,
    );
    assert.equal(wrong.json.errors[0].field, 'body.current_password');
    const short = expect(
      await call('PUT', '/session/password', {
        session: first,
        body: { current_password: PASSWORD, new_password: 'short' },
      }),
      400,
    );
    assert.equal(short.json.errors[0].field, 'body.new_password');
    const changed = expect(
      await call('PUT', '/session/password', {
        session: first,
        body: { current_password: PASSWORD, new_password: 'a new long password' },
      }),
      200,
    );
    assert.equal(changed.json.revoked_sessions, 1);
    expect(await call('GET', '/session', { session: second }), 401);
    expect(await call('GET', '/session', { session: first }), 200);
    expect(await signIn('pat@example.com'), 401);
    expect(await signIn('pat@example.com', 'a new long password'), 200);
  });

  test("an account lists and ends its sessions; an owner ends a user's sessions", async () => {
    const mine = await userWith(acme.contractId, 'quinn@example.com', 'viewer');
    const other = sessionOf(expect(await signIn('quinn@example.com'), 200));
    const listed = expect(await call('GET', '/session/sessions', { session: mine }), 200);
    assert.equal(listed.json.sessions.length, 2);
    const otherRow = listed.json.sessions.find((s: { current: boolean }) => !s.current);
    expect(await call('DELETE', `/session/sessions/${otherRow.id}`, { session: mine }), 200);
    expect(await call('GET', '/session', { session: other }), 401);

    const owner = sessionOf(expect(await signIn('olive@example.com'), 200));
    const users = expect(await call('GET', `/contracts/${acme.contractId}/users`, { session: owner }), 200);
    const quinn = users.json.users.find((u: { email: string }) => u.email === 'quinn@example.com');
    const ended = expect(
      await call('DELETE', `/contracts/${acme.contractId}/users/${quinn.id}/sessions`, { session: owner }),
      200,
    );
    assert.equal(ended.json.revoked_sessions, 1);
    expect(await call('GET', '/session', { session: mine }), 401);
  });

  test('the admin token has no session', async () => {
    expect(await call('GET', '/session', { bearer: true }), 403);
  });
});

describe('session expiry', () => {
  test('a session ends after 2 hours without a request', async () => {
    const session = sessionOf(expect(await signIn('bob@example.com'), 200));
    clock.offsetMicros = 2 * HOUR_MICROS - 60_000_000;
    try {
      expect(await call('GET', '/session', { session }), 200);
      clock.offsetMicros += 2 * HOUR_MICROS + 1_000_000;
      const ended = expect(await call('GET', '/session', { session }), 401);
      assert.match(ended.headers.get('set-cookie') ?? '', /^kumo_session=; .*Max-Age=0/);
    } finally {
      clock.offsetMicros = 0;
    }
  });

  test('a session used every hour still ends 12 hours after the sign-in', async () => {
    const session = sessionOf(expect(await signIn('bob@example.com'), 200));
    try {
      for (let hour = 1; hour < 12; hour++) {
        clock.offsetMicros = hour * HOUR_MICROS;
        expect(await call('GET', '/session', { session }), 200);
      }
      clock.offsetMicros = 12 * HOUR_MICROS + 1_000_000;
      expect(await call('GET', '/session', { session }), 401);
    } finally {
      clock.offsetMicros = 0;
    }
  });
});

describe('the OpenAPI document', () => {
  test('lists the account endpoints with the session cookie scheme', async () => {
    const response = await fetch(`${kumo.url}/docs/json`);
    const document = (await response.json()) as {
      paths: Record<string, object>;
      components: { securitySchemes: object };
    };
    for (const path of [
      '/admin/v1/session',
      '/admin/v1/session/password',
      '/admin/v1/session/sessions',
      '/admin/v1/session/sessions/{session_id}',
      '/admin/v1/invitations/accept',
      '/admin/v1/contracts/{contract_id}/users',
      '/admin/v1/contracts/{contract_id}/invitations',
      '/admin/v1/contracts/{contract_id}/users/{account_id}/sessions',
      '/admin/v1/contracts/{contract_id}/audit_log',
    ]) {
      assert.ok(document.paths[path], `${path} missing`);
    }
    assert.ok('sessionCookie' in document.components.securitySchemes);
  });
});
