/**
 * `kumo admin` applies the management layer's rules, as the management API does
 * (docs/design/management.md, Management layer): a copied redacted password cannot create a setting,
 * names and labels are bounded, and an unknown key is named as the API names it.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runCli } from '../support/cli-runner.js';
import { prepareDataDir } from '../support/prepared-data-dir.js';

let folder: string;
const admin = (...args: string[]) =>
  runCli(['admin', ...args], 30_000, { KUMO_DATA_DIR: path.join(folder, 'data') });
const GROUP = ['--contract', '1', '--servicegroup', '1'];

before(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-admin-rules-'));
  await prepareDataDir(path.join(folder, 'data'), { demoTenant: false });
  for (const args of [
    ['contract', 'create', '--name', 'acme'],
    ['servicegroup', 'create', '--contract', '1', '--name', 'web'],
  ]) {
    const result = await admin(...args);
    assert.equal(result.code, 0, result.stderr);
  }
});
after(async () => rm(folder, { recursive: true, force: true }));

test('a setting file carrying a redacted password cannot create a setting', async () => {
  const file = path.join(folder, 'copied.json');
  const setting = {
    seed_urls: ['https://www.example.com/'],
    authorizations: [{ type: 'BASIC', user: 'crawler', password: '********' }],
  };
  await writeFile(file, JSON.stringify({ setting, schedule: { interval: 0 } }));
  const refused = await admin('setting', 'create', ...GROUP, '--config', file);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /^kumo: the crawl service setting is invalid:$/m);
  assert.match(
    refused.stderr,
    /^setting\.authorizations\[0\]\.password: "\*{8}" stands for a stored password/m,
  );
  assert.equal((await admin('setting', 'list')).stdout.trim().split('\n').length, 1, 'nothing created');
});

test('a name or label longer than the API allows is refused naming the option', async () => {
  const long = 'x'.repeat(201);
  for (const args of [
    ['contract', 'create', '--name', long],
    ['servicegroup', 'create', '--contract', '1', '--name', long],
    ['searchservice', 'create', ...GROUP, '--name', long],
  ]) {
    const refused = await admin(...args);
    assert.equal(refused.code, 2, args.join(' '));
    assert.match(refused.stderr, /^kumo: --name: at most 200 characters$/m, args.join(' '));
  }
  const label = await admin('key', 'create', ...GROUP, '--label', long);
  assert.equal(label.code, 2);
  assert.match(label.stderr, /^kumo: --label: at most 200 characters$/m);
});

test('revoking an unknown key names it as the API does', async () => {
  const refused = await admin('key', 'revoke', '99');
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /^kumo: no active API key 99$/m);
});
