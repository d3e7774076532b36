/**
 * `npm test` after the build (docs/operations.md, Running the tests): every test file on SQLite
 * and the files of test/support/suite-files.ts again on PostgreSQL, from one pool
 * (test/support/suite-pool.ts) that runs two files at a time and more while processors sit idle,
 * the longest expected first. The files that bound a latency or a duration run afterwards, one at
 * a time on each of their passes, so that the pool's load does not decide their outcome.
 * Each file's output is printed whole when it ends, each line prefixed with its pass; at the end
 * each pass's figures, every failed test (or the last lines of a file that failed without one),
 * and any folder the tests left in the temporary folder.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgresServer } from './support/postgres-server.js';
import { postgresPassFiles, testFilesUnder } from './support/suite-files.js';
import type { JobOutcome, SuiteJob } from './support/suite-job.js';
import { runPool } from './support/suite-pool.js';

const TEST_ROOT = path.dirname(fileURLToPath(import.meta.url));
/** Every file's figures of the last run: a closer look than the summary's, and the next run's order. */
const TIMES_TABLE = path.join(TEST_ROOT, 'suite-times.tsv');

/** Two files at a time always; up to four while processors sit idle (suite-pool.ts). */
const POOL_LIMITS = { min: 2, max: 4 };

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
  'widget/widget-suggest.test.js',
  'webhooks/webhook-delivery.test.js',
  'webhooks/webhook-fairness.test.js',
  'worker/pace-thread.test.js',
  'worker/run-isolation.test.js',
  'worker/shared-pacing.test.js',
]);

/**
 * Without the figures of an earlier run, the folders whose files take longest go first, so that
 * the pool does not end on one long file while a core sits idle.
 */
const FOLDER_GUESS_MS: Record<string, number> = {
  e2e: 25_000,
  console: 25_000,
  widget: 25_000,
  cli: 15_000,
  browser: 10_000,
};
const DEFAULT_GUESS_MS = 3000;

const relative = (file: string) => path.relative(TEST_ROOT, file);
const isAlone = (file: string) => RUN_ALONE.has(relative(file));

/** `pass\tfile` → the file's wall time in the previous run's table, when there is one. */
function previousTimes(): Map<string, number> {
  const times = new Map<string, number>();
  try {
    for (const line of readFileSync(TIMES_TABLE, 'utf8').split('\n').slice(1)) {
      const [pass, file, wallMs] = line.split('\t');
      if (pass !== undefined && file !== undefined && wallMs !== undefined)
        times.set(`${pass}\t${file}`, Number(wallMs));
    }
  } catch {
    // The first run: guessed from the folders.
  }
  return times;
}

/** Longest expected first. */
function longestFirst(jobs: SuiteJob[]): SuiteJob[] {
  const previous = previousTimes();
  const expected = (job: SuiteJob) =>
    previous.get(`${job.pass}\t${relative(job.file)}`) ??
    FOLDER_GUESS_MS[relative(job.file).split(path.sep)[0] ?? ''] ??
    DEFAULT_GUESS_MS;
  return jobs
    .map((job) => ({ job, ms: expected(job) }))
    .sort((a, b) => b.ms - a.ms)
    .map(({ job }) => job);
}

/** The `kumo-*` entries of the temporary folder (test/support/service-harness.ts names them so). */
function kumoTempEntries(): Set<string> {
  return new Set(readdirSync(os.tmpdir()).filter((name) => name.startsWith('kumo-')));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function printPass(pass: string, outcomes: JobOutcome[]): void {
  const failed = outcomes.filter((outcome) => outcome.code !== 0).length;
  const processorMs = outcomes.reduce((sum, outcome) => sum + outcome.selfMs + outcome.childrenMs, 0);
  process.stdout.write(
    `# ${pass}: ${outcomes.length} files, ${failed === 0 ? 'passed' : `${failed} FAILED`}, ` +
      `${Math.round(processorMs / 1000)} s of processor time\n`,
  );
  process.stdout.write('#  longest:\n');
  for (const outcome of [...outcomes].sort((a, b) => b.wallMs - a.wallMs).slice(0, 5))
    process.stdout.write(`#   ${seconds(outcome.wallMs)} ${relative(outcome.job.file)}\n`);
  process.stdout.write('#  most processor time (the file itself + what it started):\n');
  const cost = (outcome: JobOutcome) => outcome.selfMs + outcome.childrenMs;
  for (const outcome of [...outcomes].sort((a, b) => cost(b) - cost(a)).slice(0, 5))
    process.stdout.write(
      `#   ${seconds(cost(outcome))} (${seconds(outcome.selfMs)} + ${seconds(outcome.childrenMs)}) ` +
        `${relative(outcome.job.file)}\n`,
    );
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
const jobsOf = (pass: string, files: string[], env: NodeJS.ProcessEnv): SuiteJob[] =>
  files.map((file) => ({ pass, file, env }));
const pooled = longestFirst([
  ...jobsOf(
    'sqlite',
    everyFile.filter((file) => !isAlone(file)),
    {},
  ),
  ...jobsOf(
    'postgres',
    postgresFiles.filter((file) => !isAlone(file)),
    postgresEnv,
  ),
]);
const alone = [
  ...jobsOf('sqlite, alone', everyFile.filter(isAlone), {}),
  ...jobsOf('postgres, alone', postgresFiles.filter(isAlone), postgresEnv),
];
const reportDir = mkdtempSync(path.join(os.tmpdir(), 'kumo-suite-'));
const outcomes: JobOutcome[] = [];
let poolSeconds = 0;
try {
  process.stdout.write(
    `# ${pooled.length} test files (SQLite and PostgreSQL), ${POOL_LIMITS.min} at a time, ` +
      `up to ${POOL_LIMITS.max} while processors sit idle; then ${alone.length} one at a time\n`,
  );
  const poolStarted = Date.now();
  outcomes.push(...(await runPool(pooled, POOL_LIMITS, reportDir, 'pool')));
  poolSeconds = Math.round((Date.now() - poolStarted) / 1000);
  outcomes.push(...(await runPool(alone, { min: 1, max: 1 }, reportDir, 'alone')));
} finally {
  rmSync(reportDir, { recursive: true, force: true });
  await server.stop();
}

const passes = ['sqlite', 'postgres', 'sqlite, alone', 'postgres, alone'].filter((pass) =>
  outcomes.some((outcome) => outcome.job.pass === pass),
);
for (const pass of passes)
  printPass(
    pass,
    outcomes.filter((outcome) => outcome.job.pass === pass),
  );
for (const outcome of outcomes) {
  for (const { test, error } of outcome.failures) {
    process.stdout.write(`# FAILED [${outcome.job.pass}] ${relative(outcome.job.file)} › ${test}\n`);
    for (const line of error.split('\n')) process.stdout.write(`#     ${line}\n`);
  }
  // A file that ended badly without a failed test (it crashed, or hung past its timeout).
  if (outcome.code !== 0 && outcome.failures.length === 0) {
    process.stdout.write(
      `# FAILED [${outcome.job.pass}] ${relative(outcome.job.file)}: exit code ${outcome.code}; it last printed:\n`,
    );
    for (const line of outcome.outputTail) process.stdout.write(`#     ${line}\n`);
  }
}
writeFileSync(
  TIMES_TABLE,
  [
    'pass\tfile\twall ms\ttests ms\tprocessor ms (itself)\tprocessor ms (what it started)',
    ...outcomes.map((outcome) =>
      [
        outcome.job.pass,
        relative(outcome.job.file),
        outcome.wallMs,
        Math.round(outcome.testMs),
        outcome.selfMs,
        outcome.childrenMs,
      ].join('\t'),
    ),
  ].join('\n') + '\n',
);
process.stdout.write(`# every file's figures: ${TIMES_TABLE}\n`);
const leftovers = [...kumoTempEntries()].filter((name) => !tempBefore.has(name));
if (leftovers.length > 0)
  process.stdout.write(`# left in ${os.tmpdir()} during the run: ${leftovers.sort().join(', ')}\n`);
const aloneSeconds = Math.round((Date.now() - suiteStarted) / 1000) - poolSeconds;
process.stdout.write(
  `# suite: ${Math.round((Date.now() - suiteStarted) / 1000)} s (pool ${poolSeconds} s, ` +
    `then one at a time and the rest ${aloneSeconds} s)\n`,
);
process.exitCode = outcomes.some((outcome) => outcome.code !== 0) ? 1 : 0;
