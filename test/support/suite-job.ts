/**
 * One test file of one pass of `npm test`, run by `node --test` in a process of its own
 * (test/run-suite.ts). Its output is kept and printed whole when it ends, so that files running at
 * once do not interleave their lines; what it reported (duration, failures) and the processor time
 * it used come back as figures (docs/operations.md, Running the tests).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FileDuration, TestFailure } from './file-durations-reporter.js';

const SUPPORT = path.dirname(fileURLToPath(import.meta.url));
const REPORTER = path.join(SUPPORT, 'file-durations-reporter.js');
/** Enough for a crash's stack or a hung hook's report. */
const OUTPUT_TAIL_LINES = 30;
const CPU_TIME_PRELOAD = pathToFileURL(path.join(SUPPORT, 'cpu-time-preload.js')).href;

export interface SuiteJob {
  /** The pass: `sqlite`, `postgres`, or either `, alone`. */
  pass: string;
  file: string;
  env: NodeJS.ProcessEnv;
}

export interface JobOutcome {
  job: SuiteJob;
  code: number;
  /** The file's top-level tests, summed (its own report). */
  testMs: number;
  /** The file's process from start to exit. */
  wallMs: number;
  /** Processor time of the file's process, and of the processes it started and waited for. */
  selfMs: number;
  childrenMs: number;
  failures: TestFailure[];
  /** The last lines the file printed: what is left to show when it failed without a failed test. */
  outputTail: string[];
}

/** Runs `job`, writing its reports under `reportDir` with the name `id`, and prints its output at the end. */
export async function runJob(job: SuiteJob, reportDir: string, id: string): Promise<JobOutcome> {
  const started = Date.now();
  const report = path.join(reportDir, `${id}.jsonl`);
  const cpuReport = path.join(reportDir, `${id}-cpu.jsonl`);
  const child = spawn(
    process.execPath,
    [
      '--test',
      // A file whose tests are done but which something keeps alive (a browser a failed hook
      // never closed) ends with its report instead of holding the suite up.
      '--test-force-exit',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      // It writes to KUMO_TEST_REPORT itself (file-durations-reporter.ts says why).
      `--test-reporter=${REPORTER}`,
      '--test-reporter-destination=/dev/null',
      job.file,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...job.env,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${CPU_TIME_PRELOAD}`.trim(),
        KUMO_TEST_CPU_REPORT: cpuReport,
        KUMO_TEST_REPORT: report,
      },
    },
  );
  const output: string[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode, signal) => resolve(exitCode ?? (signal === null ? 1 : 128)));
  });
  const lines = output.join('').split('\n');
  if (lines.at(-1) === '') lines.pop();
  process.stdout.write(lines.map((line) => `[${job.pass}] ${line}\n`).join(''));

  const reported = readJsonLines<FileDuration | TestFailure>(report);
  const cpu = readJsonLines<{ self: number; children: number }>(cpuReport)[0];
  return {
    job,
    code,
    testMs: reported.reduce((sum, line) => sum + (line.kind === 'duration' ? line.ms : 0), 0),
    wallMs: Date.now() - started,
    selfMs: cpu?.self ?? 0,
    childrenMs: cpu?.children ?? 0,
    failures: reported.filter((line): line is TestFailure => line.kind === 'failure'),
    outputTail: lines.slice(-OUTPUT_TAIL_LINES),
  };
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
