/**
 * Probes a service's answers while some work runs, to bound how long another tenant waits. The
 * service runs in the test's process, so a blocked event loop also holds the probe's own timers:
 * each probe is timed from when it was due (the previous answer, plus the pause between rounds),
 * not from when its request left, so a stall while the probe slept counts too.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sleep } from './service-harness.js';

/** One request of a round: resolves once answered (and its answer checked). */
export type Probe = () => Promise<void>;

export interface ProbeReport<T> {
  /** What the work settled with. */
  value: T;
  /** The longest wait of each probe, from when it was due to its answer. */
  worstMs: Record<string, number>;
  /** When each longest wait ended, in ms from the start of the work. */
  worstAtMs: Record<string, number>;
  /** The 95th percentile of each probe's waits. */
  p95Ms: Record<string, number>;
  rounds: number;
  /** The longest the process's event loop (the service's API thread) was held meanwhile. */
  loopHeldMs: number;
}

/** Runs rounds of every probe, `pauseMs` apart, until `work` settles; then one last round. */
export async function probeWhile<T>(
  work: Promise<T>,
  probes: Record<string, Probe>,
  pauseMs = 50,
): Promise<ProbeReport<T>> {
  let settled = false;
  const done = work.finally(() => (settled = true));
  // Kept from rejecting unobserved while the rounds run; awaited below.
  done.catch(() => undefined);
  const worstMs: Record<string, number> = Object.fromEntries(Object.keys(probes).map((name) => [name, 0]));
  const worstAtMs: Record<string, number> = { ...worstMs };
  const waits: Record<string, number[]> = Object.fromEntries(Object.keys(probes).map((name) => [name, []]));
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let rounds = 0;
  const started = performance.now();
  let lastAnswer = started;
  for (let last = false; !last;) {
    last = settled;
    await sleep(pauseMs);
    let due = lastAnswer + pauseMs;
    for (const [name, probe] of Object.entries(probes)) {
      await probe();
      const answered = performance.now();
      waits[name]!.push(answered - due);
      if (answered - due > worstMs[name]!) {
        worstMs[name] = answered - due;
        worstAtMs[name] = answered - started;
      }
      due = answered;
    }
    lastAnswer = due;
    rounds += 1;
  }
  loop.disable();
  const p95Ms = Object.fromEntries(
    Object.entries(waits).map(([name, list]) => [name, percentile(list, 0.95)]),
  );
  return { value: await done, worstMs, worstAtMs, p95Ms, rounds, loopHeldMs: loop.max / 1e6 };
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}
