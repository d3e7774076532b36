import { chmodSync, closeSync, lstatSync, openSync, readdirSync, type Stats } from 'node:fs';
import path from 'node:path';

/**
 * Data files are readable by the service's user only (docs/operations.md, Data directory): the
 * databases hold hashed keys, encrypted secrets and crawled pages of sites that may need a
 * password. Modes are given where each file is made instead of through a process-wide umask,
 * which worker threads cannot set and which would also reach files the user asked for elsewhere.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

/** SQLite's companions of a database file; it creates them with the database file's mode. */
const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'];

/**
 * Makes a SQLite database file private before SQLite opens it: creates it empty with mode 0600
 * when absent (SQLite would create it 0644), else takes group and other access away from it and
 * its journal files. SQLite gives a new WAL, shared-memory or journal file the database file's
 * mode, so they follow.
 */
export function preparePrivateDatabaseFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    // An existing file is SQLite's to open (read-only when this user may not write it).
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (const suffix of ['', ...SQLITE_COMPANIONS]) tightenEntry(`${file}${suffix}`);
}

/**
 * Takes group and other access away from `root` and everything below it (files 0600, folders
 * 0700), for a data directory written by an older version. Symbolic links are neither followed
 * nor changed; entries owned by another user are left as they are.
 */
export function tightenTree(root: string): void {
  const stats = tightenEntry(root);
  if (stats?.isDirectory() !== true) return;
  for (const name of readdirSync(root)) tightenTree(path.join(root, name));
}

/** Tightens one entry; returns its stats, or undefined when it does not exist. */
function tightenEntry(entry: string): Stats | undefined {
  let stats: Stats;
  try {
    stats = lstatSync(entry);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (stats.isSymbolicLink() || (process.getuid !== undefined && stats.uid !== process.getuid()))
    return stats;
  const wanted = stats.isDirectory() ? PRIVATE_FOLDER_MODE : PRIVATE_FILE_MODE;
  if ((stats.mode & 0o077) !== 0) chmodSync(entry, stats.mode & 0o777 & wanted);
  return stats;
}
