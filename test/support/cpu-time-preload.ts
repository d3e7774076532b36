/**
 * Loaded into every test file's process by test/run-suite.ts (`--import`): when the file's
 * process exits, appends one line of JSON to the file KUMO_TEST_CPU_REPORT names, with the
 * processor time the test file used itself and that of the processes it started and waited for
 * (services, commands, Chromium). The suite prints the costliest files: on two cores the suite's
 * wall time is bounded by the processor time its files need (docs/operations.md, Running the
 * tests). Processes the tests start inherit the option, so only a test file's own process writes.
 */
import { appendFileSync, readFileSync } from 'node:fs';

const report = process.env.KUMO_TEST_CPU_REPORT;
const entry = process.argv[1] ?? '';
const CLOCK_TICKS_PER_SECOND = 100;

/** utime, stime, cutime, cstime of /proc/self/stat, in milliseconds (Linux; undefined elsewhere). */
function processorTimes(): { self: number; children: number } | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const [utime = 0, stime = 0, cutime = 0, cstime = 0] = fields.slice(11, 15);
    const toMs = (ticks: number) => (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
    return { self: toMs(utime + stime), children: toMs(cutime + cstime) };
  } catch {
    return undefined;
  }
}

if (report !== undefined && entry.endsWith('.test.js')) {
  process.on('exit', () => {
    const times = processorTimes();
    if (times === undefined) return;
    appendFileSync(report, `${JSON.stringify({ file: entry, ...times })}\n`);
  });
}
