/**
 * The first start of `kumo serve` on a fresh data directory with its port taken: one line naming
 * KUMO_PORT, and the demo API key and the management token, shown once, are not used up: the next
 * start that listens prints them, and they work.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { after, test } from 'node:test';
import { rm } from 'node:fs/promises';
import { runCli } from '../support/cli-runner.js';
import { startServeProcess } from '../support/serve-process.js';
import { crawlerPathOf, DEMO_TENANT, freePort, makeTempDir, pollUntil } from '../support/service-harness.js';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Neither the demo key nor the management token pinned: both are generated and printed. */
const UNPINNED = { KUMO_BOOTSTRAP_API_KEY: '', KUMO_ADMIN_TOKEN: '' };
const DEMO_KEY_LINE = /^API key \(shown once, keep it\): (\S+)$/m;
const ADMIN_TOKEN_LINE = /^Management API token \(shown once; [^)]*\): (\S+)$/m;

test('a first start with the port in use fails in one line and uses up no key', async () => {
  const folder = await makeTempDir('kumo-first-start-');
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  const dataDir = path.join(folder, 'data');
  const occupier = createServer();
  await new Promise<void>((resolve) => occupier.listen(0, '127.0.0.1', resolve));
  const port = (occupier.address() as { port: number }).port;

  const failed = await runCli(['serve'], 30_000, {
    ...UNPINNED,
    KUMO_CONFIG_FILE: undefined,
    KUMO_DATA_DIR: dataDir,
    KUMO_HOST: '127.0.0.1',
    KUMO_PORT: String(port),
  });
  await new Promise((resolve) => occupier.close(resolve));
  assert.equal(failed.code, 1, failed.stderr);
  assert.equal(
    failed.stderr,
    `kumo: port ${port} on 127.0.0.1 is in use (KUMO_PORT, KUMO_HOST); ` +
      'stop the other process or choose another port\n',
  );
  assert.doesNotMatch(failed.stdout, DEMO_KEY_LINE);
  assert.equal(existsSync(path.join(dataDir, 'admin-token')), false, 'no token kept that nobody saw');
  assert.equal(existsSync(path.join(dataDir, 'serve.pid')), false, 'the data directory is released');

  // The port is free now: this start listens, and prints the key and the token.
  const serve = await startServeProcess({ dataDir, port, env: UNPINNED, cleanups });
  const [key, token] = await pollUntil('the key and the token', () => {
    const key = DEMO_KEY_LINE.exec(serve.output())?.[1];
    const token = ADMIN_TOKEN_LINE.exec(serve.output())?.[1];
    return key !== undefined && token !== undefined ? [key, token] : undefined;
  });
  const histories = `${serve.url}${crawlerPathOf(DEMO_TENANT)}/histories`;
  assert.equal((await fetch(histories, { headers: { 'x-mf-apikey': `${key}x` } })).status, 401);
  const withKey = await fetch(histories, { headers: { 'x-mf-apikey': key } });
  assert.equal(withKey.status, 200, await withKey.text());
  const contracts = await fetch(`${serve.url}/admin/v1/contracts`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(contracts.status, 200, await contracts.text());
  assert.deepEqual(await serve.stop(), { code: 0, signal: null });

  // Shown once: a later start prints neither, and both still work.
  const again = await startServeProcess({ dataDir, port, env: UNPINNED, cleanups });
  assert.equal((await fetch(histories, { headers: { 'x-mf-apikey': key } })).status, 200);
  const contractsAgain = await fetch(`${again.url}/admin/v1/contracts`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(contractsAgain.status, 200);
  assert.deepEqual(await again.stop(), { code: 0, signal: null });
  assert.doesNotMatch(again.output(), /shown once/);
});

test('a first start never prints the API key or management token the operator set', async () => {
  const dataDir = await makeTempDir('kumo-first-start-pinned-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const pinnedKey = 'operator-chosen-demo-key-5f1c';
  const adminToken = 'operator-chosen-admin-token-9d2e';
  const serve = await startServeProcess({
    dataDir,
    port: await freePort(),
    env: { KUMO_BOOTSTRAP_API_KEY: pinnedKey, KUMO_ADMIN_TOKEN: adminToken },
    cleanups,
  });
  const histories = `${serve.url}${crawlerPathOf(DEMO_TENANT)}/histories`;
  assert.equal((await fetch(histories, { headers: { 'x-mf-apikey': pinnedKey } })).status, 200);
  assert.deepEqual(await serve.stop(), { code: 0, signal: null });

  const output = serve.output();
  assert.match(output, /^Demo tenant created: contract 1, service group 1, search service 1\.$/m);
  assert.match(output, /^API key: the one set in KUMO_BOOTSTRAP_API_KEY$/m);
  assert.ok(!output.includes(pinnedKey), `the pinned key is printed:\n${output}`);
  assert.ok(!output.includes(adminToken), `the admin token is printed:\n${output}`);
  assert.doesNotMatch(output, /shown once/);
});
