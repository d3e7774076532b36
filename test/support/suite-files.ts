/**
 * Which compiled test files each pass of `npm test` runs (docs/operations.md, Running the tests):
 * every file on SQLite, and the API, end-to-end, use-case and webhook tests, with the commands that
 * use the records, again on PostgreSQL (test/postgres-suite.ts). Paths are absolute, under the
 * compiled test folder given.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const POSTGRES_FOLDERS = ['api', 'e2e', 'usecases', 'webhooks'];
/** The commands that read and write the records (the others never open the store). */
const POSTGRES_COMMANDS = [
  'cli/admin-schedule-cli.test.js',
  'cli/admin-search-cli.test.js',
  'cli/admin-shared-rules-cli.test.js',
  'cli/admin-user-cli.test.js',
  'cli/index-search-cli.test.js',
  'cli/search-answers-cli.test.js',
];
/** They open kumo.db with better-sqlite3 to see or change what a store file holds. */
const SQLITE_ONLY = new Set([
  // A restart on the same data directory resumes from the work folder, fetching again only the
  // pages in flight; with PostgreSQL a run resumes from its last checkpoint instead (tested by
  // e2e/cluster-takeover.test.ts).
  'e2e/crash-recovery.test.js',
  'e2e/graceful-shutdown.test.js',
  'e2e/restart-resume.test.js',
  'e2e/stored-pattern-recheck.test.js',
  'usecases/data-file-modes.test.js',
]);
/** They start a PostgreSQL server of their own, so the SQLite pass runs them on it already. */
const OWN_SERVER = new Set([
  'e2e/cluster-takeover.test.js',
  'e2e/search-nodes.test.js',
  'e2e/split-cluster.test.js',
]);

/** Every `*.test.js` under `folder`, sorted. */
export function testFilesUnder(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) files.push(...testFilesUnder(full));
    else if (name.endsWith('.test.js')) files.push(full);
  }
  return files;
}

/** The files the PostgreSQL pass runs again with every record store on PostgreSQL. */
export function postgresPassFiles(testRoot: string): string[] {
  const inFolders = POSTGRES_FOLDERS.flatMap((folder) => testFilesUnder(path.join(testRoot, folder))).filter(
    (file) => {
      const relative = path.relative(testRoot, file);
      return !SQLITE_ONLY.has(relative) && !OWN_SERVER.has(relative);
    },
  );
  return [...inFolders, ...POSTGRES_COMMANDS.map((file) => path.join(testRoot, file))];
}
