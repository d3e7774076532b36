/**
 * `kumo admin`, `kumo index` and `kumo search` work on the data directory of `kumo serve` and never
 * make one: run from another folder (./data by default), they refuse, naming the folder they
 * looked at, and with a relative data directory they say which one they use.
 */
import assert from 'node:assert/strict';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../support/cli-runner.js';
import { prepareDataDir } from '../support/prepared-data-dir.js';

let folder: string;
/** No KUMO_DATA_DIR, so the default ./data of the current folder applies. */
const DEFAULT_DATA_DIR = { KUMO_DATA_DIR: undefined, KUMO_CONFIG_FILE: undefined };

before(async () => {
  // realpath: the CLI sees the current folder with symbolic links resolved.
  folder = realpathSync(await mkdtemp(path.join(os.tmpdir(), 'kumo-data-dir-')));
});
after(async () => rm(folder, { recursive: true, force: true }));

const COMMANDS = [
  ['index', '--service', '1', 'crawl_objects.tar.gz'],
  ['search', '--service', '1', 'query'],
  ['admin', 'contract', 'list'],
  ['admin', 'searchservice', 'list'],
];

describe('the data directory of kumo admin, index and search', () => {
  test('run from a folder without ./data, they refuse and create no ./data', async () => {
    const elsewhere = path.join(folder, 'elsewhere');
    await mkdir(elsewhere);
    for (const args of COMMANDS) {
      const result = await runCli(args, 30_000, DEFAULT_DATA_DIR, elsewhere);
      assert.equal(result.code, 2, `kumo ${args.join(' ')}: ${result.stderr}`);
      assert.ok(
        result.stderr.includes(`there is no data directory ${path.join(elsewhere, 'data')};`),
        result.stderr,
      );
      assert.match(result.stderr, /set KUMO_DATA_DIR to the data directory of kumo serve/);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
      assert.equal(existsSync(path.join(elsewhere, 'data')), false, `kumo ${args[0]} created no ./data`);
    }
  });

  test('a KUMO_DATA_DIR without kumo.db is refused as well, and left as it was', async () => {
    const empty = path.join(folder, 'empty');
    await mkdir(empty);
    for (const args of COMMANDS) {
      const result = await runCli(args, 30_000, { KUMO_DATA_DIR: empty });
      assert.equal(result.code, 2, `kumo ${args.join(' ')}: ${result.stderr}`);
      assert.ok(
        result.stderr.includes(`${empty} is not a kumo data directory (it holds no kumo.db)`),
        result.stderr,
      );
      assert.equal(existsSync(path.join(empty, 'kumo.db')), false);
    }
  });

  test('with the default ./data of the folder kumo serve runs in, they work and name the folder', async () => {
    const served = path.join(folder, 'served');
    await prepareDataDir(path.join(served, 'data'), { demoTenant: true });
    const listed = await runCli(['admin', 'searchservice', 'list'], 30_000, DEFAULT_DATA_DIR, served);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^1\t1\t1\tdemo\t/m);
    assert.equal(
      listed.stderr,
      `kumo: using the data directory ${path.join(served, 'data')} ` +
        '(./data from the current folder; KUMO_DATA_DIR names another)\n',
    );
    // An absolute KUMO_DATA_DIR does not depend on the folder: nothing to say.
    const absolute = await runCli(['admin', 'contract', 'list'], 30_000, {
      KUMO_DATA_DIR: path.join(served, 'data'),
    });
    assert.equal(absolute.code, 0, absolute.stderr);
    assert.equal(absolute.stderr, '');
  });
});
