/**
 * `kumo admin key list` shows a key's first characters, never the key: at most 8 of them and at
 * most half of the key, also for a short key pinned with KUMO_BOOTSTRAP_API_KEY and for the keys
 * a data directory of an earlier version holds.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { issueDemoKey } from '../../src/startup/service.js';
import { bootstrapDemo } from '../support/demo-tenant.js';
import { ensureDataDir } from '../../src/startup/index.js';
import { openSqliteRecordStore, openServiceDatabase } from '../../src/store/sqlite/index.js';
import { systemClock } from '../../src/util/index.js';
import { runCli } from '../support/cli-runner.js';

let folder: string;

before(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-admin-key-'));
});
after(async () => rm(folder, { recursive: true, force: true }));

/** A data directory whose demo tenant and key were made by `kumo serve` with `pinnedKey`. */
async function dataDirWithPinnedKey(name: string, pinnedKey: string): Promise<string> {
  const dataDir = path.join(folder, name);
  const store = openSqliteRecordStore(ensureDataDir(dataDir).database);
  try {
    await bootstrapDemo(store, pinnedKey);
    await issueDemoKey(store, systemClock, pinnedKey);
  } finally {
    await store.close();
  }
  return dataDir;
}

/** The prefix column of `kumo admin key list`, without its ellipsis. */
async function listedPrefixes(dataDir: string): Promise<string[]> {
  const listed = await runCli(['admin', 'key', 'list'], 30_000, { KUMO_DATA_DIR: dataDir });
  assert.equal(listed.code, 0, listed.stderr);
  const [header, ...rows] = listed.stdout.trim().split('\n');
  assert.equal(header!.split('\t')[3], 'prefix');
  return rows.map((row) => row.split('\t')[3]!.replace(/…$/, ''));
}

describe('kumo admin key list', () => {
  test('a short pinned key: at most half of it is shown', async () => {
    const dataDir = await dataDirWithPinnedKey('pinned', 'demo-key');
    const [prefix] = await listedPrefixes(dataDir);
    assert.equal(prefix, 'demo');
    const tiny = await listedPrefixes(await dataDirWithPinnedKey('tiny', 'abc'));
    assert.equal(tiny[0], 'a');
  });

  test('a generated key: its first 8 characters', async () => {
    const dataDir = await dataDirWithPinnedKey('generated', 'demo-key');
    const created = await runCli(
      ['admin', 'key', 'create', '--contract', '1', '--servicegroup', '1'],
      30_000,
      {
        KUMO_DATA_DIR: dataDir,
      },
    );
    assert.equal(created.code, 0, created.stderr);
    const key = /API key \(shown once, keep it\): (\S+)/.exec(created.stdout)![1]!;
    const prefixes = await listedPrefixes(dataDir);
    assert.deepEqual(prefixes, ['demo', key.slice(0, 8)]);
  });

  test('keys stored whole by an earlier version are cut when the store is opened', async () => {
    const dataDir = await dataDirWithPinnedKey('earlier', 'demo-key');
    // What an earlier version stored: the first 10 characters, so the whole of a short key.
    const db = openServiceDatabase(ensureDataDir(dataDir).database);
    db.prepare("UPDATE api_keys SET prefix = 'demo-key'").run();
    db.prepare(
      "INSERT INTO api_keys (contract_id, servicegroup_id, key_hash, prefix, label, created_us) VALUES (1, 1, x'00', 'kumo_AbCdE', 'generated', 0)",
    ).run();
    db.prepare(
      "INSERT INTO api_keys (contract_id, servicegroup_id, key_hash, prefix, label, created_us) VALUES (1, 1, x'01', 'team-key-1', 'pinned', 0)",
    ).run();
    // Schema version 4: the migrations from the prefix cut on run again.
    db.pragma('user_version = 4');
    db.close();
    assert.deepEqual(await listedPrefixes(dataDir), ['demo', 'kumo_AbC', 'team-']);
  });
});
