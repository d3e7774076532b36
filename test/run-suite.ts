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
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startPostgresServer } from './support/postgres-server.js';
import type { FileDuration, TestFailure } from './support/file-durations-reporter.js';
import { postgresPassFiles, testFilesUnder } from './support/suite-files.js';

const TEST_ROOT = path.dirname(fileURLToPath(import.meta.url));
const REPORTER = path.join(TEST_ROOT, 'support', 'file-durations-reporter.js');
/** Every file's wall and processor time of the last run, for a closer look than the summary's. */
const TIMES_TABLE = path.join(TEST_ROOT, 'suite-times.tsv');
const CPU_TIME_PRELOAD = pathToFileURL(path.join(TEST_ROOT, 'support', 'cpu-time-preload.js')).href;

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
  slowest: FileDuration[];
  costliest: FileProcessorTime[];
  /** Every file's line of the times table (see TIMES_TABLE). */
  table: string[];
  processorSeconds: number;
  failures: TestFailure[];
}

/** One line of test/support/cpu-time-preload.ts's report. */
interface FileProcessorTime {
  file: string;
  self: number;
  children: number;
}

const isAlone = (file: string) => RUN_ALONE.has(path.relative(TEST_ROOT, file));

async function runPass(
  name: string,
  files: string[],
  concurrency: number,
  env: NodeJS.ProcessEnv,
): Promise<PassResult> {
  if (files.length === 0)
    return {
      name,
      files: 0,
      code: 0,
      seconds: 0,
      slowest: [],
      costliest: [],
      table: [],
      processorSeconds: 0,
      failures: [],
    };
  const started = Date.now();
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'kumo-suite-'));
  const report = path.join(reportDir, 'durations.jsonl');
  const cpuReport = path.join(reportDir, 'processor-time.jsonl');
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
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...env,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${CPU_TIME_PRELOAD}`.trim(),
        KUMO_TEST_CPU_REPORT: cpuReport,
      },
    },
  );
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${name}] ${line}\n`));
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode, signal) => resolve(exitCode ?? (signal === null ? 1 : 128)));
  });
  const reported = readJsonLines<FileDuration | TestFailure>(report);
  const durations = reported
    .filter((line): line is FileDuration => line.kind === 'duration')
    .sort((a, b) => b.ms - a.ms);
  const slowest = durations.slice(0, 5);
  const failures = reported.filter((line): line is TestFailure => line.kind === 'failure');
  const processorTimes = readJsonLines<FileProcessorTime>(cpuReport);
  const total = (time: FileProcessorTime) => time.self + time.children;
  const costliest = [...processorTimes].sort((a, b) => total(b) - total(a)).slice(0, 5);
  const processorSeconds = Math.round(processorTimes.reduce((sum, time) => sum + total(time), 0) / 1000);
  const processorTimeOf = new Map(processorTimes.map((time) => [time.file, time]));
  const table = durations.map(({ file, ms }) => {
    const time = processorTimeOf.get(file);
    return [name, path.relative(TEST_ROOT, file), ms, time?.self ?? '', time?.children ?? ''].join('\t');
  });
  rmSync(reportDir, { recursive: true, force: true });
  const seconds = Math.round((Date.now() - started) / 1000);
  return { name, files: files.length, code, seconds, slowest, costliest, table, processorSeconds, failures };
}

function readJsonLines<Line>(file: string): Line[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Line);
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

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
for (const result of results.filter((pass) => pass.files > 0)) {
  process.stdout.write(
    `# ${result.name}: ${result.code === 0 ? 'passed' : 'FAILED'} in ${result.seconds} s, ` +
      `${result.processorSeconds} s of processor time\n`,
  );
  process.stdout.write('#  longest:\n');
  for (const { file, ms } of result.slowest)
    process.stdout.write(`#   ${seconds(ms)} ${path.relative(TEST_ROOT, file)}\n`);
  process.stdout.write('#  most processor time (the file itself + what it started):\n');
  for (const { file, self, children } of result.costliest)
    process.stdout.write(
      `#   ${seconds(self + children)} (${seconds(self)} + ${seconds(children)}) ${path.relative(TEST_ROOT, file)}\n`,
    );
}
const failures = results.flatMap((result) =>
  result.failures.map((failure) => ({ pass: result.name, ...failure })),
);
for (const { pass, file, test, error } of failures) {
  process.stdout.write(`# FAILED [${pass}] ${path.relative(TEST_ROOT, file)} › ${test}\n`);
  for (const line of error.split('\n')) process.stdout.write(`#     ${line}\n`);
}
writeFileSync(
  TIMES_TABLE,
  [
    'pass\tfile\twall ms\tprocessor ms (itself)\tprocessor ms (what it started)',
    ...results.flatMap((r) => r.table),
  ].join('\n') + '\n',
);
process.stdout.write(`# every file's times: ${TIMES_TABLE}\n`);
const leftovers = [...kumoTempEntries()].filter((name) => !tempBefore.has(name));
if (leftovers.length > 0)
  process.stdout.write(`# left in ${os.tmpdir()} during the run: ${leftovers.sort().join(', ')}\n`);
process.stdout.write(`# suite: ${Math.round((Date.now() - suiteStarted) / 1000)} s\n`);
process.exitCode = results.some((result) => result.code !== 0) ? 1 : 0;
