/**
 * SQLite files are private from their creation (docs/operations.md, Data directory): a new
 * database and the WAL and shared-memory files SQLite adds are 0600; an existing database left
 * readable by others is tightened with its companions when it is opened.
 */
import assert from 'node:assert/strict';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openServiceDatabase } from '../../src/store/sqlite/index.js';

let dir: string;
before(async () => {
  process.umask(0o022);
  dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-private-'));
});
after(() => rm(dir, { recursive: true, force: true }));

const modeOf = (file: string) => statSync(file).mode & 0o777;

test('a new database and its WAL and shared-memory files are 0600', () => {
  const file = path.join(dir, 'new.db');
  const db = openServiceDatabase(file);
  try {
    for (const name of [file, `${file}-wal`, `${file}-shm`]) assert.equal(modeOf(name), 0o600, name);
  } finally {
    db.close();
  }
});

test('an existing database readable by others is tightened with its companions', () => {
  const file = path.join(dir, 'old.db');
  openServiceDatabase(file).close();
  // As an older version left them: readable by group and others, a WAL file beside the database.
  writeFileSync(`${file}-wal`, '');
  for (const name of [file, `${file}-wal`]) chmodSync(name, 0o644);
  const db = openServiceDatabase(file);
  try {
    assert.equal(modeOf(file), 0o600);
    assert.equal(modeOf(`${file}-wal`), 0o600);
  } finally {
    db.close();
  }
});
