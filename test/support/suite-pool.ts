/**
 * Runs the jobs of `npm test` in the order given, at least `min` at a time, and more, up to
 * `max`, while processors sit idle (test/support/idle-processors.ts): most test files wait more
 * than they compute, and those that compute would make services under test miss their waits if
 * they piled up (docs/operations.md, Running the tests).
 */
import { IdleProcessors } from './idle-processors.js';
import { type JobOutcome, runJob, type SuiteJob } from './suite-job.js';

export interface PoolLimits {
  min: number;
  max: number;
}

/** Idle processors, on average over the last seconds, that let one more file start. */
const IDLE_TO_START = 0.75;
/** A file started needs a moment to load and get going before the idleness says anything. */
const SETTLE_MS = 4000;
const CHECK_MS = 250;

export async function runPool(
  jobs: SuiteJob[],
  limits: PoolLimits,
  reportDir: string,
  idPrefix: string,
): Promise<JobOutcome[]> {
  const idle = new IdleProcessors();
  const outcomes: JobOutcome[] = [];
  const running = new Set<Promise<void>>();
  let next = 0;
  let lastStart = 0;
  const start = () => {
    const index = next++;
    const job = jobs[index]!;
    lastStart = Date.now();
    const done: Promise<void> = runJob(job, reportDir, `${idPrefix}-${index}`).then((outcome) => {
      outcomes.push(outcome);
      running.delete(done);
    });
    running.add(done);
  };
  const roomForMore = () => {
    if (running.size < limits.min) return true;
    if (running.size >= limits.max || Date.now() - lastStart < SETTLE_MS) return false;
    return (idle.idleOverWindow() ?? 0) >= IDLE_TO_START;
  };
  try {
    while (next < jobs.length || running.size > 0) {
      while (next < jobs.length && roomForMore()) start();
      const tick = new Promise<void>((resolve) => setTimeout(resolve, CHECK_MS));
      await Promise.race([tick, ...running]);
    }
  } finally {
    idle.stop();
  }
  return outcomes;
}
