/**
 * One `kumo serve` per data directory (docs/operations.md, Data directory): a live owner refuses a
 * second start in one line naming its pid, while an owner killed with SIGKILL never does, even
 * before its parent has reaped it, and a stale `serve.pid` naming an unrelated live process (a
 * reused pid) does not either. The lock file and its journal are private like every data file.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { MAIN_JS, runCli } from '../support/cli-runner.js';
import { startServeProcess } from '../support/serve-process.js';
import { freePort, makeTempDir, pollUntil, TEST_API_KEY } from '../support/service-harness.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SERVE_ENV = { KUMO_LOG_LEVEL: 'silent' };

async function tempDataDir(): Promise<string> {
  const dataDir = await makeTempDir('kumo-lock-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return dataDir;
}

/** The process state letter in /proc/<pid>/stat (`Z` for a zombie), undefined once it is gone. */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/**
 * `kumo serve` started in the background by a shell that then becomes `sleep` and never reaps it,
 * as a supervisor busy elsewhere would: once killed, the serve process stays a zombie.
 */
async function startUnreapedServe(
  dataDir: string,
  port: number,
): Promise<{ pid: number; parent: ChildProcess }> {
  const inherited: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('KUMO_')) inherited[name] = value;
  const parent = spawn('sh', ['-c', '"$NODE" "$MAIN_JS" serve & echo "serve pid $!"; exec sleep 120'], {
    env: {
      ...inherited,
      ...SERVE_ENV,
      NODE: process.execPath,
      MAIN_JS,
      KUMO_DATA_DIR: dataDir,
      KUMO_HOST: '127.0.0.1',
      KUMO_PORT: String(port),
      KUMO_BOOTSTRAP_API_KEY: TEST_API_KEY,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  parent.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  parent.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => parent.once('exit', resolve));
  cleanups.push(async () => {
    parent.kill('SIGKILL');
    await exited;
  });
  const pid = await pollUntil('the serve pid', () => {
    const found = /serve pid (\d+)/.exec(output)?.[1];
    return found === undefined ? undefined : Number(found);
  });
  cleanups.push(async () => {
    if (processState(pid) !== undefined && processState(pid) !== 'Z') process.kill(pid, 'SIGKILL');
  });
  await pollUntil('kumo serve to listen', () => (output.includes('listening on') ? true : undefined), 20_000);
  return { pid, parent };
}

test('a second kumo serve on the same data directory is refused while the first runs', async () => {
  const dataDir = await tempDataDir();
  const first = await startServeProcess({ dataDir, port: await freePort(), env: SERVE_ENV, cleanups });

  const second = await runCli(['serve'], 30_000, {
    ...SERVE_ENV,
    KUMO_CONFIG_FILE: undefined,
    KUMO_DATA_DIR: dataDir,
    KUMO_HOST: '127.0.0.1',
    KUMO_PORT: String(await freePort()),
  });
  assert.equal(second.code, 1, second.stdout);
  assert.equal(
    second.stderr,
    `kumo: another kumo serve (pid ${first.child.pid}) uses the data directory ${dataDir}; ` +
      'stop it or choose another KUMO_DATA_DIR\n',
  );
  // The refused start took nothing over: the first still answers, and its pid file is intact.
  assert.equal(readFileSync(path.join(dataDir, 'serve.pid'), 'utf8'), `${first.child.pid}\n`);
  assert.equal((await fetch(`${first.url}/api/v1.0/finder_service/health_check`)).status, 200);
  assert.deepEqual(await first.stop(), { code: 0, signal: null });
});

test('the lock file and the journal of its transaction are 0600 while kumo serve runs', async () => {
  // The usual umask, under which a file made without an explicit mode would be 0644.
  const umask = process.umask(0o022);
  try {
    const dataDir = await tempDataDir();
    const serve = await startServeProcess({ dataDir, port: await freePort(), env: SERVE_ENV, cleanups });
    const modeOf = (name: string) => (statSync(path.join(dataDir, name)).mode & 0o777).toString(8);
    assert.deepEqual(
      ['serve.lock', 'serve.lock-journal', 'serve.pid'].map((name) => `${name} ${modeOf(name)}`),
      ['serve.lock 600', 'serve.lock-journal 600', 'serve.pid 600'],
    );
    assert.deepEqual(await serve.stop(), { code: 0, signal: null });
  } finally {
    process.umask(umask);
  }
});

test('right after a kill -9, before the killed process is even reaped, kumo serve starts again', async () => {
  const dataDir = await tempDataDir();
  const { pid } = await startUnreapedServe(dataDir, await freePort());
  assert.equal(readFileSync(path.join(dataDir, 'serve.pid'), 'utf8'), `${pid}\n`);
  process.kill(pid, 'SIGKILL');
  // Dead, but its pid still answers kill(pid, 0) until its parent reaps it.
  await pollUntil('the killed serve to be a zombie', () => (processState(pid) === 'Z' ? true : undefined));

  const again = await startServeProcess({ dataDir, port: await freePort(), env: SERVE_ENV, cleanups });
  assert.doesNotMatch(again.output(), /another kumo serve/);
  assert.equal(readFileSync(path.join(dataDir, 'serve.pid'), 'utf8'), `${again.child.pid}\n`);
  assert.deepEqual(await again.stop(), { code: 0, signal: null });

  // And straight after a kill -9 its parent reaps at once (the usual case).
  const third = await startServeProcess({ dataDir, port: await freePort(), env: SERVE_ENV, cleanups });
  await third.kill();
  const fourth = await startServeProcess({ dataDir, port: await freePort(), env: SERVE_ENV, cleanups });
  assert.deepEqual(await fourth.stop(), { code: 0, signal: null });
});

test('a stale serve.pid naming a live process that is not kumo serve (a reused pid) does not block', async () => {
  const dataDir = await tempDataDir();
  const first = await startServeProcess({ dataDir, port: await freePort(), env: SERVE_ENV, cleanups });
  await first.kill();
  // The pid of the killed server now belongs to another process: this test runner, say.
  writeFileSync(path.join(dataDir, 'serve.pid'), `${process.pid}\n`);

  const again = await startServeProcess({ dataDir, port: await freePort(), env: SERVE_ENV, cleanups });
  assert.equal(readFileSync(path.join(dataDir, 'serve.pid'), 'utf8'), `${again.child.pid}\n`);
  assert.deepEqual(await again.stop(), { code: 0, signal: null });
});
