/**
 * The PostgreSQL pass of the test suite (package.json `test`): starts one PostgreSQL server for
 * the run (test/support/postgres-server.ts) and runs the API, end-to-end, use-case and webhook
 * tests, and those of the commands that use the records, again with every record store on it
 * (test/support/test-store.ts). Files that read or
 * edit the SQLite file itself run on SQLite only.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgresServer } from './support/postgres-server.js';
import { postgresPassFiles } from './support/suite-files.js';

const TEST_ROOT = path.dirname(fileURLToPath(import.meta.url));

// Test files given as arguments run instead of the whole pass (to repeat one).
const given = process.argv.slice(2);
const files = given.length > 0 ? given : postgresPassFiles(TEST_ROOT);
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
