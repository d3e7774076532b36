/**
 * A node:test reporter that writes, once the run ends, one line of JSON per test file (the file
 * and the time its top-level tests took, summed) and one per failed test (the file, the test's
 * name and the first lines of its error). test/run-suite.ts prints the slowest files and every
 * failure at the end, where a log cut to its last lines still shows them (docs/operations.md,
 * Running the tests).
 */
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

export default async function* fileDurations(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const byFile = new Map<string, number>();
  const failures: TestFailure[] = [];
  for await (const event of source) {
    const file = event.data.file ?? '';
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0)
      byFile.set(file, (byFile.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    const error = event.data.details?.error;
    // A suite whose tests failed fails too; only the tests themselves are worth a line.
    if (event.type === 'test:fail' && error !== undefined && error.failureType !== 'subtestsFailed')
      failures.push({ kind: 'failure', file, test: event.data.name ?? '', error: errorText(error) });
  }
  for (const [file, ms] of byFile)
    yield `${JSON.stringify({ kind: 'duration', file, ms: Math.round(ms) })}\n`;
  for (const failure of failures) yield `${JSON.stringify(failure)}\n`;
}
