/**
 * The PostgreSQL pass of the test suite (package.json `test`): starts one PostgreSQL server for
 * the run (test/support/postgres-server.ts) and runs the API, end-to-end, service and webhook
 * tests, and those of the commands that use the records, again with every service store on it
 * (test/support/test-store.ts). Files that read or
 * edit the SQLite file itself run on SQLite only.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgresServer } from './support/postgres-server.js';

const TEST_ROOT = path.dirname(fileURLToPath(import.meta.url));
const FOLDERS = ['api', 'e2e', 'service', 'webhooks'];
/** The commands that read and write the records (the others never open the store). */
const COMMANDS = [
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
  'service/data-file-modes.test.js',
]);

/** They start a PostgreSQL server of their own, so the first pass runs them on it already. */
const OWN_SERVER = new Set([
  'e2e/cluster-takeover.test.js',
  'e2e/search-nodes.test.js',
  'e2e/split-cluster.test.js',
]);

function testFiles(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) files.push(...testFiles(full));
    else if (
      name.endsWith('.test.js') &&
      !SQLITE_ONLY.has(path.relative(TEST_ROOT, full)) &&
      !OWN_SERVER.has(path.relative(TEST_ROOT, full))
    )
      files.push(full);
  }
  return files;
}

// Test files given as arguments run instead of the whole pass (to repeat one).
const given = process.argv.slice(2);
const files =
  given.length > 0
    ? given
    : [
        ...FOLDERS.flatMap((folder) => testFiles(path.join(TEST_ROOT, folder))),
        ...COMMANDS.map((file) => path.join(TEST_ROOT, file)),
      ];
process.stdout.write(`# PostgreSQL pass: ${files.length} test files\n`);
const server = await startPostgresServer();
let code: number;
try {
  code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ['--test', '--test-concurrency=2', ...files], {
      stdio: 'inherit',
      env: { ...process.env, KUMO_TEST_POSTGRES_URL: server.url },
    });
    child.on('error', reject);
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal === null ? 1 : 128)));
  });
} finally {
  await server.stop();
}
process.exitCode = code;
