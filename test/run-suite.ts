/**
 * `npm test` after the build (docs/operations.md, Running the tests): the SQLite pass (every test
 * file), then the PostgreSQL pass (test/support/suite-files.ts), each a `node --test` pool of two
 * files at a time. Running the passes at once, or more files at a time, overloads two cores:
 * services under test then miss the waits their tests allow. The files that bound a latency or a
 * duration run afterwards, one at a time, on each of their passes, so that the pools' load does
 * not decide their outcome.
 * Each line of output is prefixed with its pass; the slowest files of each pass and any folder
 * the tests left in the temporary folder are listed at the end.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startPostgresServer } from './support/postgres-server.js';
import { postgresPassFiles, testFilesUnder } from './support/suite-files.js';

const TEST_ROOT = path.dirname(fileURLToPath(import.meta.url));
const REPORTER = path.join(TEST_ROOT, 'support', 'file-durations-reporter.js');

/** Test files per pool (see above). */
const POOL_CONCURRENCY = 2;

/**
 * They assert how long something took or how long an answer waited (a latency bound, a timeout
 * honoured): with other files loading both cores, they would measure the load, not Kumo.
 */
const RUN_ALONE = new Set([
  'api/event-loop-delay-metric.test.js',
  'api/operator-sessions.test.js',
  'api/site-search-facet-threads.test.js',
  'crawler/engine.test.js',
  'e2e/tenant-work-isolation.test.js',
  'search/extraction-fairness.test.js',
  'search/facet-threads.test.js',
  'search/suggest-build.test.js',
  'security/sign-in-flood.test.js',
  'webhooks/webhook-delivery.test.js',
  'webhooks/webhook-fairness.test.js',
  'worker/pace-thread.test.js',
  'worker/shared-pacing.test.js',
]);

interface PassResult {
  name: string;
  files: number;
  code: number;
  seconds: number;
  slowest: { file: string; ms: number }[];
}

const isAlone = (file: string) => RUN_ALONE.has(path.relative(TEST_ROOT, file));

async function runPass(
  name: string,
  files: string[],
  concurrency: number,
  env: NodeJS.ProcessEnv,
): Promise<PassResult> {
  if (files.length === 0) return { name, files: 0, code: 0, seconds: 0, slowest: [] };
  const started = Date.now();
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'kumo-suite-'));
  const report = path.join(reportDir, 'durations.jsonl');
  process.stdout.write(`[${name}] ${files.length} test files, ${concurrency} at a time\n`);
  const child = spawn(
    process.execPath,
    [
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${REPORTER}`,
      `--test-reporter-destination=${report}`,
      ...files,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${name}] ${line}\n`));
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode, signal) => resolve(exitCode ?? (signal === null ? 1 : 128)));
  });
  const slowest = readDurations(report).slice(0, 5);
  rmSync(reportDir, { recursive: true, force: true });
  return { name, files: files.length, code, seconds: Math.round((Date.now() - started) / 1000), slowest };
}

function readDurations(report: string): { file: string; ms: number }[] {
  try {
    return readFileSync(report, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { file: string; ms: number })
      .sort((a, b) => b.ms - a.ms);
  } catch {
    return [];
  }
}

/** The `kumo-*` entries of the temporary folder (test/support/service-harness.ts names them so). */
function kumoTempEntries(): Set<string> {
  return new Set(readdirSync(os.tmpdir()).filter((name) => name.startsWith('kumo-')));
}

// Test files given as arguments run instead of the whole suite, on both passes where they belong.
const given = process.argv.slice(2).map((file) => path.resolve(file));
const everyFile = given.length > 0 ? given : testFilesUnder(TEST_ROOT);
const postgresSet = new Set(postgresPassFiles(TEST_ROOT));
const postgresFiles = everyFile.filter((file) => postgresSet.has(file));
const tempBefore = kumoTempEntries();
const suiteStarted = Date.now();

const server = await startPostgresServer();
const postgresEnv = { KUMO_TEST_POSTGRES_URL: server.url };
const results: PassResult[] = [];
try {
  results.push(
    await runPass(
      'sqlite',
      everyFile.filter((file) => !isAlone(file)),
      POOL_CONCURRENCY,
      {},
    ),
  );
  results.push(
    await runPass(
      'postgres',
      postgresFiles.filter((file) => !isAlone(file)),
      POOL_CONCURRENCY,
      postgresEnv,
    ),
  );
  results.push(await runPass('sqlite, alone', everyFile.filter(isAlone), 1, {}));
  results.push(await runPass('postgres, alone', postgresFiles.filter(isAlone), 1, postgresEnv));
} finally {
  await server.stop();
}

for (const result of results.filter((pass) => pass.files > 0)) {
  process.stdout.write(
    `# ${result.name}: ${result.code === 0 ? 'passed' : 'FAILED'} in ${result.seconds} s\n`,
  );
  for (const { file, ms } of result.slowest)
    process.stdout.write(`#   ${(ms / 1000).toFixed(1)} s ${path.relative(TEST_ROOT, file)}\n`);
}
const leftovers = [...kumoTempEntries()].filter((name) => !tempBefore.has(name));
if (leftovers.length > 0)
  process.stdout.write(`# left in ${os.tmpdir()} during the run: ${leftovers.sort().join(', ')}\n`);
process.stdout.write(`# suite: ${Math.round((Date.now() - suiteStarted) / 1000)} s\n`);
process.exitCode = results.some((result) => result.code !== 0) ? 1 : 0;
