/**
 * `kumo admin user invite` prints the invitation link and token once (the store keeps its hash)
 * and the invitation works on the management API; `kumo admin user list` shows the accounts.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCli } from '../support/cli-runner.js';
import { startTestService, TEST_ADMIN_TOKEN, type TestService } from '../support/service-harness.js';

let kumo: TestService;

before(async () => {
  kumo = await startTestService();
});
after(async () => kumo?.close());

const env = () => ({ KUMO_DATA_DIR: kumo.dataDir, KUMO_PUBLIC_URL: 'https://kumo.example.com' });

test('an invitation made by the CLI is accepted through the API, and the user is listed', async () => {
  const invited = await runCli(
    ['admin', 'user', 'invite', '--contract', '1', '--email', 'Owner@Example.com', '--role', 'owner'],
    30_000,
    env(),
  );
  assert.equal(invited.code, 0, invited.stderr);
  assert.match(
    invited.stdout,
    /invitation \d+ created for owner@example\.com \(owner\) in contract 1, valid until /,
  );
  const link = /link \(shown once\): (\S+)/.exec(invited.stdout)![1]!;
  const token = /token \(shown once\): (\S+)/.exec(invited.stdout)![1]!;
  assert.equal(link, `https://kumo.example.com/console/invitation#token=${token}`);

  const accepted = await kumo.inject({
    method: 'POST',
    url: '/admin/v1/invitations/accept',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ token, password: 'a long enough password' }),
  });
  assert.equal(accepted.statusCode, 200, accepted.body);

  // The invitation is in the contract's audit log, made by the operator through the CLI.
  const log = await kumo.inject({
    method: 'GET',
    url: '/admin/v1/contracts/1/audit_log',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });
  assert.equal(log.statusCode, 200, log.body);
  const entries = JSON.parse(log.body).entries as {
    actor: { kind: string; via: string };
    resource: string;
  }[];
  assert.ok(
    entries.some((e) => e.resource === 'invitation' && e.actor.kind === 'operator' && e.actor.via === 'cli'),
    log.body,
  );

  const listed = await runCli(['admin', 'user', 'list', '--contract', '1'], 30_000, env());
  assert.equal(listed.code, 0, listed.stderr);
  const [header, row] = listed.stdout.trim().split('\n');
  assert.equal(header, 'id\tcontract\temail\trole\tcreated');
  assert.match(row!, /^\d+\t1\towner@example\.com\towner\t/);
});

test('a bad role or address names the option; an unknown contract is refused', async () => {
  const role = await runCli(
    ['admin', 'user', 'invite', '--contract', '1', '--email', 'x@example.com', '--role', 'admin'],
    30_000,
    env(),
  );
  assert.equal(role.code, 2);
  assert.match(role.stderr, /--role: must be one of owner, editor, viewer/);
  const email = await runCli(
    ['admin', 'user', 'invite', '--contract', '1', '--email', 'not-an-address', '--role', 'viewer'],
    30_000,
    env(),
  );
  assert.equal(email.code, 2);
  assert.match(email.stderr, /--email: must be an email address/);
  const contract = await runCli(
    ['admin', 'user', 'invite', '--contract', '99', '--email', 'x@example.com', '--role', 'viewer'],
    30_000,
    env(),
  );
  assert.equal(contract.code, 2);
  assert.match(contract.stderr, /--contract: no contract 99/);
});
