import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { preparePrivateDatabaseFile } from '../util/index.js';
import { StartupError } from './startup-error.js';

/**
 * One `kumo serve` per data directory: two would both resume the same runs (docs/operations.md,
 * Data directory). The owner holds an exclusive SQLite transaction on `serve.lock`, an advisory
 * lock the kernel drops the moment the process ends, however it ends (a `kill -9` included), so a
 * restart right after a crash is never refused, and a live owner always is. A pid file alone
 * cannot tell: a killed owner not yet reaped by its parent still answers `kill(pid, 0)`, and its
 * pid may since belong to an unrelated process. `serve.pid` names the owner in the refusal only.
 *
 * The lock file is never deleted (a process waiting on the old file would lock a file the next
 * start no longer sees) and never opened by anything else in this process: closing any other
 * descriptor of it would drop the lock. It is made private before SQLite opens it, as every data
 * file is (docs/operations.md, Data directory): the transaction's journal, `serve.lock-journal`,
 * takes the lock file's mode when SQLite creates it.
 */
export function acquireServeLock(lockFile: string, pidFile: string): () => void {
  preparePrivateDatabaseFile(lockFile);
  const db = new Database(lockFile, { timeout: 0 });
  try {
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    const owner = ownerPid(pidFile);
    throw new StartupError(
      `another kumo serve${owner === undefined ? '' : ` (pid ${owner})`} uses the data directory ` +
        `${path.dirname(lockFile)}; stop it or choose another KUMO_DATA_DIR`,
    );
  }
  writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600 });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    rmSync(pidFile, { force: true });
    db.exec('ROLLBACK');
    db.close();
  };
}

/** The pid the owner wrote, when it has written it yet. */
function ownerPid(pidFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
