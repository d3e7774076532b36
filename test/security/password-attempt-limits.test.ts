/**
 * The limits on password attempts over a real HTTP server on loopback (docs/operations.md,
 * Console security): attempts sent at once count from their start, so no more passwords are
 * checked than the limit allows; a wrong admin token as a bearer token counts against the
 * operator's limit of the address; a wrong current password counts against the account's limit;
 * an invitation never tells whether an address has an account; common passwords are refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent, fetch } from 'undici';
import { startTestService, TEST_ADMIN_TOKEN, type TestService } from '../support/service-harness.js';

const PASSWORD = 'violet tram under a granite bridge';
/** Each test uses addresses of its own, so one test's failures never limit another's. */
const agents: Agent[] = [];
const agentAt = (address: string) => {
  const agent = new Agent({ localAddress: address });
  agents.push(agent);
  return agent;
};

let kumo: TestService;
let acmeId: number;
let globexId: number;

interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are inspected loosely
  json: any;
}

interface CallOptions {
  body?: unknown;
  /** The bearer token to send; the admin token when true. */
  bearer?: string | true;
  session?: { cookie: string; csrf: string };
  agent?: Agent;
}

async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.bearer !== undefined) {
    headers.authorization = `Bearer ${options.bearer === true ? TEST_ADMIN_TOKEN : options.bearer}`;
  }
  if (options.session) {
    headers.cookie = options.session.cookie;
    headers['x-kumo-csrf-token'] = options.session.csrf;
  }
  if (method !== 'GET') headers.origin = kumo.url;
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
  return { status: response.status, headers: response.headers as unknown as Headers, json };
}

function expect(answer: Answer, status: number): Answer {
  assert.equal(answer.status, status, JSON.stringify(answer.json));
  return answer;
}

function assertRetryAfter(answer: Answer): number {
  const seconds = Number(answer.headers.get('retry-after'));
  assert.ok(Number.isInteger(seconds) && seconds >= 1 && seconds <= 900, `Retry-After ${seconds}`);
  return seconds;
}

async function invite(contractId: number, email: string, options: CallOptions = { bearer: true }) {
  return expect(
    await call('POST', `/contracts/${contractId}/invitations`, {
      body: { email, role: 'owner' },
      ...options,
    }),
    200,
  );
}

async function accountOf(contractId: number, email: string) {
  const { token } = (await invite(contractId, email)).json;
  expect(await call('POST', '/invitations/accept', { body: { token, password: PASSWORD } }), 200);
}

const signIn = (email: string, password: string, agent?: Agent) =>
  call('POST', '/session', { body: { email, password }, agent });

async function sessionOf(email: string, agent?: Agent) {
  const answer = expect(await signIn(email, PASSWORD, agent), 200);
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { cookie, csrf: answer.json.csrf_token as string };
}

before(async () => {
  kumo = await startTestService();
  acmeId = expect(await call('POST', '/contracts', { body: { name: 'acme' }, bearer: true }), 200).json
    .contract_id;
  globexId = expect(await call('POST', '/contracts', { body: { name: 'globex' }, bearer: true }), 200).json
    .contract_id;
});

after(async () => {
  for (const agent of agents) await agent.close();
  await kumo?.close();
});

describe('sign-ins sent at once', () => {
  test('60 wrong passwords at once check at most 5; the rest and then the right password are 429 with Retry-After', async () => {
    await accountOf(acmeId, 'raced@example.com');
    const agent = agentAt('127.0.2.1');
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, n) => signIn('raced@example.com', `wrong password number ${n}`, agent)),
    );
    const refused = answers.filter((answer) => answer.status === 401);
    const limited = answers.filter((answer) => answer.status === 429);
    assert.ok(refused.length <= 5, `${refused.length} passwords checked, limit 5`);
    assert.equal(refused.length + limited.length, 60, answers.map((a) => a.status).join(','));
    for (const answer of limited) assertRetryAfter(answer);
    const right = expect(await signIn('raced@example.com', PASSWORD, agent), 429);
    assertRetryAfter(right);
    // From another address too: the limit is the account's.
    expect(await signIn('raced@example.com', PASSWORD, agentAt('127.0.2.2')), 429);
  });
});

describe('the admin token as a bearer token', () => {
  test('the sixth wrong token from an address is 429 with Retry-After, then the right one too; operator sign-in shares the limit', async () => {
    const agent = agentAt('127.0.3.1');
    for (let n = 0; n < 5; n++) {
      const wrong = expect(await call('GET', '/contracts', { bearer: `wrong-token-${n}`, agent }), 401);
      assert.match(String(wrong.headers.get('www-authenticate')), /^Bearer/);
    }
    assertRetryAfter(expect(await call('GET', '/contracts', { bearer: 'wrong-token-5', agent }), 429));
    assertRetryAfter(expect(await call('GET', '/contracts', { bearer: true, agent }), 429));
    const console = await call('POST', '/operator_session', {
      body: { admin_token: TEST_ADMIN_TOKEN },
      agent,
    });
    assertRetryAfter(expect(console, 429));
    // Another address still reaches the API with the token.
    expect(await call('GET', '/contracts', { bearer: true, agent: agentAt('127.0.3.2') }), 200);
  });

  test('wrong tokens typed into the console use up the limit of bearer tokens', async () => {
    const agent = agentAt('127.0.3.3');
    for (let n = 0; n < 5; n++) {
      expect(await call('POST', '/operator_session', { body: { admin_token: `wrong-${n}` }, agent }), 401);
    }
    assertRetryAfter(expect(await call('GET', '/contracts', { bearer: true, agent }), 429));
  });
});

describe('changing the password', () => {
  test('a wrong current password counts against the account: the sixth is 429 with Retry-After, and so is signing in', async () => {
    await accountOf(acmeId, 'changer@example.com');
    const agent = agentAt('127.0.4.1');
    const session = await sessionOf('changer@example.com', agent);
    const change = (current: string) =>
      call('PUT', '/session/password', {
        session,
        agent,
        body: { current_password: current, new_password: 'a brand new passphrase here' },
      });
    for (let n = 0; n < 5; n++) {
      const wrong = expect(await change(`not the password ${n}`), 400);
      assert.equal(wrong.json.errors[0].field, 'body.current_password');
    }
    assertRetryAfter(expect(await change('not the password 5'), 429));
    assertRetryAfter(expect(await change(PASSWORD), 429));
    expect(await signIn('changer@example.com', PASSWORD, agentAt('127.0.4.2')), 429);
  });

  test('20 wrong current passwords at once check at most 5', async () => {
    await accountOf(acmeId, 'racer@example.com');
    const agent = agentAt('127.0.4.3');
    const session = await sessionOf('racer@example.com', agent);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        call('PUT', '/session/password', {
          session,
          agent,
          body: { current_password: `guess number ${n}`, new_password: 'a brand new passphrase here' },
        }),
      ),
    );
    const checked = answers.filter((answer) => answer.status === 400).length;
    assert.ok(checked <= 5, `${checked} current passwords checked, limit 5`);
    for (const answer of answers.filter((one) => one.status !== 400)) assertRetryAfter(expect(answer, 429));
  });
});

describe('invitations', () => {
  test('inviting an address with an account in another contract answers as for a new address', async () => {
    await accountOf(globexId, 'taken@example.com');
    await accountOf(acmeId, 'acme-owner@example.com');
    const owner = await sessionOf('acme-owner@example.com', agentAt('127.0.5.1'));
    const taken = await invite(acmeId, 'taken@example.com', { session: owner });
    const fresh = await invite(acmeId, 'fresh@example.com', { session: owner });
    const shape = (answer: Answer) => ({
      ...answer.json,
      invitation_id: typeof answer.json.invitation_id,
      email: typeof answer.json.email,
      token: /^[A-Za-z0-9_-]{43}$/.test(answer.json.token),
      accept_url: answer.json.accept_url.replace(answer.json.token, 'TOKEN'),
      expires_datetime: typeof answer.json.expires_datetime,
    });
    assert.deepEqual(shape(taken), shape(fresh));
    assert.equal(taken.json.email, 'taken@example.com');
    // Accepting it cannot make a second account of the address.
    const accept = expect(
      await call('POST', '/invitations/accept', { body: { token: taken.json.token, password: PASSWORD } }),
      400,
    );
    assert.equal(accept.json.errors[0].field, 'body.token');
    expect(await signIn('taken@example.com', PASSWORD, agentAt('127.0.5.2')), 200);
  });
});

describe('common passwords', () => {
  test('a password of the breached-password list is refused, naming the field and the reason', async () => {
    const { token } = (await invite(acmeId, 'common@example.com')).json;
    for (const password of ['password1234', 'QwertyUiop123', 'Sunshine2024!!', 'zzzzzzzzzzzzzz']) {
      const refused = expect(await call('POST', '/invitations/accept', { body: { token, password } }), 400);
      assert.equal(refused.json.errors[0].field, 'body.password', password);
      assert.match(refused.json.errors[0].reason, /commonly used password|repeats one character/, password);
    }
    expect(await call('POST', '/invitations/accept', { body: { token, password: PASSWORD } }), 200);
    const session = await sessionOf('common@example.com', agentAt('127.0.6.1'));
    const change = expect(
      await call('PUT', '/session/password', {
        session,
        body: { current_password: PASSWORD, new_password: 'iloveyou123456' },
      }),
      400,
    );
    assert.equal(change.json.errors[0].field, 'body.new_password');
    assert.match(change.json.errors[0].reason, /commonly used password/);
  });
});
