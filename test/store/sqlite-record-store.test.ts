/**
 * The embedded SQLite store against the record store contract: the same cases the PostgreSQL
 * store passes, a new database file per case; then what a reopened file must keep.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { RunState } from '../../src/domain/index.js';
import { openSqliteRecordStore } from '../../src/store/sqlite/open-record-store.js';
import { claimAll, contractIn, describeRecordStoreContract, post } from './record-store-contract.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-sqlite-contract-'));
after(() => rmSync(folder, { recursive: true, force: true }));

let opened = 0;
const fileOf = () => path.join(folder, `store-${++opened}.db`);
const open = (file: string) => openSqliteRecordStore(file, { secretKey: Buffer.alloc(32, 0x33) });

describeRecordStoreContract('SQLite', async () => open(fileOf()));

test('SQLite: runs left running by an earlier process count toward the cap, and the turns are kept', async () => {
  const file = fileOf();
  const names = new Map<number, string>();
  const first = open(file);
  const a = await contractIn(first, 'a');
  const b = await contractIn(first, 'b');
  try {
    await post(first, a, 'a1', names);
    await post(first, a, 'a2', names);
    assert.deepEqual(await claimAll(first, names, { maxRunningPerContract: 1 }), ['a1']);
  } finally {
    await first.close();
  }
  // The process stopped with a1 running; the next one finds it in the store.
  const second = open(file);
  try {
    await post(second, b, 'b1', names);
    await post(second, b, 'b2', names);
    assert.equal((await second.runs.listRunning()).length, 1);
    assert.deepEqual(await claimAll(second, names, { maxRunningPerContract: 1 }), ['b1']);
    for (const run of await second.runs.listRunning())
      await second.runs.finish(run.id, RunState.stopped, 1, [], '');
    // Contract a had the turn before b1's: a2 goes before b2 although the store was reopened.
    assert.deepEqual(await claimAll(second, names, { maxRunningPerContract: 1 }), ['a2', 'b2']);
  } finally {
    await second.close();
  }
});
