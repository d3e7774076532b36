/**
 * A node:test reporter that writes, once the run ends, one line of JSON per test file: the file
 * and the time its top-level tests took, summed. test/run-suite.ts prints the slowest ones, which
 * tells where the suite's time goes (docs/operations.md, Running the tests).
 */
interface TestEvent {
  type: string;
  data: { nesting?: number; file?: string; details?: { duration_ms?: number } };
}

export default async function* fileDurations(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const byFile = new Map<string, number>();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0) {
      const file = event.data.file ?? '';
      byFile.set(file, (byFile.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
  }
  for (const [file, ms] of byFile) yield `${JSON.stringify({ file, ms: Math.round(ms) })}\n`;
}
