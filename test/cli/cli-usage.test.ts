/**
 * The `kumo` command line as a user meets it: --help / -h on every command and subcommand,
 * mistakes answered with `kumo: <what>` and the usage (exit 2), unexpected errors in one line
 * (the stack trace only with --verbose or KUMO_DEBUG=1), and a reader that stops reading
 * (`| head -1`) ending the command quietly.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { dataPaths, searchIndexFile } from '../../src/config/index.js';
import { MAIN_JS, runCli } from '../support/cli-runner.js';
import { prepareDataDir } from '../support/prepared-data-dir.js';
import { seedSearchIndex } from '../support/search-fixtures.js';

let folder: string;
const STACK_FRAME = /\n\s+at /;

before(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-cli-usage-'));
});
after(async () => rm(folder, { recursive: true, force: true }));

describe('kumo --help', () => {
  const cases: { args: string[]; usage: RegExp; mentions: RegExp[] }[] = [
    { args: ['--help'], usage: /^Usage: kumo /m, mentions: [/crawl/, /admin/, /search/, /config/] },
    {
      args: ['crawl', '--help'],
      usage: /^Usage: kumo crawl .*<url\.\.\.>/m,
      mentions: [/--depth/, /--fresh/],
    },
    { args: ['crawl', '-h'], usage: /^Usage: kumo crawl /m, mentions: [/--out <dir>/] },
    { args: ['admin', '--help'], usage: /^Usage: kumo admin /m, mentions: [/setting/, /webhook/] },
    {
      args: ['admin', 'setting', 'create', '--help'],
      usage: /^Usage: kumo admin setting create /m,
      mentions: [/--contract <id>/, /--servicegroup <id>/, /--config <file>/, /"schedule"/],
    },
    {
      args: ['admin', 'key', 'list', '-h'],
      usage: /^Usage: kumo admin key list /m,
      mentions: [/--contract/],
    },
    { args: ['admin', 'webhook', 'deliveries', '-h'], usage: /<id>/, mentions: [/--limit <n>/] },
    { args: ['index', '--help'], usage: /^Usage: kumo index /m, mentions: [/--service/, /--run/] },
    { args: ['search', '-h'], usage: /^Usage: kumo search /m, mentions: [/--service/, /--limit/] },
    { args: ['serve', '--help'], usage: /^Usage: kumo serve/m, mentions: [/KUMO_DATA_DIR/] },
    { args: ['config', '--help'], usage: /^Usage: kumo config/m, mentions: [] },
    { args: ['help', 'crawl'], usage: /^Usage: kumo crawl /m, mentions: [/--depth/] },
  ];
  for (const { args, usage, mentions } of cases) {
    test(`kumo ${args.join(' ')}: the usage on stdout, exit 0`, async () => {
      const result = await runCli(args);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr, '');
      assert.match(result.stdout, usage);
      for (const mention of mentions) assert.match(result.stdout, mention);
    });
  }
});

describe('kumo usage mistakes', () => {
  test('--depth -1: the range of --depth, exit 2, nothing written', async () => {
    const out = path.join(folder, 'depth-out');
    const result = await runCli(['crawl', '--depth', '-1', 'http://127.0.0.1:9/', '--out', out]);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr, 'kumo: --depth: must be a whole number from 0 to 1000, got -1\n');
    assert.equal(existsSync(out), false);
    const delay = await runCli(['crawl', 'http://127.0.0.1:9/', '--delay=-0.5', '--out', out]);
    assert.equal(delay.code, 2);
    assert.equal(delay.stderr, 'kumo: --delay: must be a number from 0 to 60, got -0.5\n');
    const text = await runCli(['crawl', 'http://127.0.0.1:9/', '--timeout', 'soon', '--out', out]);
    assert.equal(text.stderr, 'kumo: --timeout: must be a whole number from 1 to 259200, got soon\n');
  });

  test('kumo crawl without a URL: says so and prints the usage, exit 2', async () => {
    const result = await runCli(['crawl', '--out', path.join(folder, 'no-url')]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^kumo: missing required argument 'url'\n/);
    assert.match(result.stderr, /^Usage: kumo crawl \[options\] <url\.\.\.>$/m);
    assert.match(result.stderr, /--depth <n>/);
    assert.equal(result.stdout, '');
  });

  test('an unknown option: named with a suggestion, then the usage, exit 2', async () => {
    const result = await runCli(['crawl', 'http://127.0.0.1:9/', '--out', folder, '--depht', '1']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^kumo: unknown option '--depht' \(Did you mean --depth\?\)\n/);
    assert.match(result.stderr, /^Usage: kumo crawl /m);
  });

  test('a subcommand without its id, or an unknown one: the usage, exit 2', async () => {
    const env = { KUMO_DATA_DIR: path.join(folder, 'data-missing') };
    const noId = await runCli(['admin', 'key', 'revoke'], 30_000, env);
    assert.equal(noId.code, 2);
    assert.match(noId.stderr, /^kumo: missing required argument 'key-id'\n/);
    assert.match(noId.stderr, /^Usage: kumo admin key revoke /m);
    const unknown = await runCli(['admin', 'key', 'rotate'], 30_000, env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^kumo: unknown command 'rotate'/);
    const bare = await runCli(['admin', 'key'], 30_000, env);
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /^Usage: kumo admin key /m);
    assert.match(bare.stderr, /revoke <key-id>/);
  });

  test('a required option left out: named, then the usage, exit 2', async () => {
    const env = { KUMO_DATA_DIR: path.join(folder, 'data-required') };
    await prepareDataDir(env.KUMO_DATA_DIR, { demoTenant: false });
    const result = await runCli(['admin', 'servicegroup', 'create', '--name', 'web'], 30_000, env);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^kumo: --contract ID is required\n/);
    assert.match(result.stderr, /^Usage: kumo admin servicegroup create /m);
  });
});

describe('kumo errors', () => {
  // A search index file that is no SQLite database: an error no check foresees.
  const args = ['search', '--service', '1', 'python'];
  const env = () => ({ KUMO_DATA_DIR: path.join(folder, 'data-broken') });
  before(async () => {
    await prepareDataDir(env().KUMO_DATA_DIR, { demoTenant: true });
    await mkdir(dataPaths(env().KUMO_DATA_DIR).search, { recursive: true });
    await writeFile(searchIndexFile(env().KUMO_DATA_DIR, 1), 'not a database, '.repeat(100));
  });

  test('an unexpected error: one line, no stack trace, exit 1', async () => {
    const result = await runCli(args, 30_000, env());
    assert.equal(result.code, 1);
    assert.equal(result.stderr, 'kumo: file is not a database\n');
    // The same for an error without a stack of its own (a failed system call).
    const noFolder = await runCli(['crawl', 'http://127.0.0.1:9/', '--out', '/dev/null/out']);
    assert.equal(noFolder.code, 1);
    assert.match(noFolder.stderr, /^kumo: ENOTDIR: not a directory, \w+ '\/dev\/null\/out[^\n]*\n$/);
  });

  test('--verbose and KUMO_DEBUG=1: the stack trace', async () => {
    for (const [extra, debug] of [
      [['--verbose'], {}],
      [[], { KUMO_DEBUG: '1' }],
    ] as const) {
      const result = await runCli([...args, ...extra], 30_000, { ...env(), ...debug });
      assert.equal(result.code, 1);
      assert.match(result.stderr, /^kumo: SqliteError: file is not a database\n/);
      assert.match(result.stderr, STACK_FRAME);
    }
  });
});

/**
 * Runs kumo with its stdout a pipe whose reading end is closed at once, as `| head -1` leaves it
 * once head has its line: every write of the command meets a closed pipe (EPIPE).
 */
function runWithClosedStdout(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN_JS, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('kumo ... | head -1', () => {
  test('kumo config, kumo admin key list and kumo search end quietly with exit 0', async () => {
    const dataDir = path.join(folder, 'data-pipe');
    await prepareDataDir(dataDir, { demoTenant: true });
    await mkdir(dataPaths(dataDir).search, { recursive: true });
    seedSearchIndex(dataDir, 1);
    const env = { KUMO_DATA_DIR: dataDir };
    for (const args of [
      ['config'],
      ['crawl', '--help'],
      ['admin', 'key', 'list'],
      ['search', '--service', '1', 'python'],
    ]) {
      const result = await runWithClosedStdout(args, env);
      assert.equal(result.stderr, '', `kumo ${args.join(' ')}`);
      assert.equal(result.code, 0, `kumo ${args.join(' ')}`);
    }
  });

  test('a real pipeline: head gets the first line, kumo says nothing', async () => {
    const child = spawn('sh', ['-c', `"${process.execPath}" "${MAIN_JS}" config | head -1`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 0);
    assert.equal(stdout.split('\n').length, 2, stdout);
    assert.match(stdout, /^KUMO_[A-Z_]+\t/);
    assert.equal(stderr, '');
  });
});
