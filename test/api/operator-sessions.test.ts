/**
 * The operator's console sessions over a real HTTP server on loopback (docs/api.md, Operator
 * sessions; docs/security.md, Operator sessions): they are listed and ended with the admin token
 * or an operator session, an account cannot reach them, a run's event stream opened with a
 * session ends within seconds of its sign-out or of the session being ended, and a service restarted on the same data
 * directory with a new admin token treats every session of the old token as signed out.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { type LocalServer, listenLocally } from '../support/local-server.js';
import { makeTempDir, startTestService, type TestService } from '../support/service-harness.js';

const FIRST_TOKEN = 'operator-sessions-first-token-0123456789';
const SECOND_TOKEN = 'operator-sessions-second-token-9876543210';

let kumo: TestService;
let dataDir: string;
/** A site that never answers: a run of it stays running for the whole test. */
let stalled: LocalServer;

interface Answer {
  status: number;
  setCookie: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are inspected loosely
  json: any;
}

interface OperatorSession {
  cookie: string;
  csrf: string;
}

interface CallOptions {
  body?: unknown;
  bearer?: string;
  session?: OperatorSession;
  userAgent?: string;
}

async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
  if (options.session !== undefined) {
    headers.cookie = options.session.cookie;
    headers['x-kumo-csrf-token'] = options.session.csrf;
  }
  if (method !== 'GET') headers.origin = kumo.url;
  if (options.userAgent !== undefined) headers['user-agent'] = options.userAgent;
  const response = await fetch(`${kumo.url}/admin/v1${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    setCookie: response.headers.get('set-cookie'),
    json: text === '' ? undefined : JSON.parse(text),
  };
}

async function signIn(token: string, userAgent: string): Promise<OperatorSession> {
  const answer = await call('POST', '/operator_session', { body: { admin_token: token }, userAgent });
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  const cookie = /^(kumo_operator=[^;]+)/.exec(answer.setCookie ?? '')?.[1];
  assert.ok(cookie, 'an operator cookie is set');
  return { cookie, csrf: answer.json.csrf_token as string };
}

/** How long a stream may flow after its session ended before the test gives up on it. */
const STREAM_LIMIT_MS = 10_000;

interface OpenStream {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  received: string;
}

/** Opens a run's event stream with a session and reads up to its first `run` event. */
async function openEvents(path: string, session: OperatorSession): Promise<OpenStream> {
  const response = await fetch(`${kumo.url}/admin/v1${path}`, {
    headers: { accept: 'text/event-stream', cookie: session.cookie },
  });
  assert.equal(response.status, 200);
  const stream = { reader: response.body!.getReader(), received: '' };
  const decoder = new TextDecoder();
  while (!stream.received.includes('event: run')) {
    const chunk = await stream.reader.read();
    assert.equal(chunk.done, false, 'the stream is open');
    stream.received += decoder.decode(chunk.value, { stream: true });
  }
  return stream;
}

/** Milliseconds from now until the stream ends, or undefined when it still flows after STREAM_LIMIT_MS. */
async function msUntilEnd(stream: OpenStream): Promise<number | undefined> {
  const from = Date.now();
  const decoder = new TextDecoder();
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([
    (async () => {
      for (;;) {
        const chunk = await stream.reader.read();
        if (chunk.done) return Date.now() - from;
        stream.received += decoder.decode(chunk.value, { stream: true });
      }
    })(),
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), STREAM_LIMIT_MS);
    }),
  ]);
  clearTimeout(timer);
  if (ended === undefined) await stream.reader.cancel();
  return ended;
}

async function start(adminToken: string): Promise<TestService> {
  // A fetch of the stalled site then waits longer than the test: its run stays running.
  return startTestService({ dataDir, overrides: { adminToken, fetchTimeoutSeconds: 120 } });
}

before(async () => {
  dataDir = await makeTempDir('kumo-operator-sessions-');
  stalled = await listenLocally(
    createServer(() => {}),
    '127.0.0.41',
  );
  kumo = await start(FIRST_TOKEN);
});

after(async () => {
  await kumo?.close();
  await stalled?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('operator sessions', () => {
  test('GET /session answers an operator session as the operator; the bearer token still has no session', async () => {
    const desk = await signIn(FIRST_TOKEN, 'Who am I browser');
    const current = await call('GET', '/session', { session: desk });
    assert.equal(current.status, 200, JSON.stringify(current.json));
    assert.equal(current.json.account, null);
    assert.equal(current.json.operator, true);
    assert.equal(current.json.session.user_agent, 'Who am I browser');
    assert.equal(current.json.session.current, true);
    const own = await call('GET', '/operator_session', { session: desk });
    assert.equal(current.json.csrf_token, own.json.csrf_token);
    const bearer = await call('GET', '/session', { bearer: FIRST_TOKEN });
    assert.equal(bearer.status, 403);
    assert.match(bearer.json.message, /the admin token has no session/);
    // The account's own routes stay an account's.
    assert.equal((await call('GET', '/session/sessions', { session: desk })).status, 403);
  });

  test('the sessions are listed and ended with the admin token or a session; an ended one is signed out', async () => {
    const desk = await signIn(FIRST_TOKEN, 'Desk browser');
    const laptop = await signIn(FIRST_TOKEN, 'Laptop browser');

    const seen = await call('GET', '/operator_session/sessions', { session: desk });
    assert.equal(seen.status, 200, JSON.stringify(seen.json));
    const rows = seen.json.sessions as { id: number; user_agent: string; current: boolean }[];
    const deskRow = rows.find((row) => row.user_agent === 'Desk browser');
    const laptopRow = rows.find((row) => row.user_agent === 'Laptop browser');
    assert.ok(deskRow && laptopRow, JSON.stringify(rows));
    assert.equal(deskRow.current, true);
    assert.equal(laptopRow.current, false);
    const byToken = await call('GET', '/operator_session/sessions', { bearer: FIRST_TOKEN });
    assert.equal(byToken.status, 200);
    assert.deepEqual(
      (byToken.json.sessions as { id: number; current: boolean }[])
        .filter((row) => [deskRow.id, laptopRow.id].includes(row.id))
        .map((row) => row.current),
      [false, false],
    );

    // The desk ends the laptop's session: the laptop is signed out at its next request.
    const ended = await call('DELETE', `/operator_session/sessions/${laptopRow.id}`, { session: desk });
    assert.equal(ended.status, 200, JSON.stringify(ended.json));
    assert.equal(ended.json.message, `operator session ${laptopRow.id} ended`);
    const laptopNext = await call('GET', '/contracts/usage', { session: laptop });
    assert.equal(laptopNext.status, 401);
    assert.match(laptopNext.setCookie ?? '', /^kumo_operator=;/);
    const again = await call('DELETE', `/operator_session/sessions/${laptopRow.id}`, { bearer: FIRST_TOKEN });
    assert.equal(again.status, 404);
    assert.equal(again.json.message, `no active operator session ${laptopRow.id}`);
    const left = await call('GET', '/operator_session/sessions', { bearer: FIRST_TOKEN });
    assert.deepEqual(
      (left.json.sessions as { id: number }[]).map((row) => row.id).filter((id) => id === laptopRow.id),
      [],
    );
    const invalid = await call('DELETE', '/operator_session/sessions/abc', { bearer: FIRST_TOKEN });
    assert.equal(invalid.status, 400);
    assert.match(JSON.stringify(invalid.json), /session_id/);

    // An account cannot see or end the operator's sessions.
    const contract = await call('POST', '/contracts', { bearer: FIRST_TOKEN, body: { name: 'Acme' } });
    const invitation = await call('POST', `/contracts/${contract.json.contract_id}/invitations`, {
      bearer: FIRST_TOKEN,
      body: { email: 'owner@acme.example', role: 'owner' },
    });
    const token = new URLSearchParams(new URL(invitation.json.accept_url as string).hash.slice(1)).get(
      'token',
    );
    const accepted = await call('POST', '/invitations/accept', {
      body: { token, password: 'correct horse battery' },
    });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.json));
    const owner = await call('POST', '/session', {
      body: { email: 'owner@acme.example', password: 'correct horse battery' },
    });
    const ownerSession = {
      cookie: /^(kumo_session=[^;]+)/.exec(owner.setCookie ?? '')![1]!,
      csrf: owner.json.csrf_token as string,
    };
    assert.equal((await call('GET', '/operator_session/sessions', { session: ownerSession })).status, 403);
    const refused = await call('DELETE', `/operator_session/sessions/${deskRow.id}`, {
      session: ownerSession,
    });
    assert.equal(refused.status, 403);
    assert.equal((await call('GET', '/operator_session', { session: desk })).status, 200);
  });

  test("a run's event stream opened with a session ends within seconds of its sign-out or its ending", async (t) => {
    const group = '/contracts/1/servicegroups/1';
    const started = await call('POST', `${group}/runs`, {
      bearer: FIRST_TOKEN,
      body: { setting: { seed_urls: [`${stalled.baseUrl}/`] } },
    });
    assert.equal(started.status, 200, JSON.stringify(started.json));
    const runId = started.json.run.id as number;
    const eventsPath = `${group}/runs/${runId}/events`;

    const signingOut = await signIn(FIRST_TOKEN, 'Signing-out browser');
    const ended = await signIn(FIRST_TOKEN, 'Ended browser');
    const signingOutStream = await openEvents(eventsPath, signingOut);
    const endedStream = await openEvents(eventsPath, ended);

    const signedOut = await call('DELETE', '/operator_session', { session: signingOut });
    assert.equal(signedOut.status, 200);
    const afterSignOut = await msUntilEnd(signingOutStream);
    const listed = await call('GET', '/operator_session/sessions', { bearer: FIRST_TOKEN });
    const rows = listed.json.sessions as { id: number; user_agent: string }[];
    const endedId = rows.find((row) => row.user_agent === 'Ended browser')!.id;
    const revoked = await call('DELETE', `/operator_session/sessions/${endedId}`, { bearer: FIRST_TOKEN });
    assert.equal(revoked.status, 200);
    const afterEnding = await msUntilEnd(endedStream);

    for (const [what, ms, stream] of [
      ['sign-out', afterSignOut, signingOutStream],
      ['ending', afterEnding, endedStream],
    ] as const) {
      assert.ok(ms !== undefined, `the stream still flowed ${STREAM_LIMIT_MS} ms after the ${what}`);
      assert.ok(ms < 3_000, `the stream ended ${ms} ms after the ${what}`);
      assert.equal(stream.received.includes('event: end'), false, 'the run did not end: the session did');
      t.diagnostic(`run events ended ${ms} ms after the ${what}`);
    }
    const run = await call('GET', `${group}/runs/${runId}`, { bearer: FIRST_TOKEN });
    assert.equal(run.json.run.end_datetime, null, 'the run still runs');
    // Reconnecting with the ended session is refused.
    const again = await fetch(`${kumo.url}/admin/v1${eventsPath}`, {
      headers: { accept: 'text/event-stream', cookie: ended.cookie },
    });
    assert.equal(again.status, 401);
    await again.body?.cancel();
    await call('POST', `${group}/runs/${runId}/cancel`, { bearer: FIRST_TOKEN });
  });

  test('a new admin token signs out every session of the old one', async () => {
    const kept = await signIn(FIRST_TOKEN, 'Kept browser');
    assert.equal((await call('GET', '/operator_session', { session: kept })).status, 200);

    await kumo.close();
    kumo = await start(SECOND_TOKEN);

    const after = await call('GET', '/operator_session', { session: kept });
    assert.equal(after.status, 401, JSON.stringify(after.json));
    assert.match(after.setCookie ?? '', /^kumo_operator=;/);
    const usage = await call('GET', '/contracts/usage', { session: kept });
    assert.equal(usage.status, 401);
    assert.equal((await call('GET', '/contracts/usage', { bearer: FIRST_TOKEN })).status, 401);

    const listed = await call('GET', '/operator_session/sessions', { bearer: SECOND_TOKEN });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.json.sessions, [], 'no session of the old token is listed');
    const fresh = await signIn(SECOND_TOKEN, 'Fresh browser');
    const now = await call('GET', '/operator_session/sessions', { session: fresh });
    assert.deepEqual(
      (now.json.sessions as { user_agent: string; current: boolean }[]).map((row) => [
        row.user_agent,
        row.current,
      ]),
      [['Fresh browser', true]],
    );
  });
});
