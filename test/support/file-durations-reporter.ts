/**
 * A node:test reporter that writes one line of JSON per top-level test (the file and the time it
 * took) and one per failed test (the file, the test's name and the first lines of its error) to
 * the file named by `KUMO_TEST_REPORT`. test/run-suite.ts prints the slowest files and every
 * failure at the end, where a log cut to its last lines still shows them (docs/operations.md,
 * Running the tests).
 */
import { appendFileSync } from 'node:fs';

interface TestEvent {
  type: string;
  data: {
    name?: string;
    nesting?: number;
    file?: string;
    details?: { duration_ms?: number; error?: { failureType?: string; message?: string; cause?: unknown } };
  };
}

export interface FileDuration {
  kind: 'duration';
  file: string;
  ms: number;
}

export interface TestFailure {
  kind: 'failure';
  file: string;
  test: string;
  error: string;
}

/** The error's own message (a failed assertion's is in its cause), cut to a few lines. */
function errorText(error: NonNullable<NonNullable<TestEvent['data']['details']>['error']>): string {
  const cause = error.cause;
  const causeMessage =
    typeof cause === 'object' && cause !== null && 'message' in cause ? String(cause.message) : undefined;
  const message = causeMessage ?? (typeof cause === 'string' ? cause : (error.message ?? 'failed'));
  return message
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, 6)
    .join('\n');
}

/**
 * Each line is appended to the file as its event arrives, synchronously: `--test-force-exit`
 * ends the process as soon as the run ends, before a reporter's stream would be flushed.
 */
export default async function* fileDurations(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const destination = process.env.KUMO_TEST_REPORT;
  const write = (line: FileDuration | TestFailure) => {
    if (destination !== undefined) appendFileSync(destination, `${JSON.stringify(line)}\n`);
  };
  for await (const event of source) {
    const file = event.data.file ?? '';
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0)
      write({ kind: 'duration', file, ms: Math.round(event.data.details?.duration_ms ?? 0) });
    const error = event.data.details?.error;
    // A suite whose tests failed fails too; only the tests themselves are worth a line.
    if (event.type === 'test:fail' && error !== undefined && error.failureType !== 'subtestsFailed')
      write({ kind: 'failure', file, test: event.data.name ?? '', error: errorText(error) });
  }
  yield* [];
}
