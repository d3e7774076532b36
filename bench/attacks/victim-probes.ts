/**
 * The victim's view of an attack: its health check and its site search requested every 50 ms
 * while the attack runs, each on a connection of its own and without waiting for the previous
 * one, as independent visitors would. A probe still unanswered when the probes stop counts with
 * the time it has waited so far.
 */
import { call } from './http-call.js';

const PROBE_INTERVAL_MS = 50;

export interface ProbeFigures {
  sent: number;
  /** Answered with a 2xx. */
  answered: number;
  /** Answered with another status, failed or unanswered. */
  failed: number;
  medianMs: number;
  worstMs: number;
}

export interface VictimProbes {
  /** Stops sending; waits up to `graceMs` for the probes in flight. */
  stop(graceMs: number): Promise<{ health: ProbeFigures; search: ProbeFigures }>;
}

interface Probe {
  started: number;
  ms?: number;
  ok?: boolean;
}

function figures(probes: readonly Probe[], now: number): ProbeFigures {
  const times = probes.map((probe) => probe.ms ?? now - probe.started).sort((a, b) => a - b);
  const answered = probes.filter((probe) => probe.ok === true).length;
  return {
    sent: probes.length,
    answered,
    failed: probes.length - answered,
    medianMs: times[Math.floor(times.length / 2)] ?? Number.NaN,
    worstMs: times[times.length - 1] ?? Number.NaN,
  };
}

export function startVictimProbes(healthUrl: string, searchUrl: string): VictimProbes {
  const health: Probe[] = [];
  const search: Probe[] = [];
  const inFlight = new Set<Promise<void>>();
  const send = (url: string, probes: Probe[]) => {
    const probe: Probe = { started: performance.now() };
    probes.push(probe);
    const done = call(url).then((answer) => {
      probe.ms = answer.ms;
      probe.ok = typeof answer.status === 'number' && answer.status >= 200 && answer.status < 300;
      inFlight.delete(done);
    });
    inFlight.add(done);
  };
  const timer = setInterval(() => {
    send(healthUrl, health);
    send(searchUrl, search);
  }, PROBE_INTERVAL_MS);
  return {
    async stop(graceMs) {
      clearInterval(timer);
      await Promise.race([
        Promise.all(inFlight),
        new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
      ]);
      const now = performance.now();
      return { health: figures(health, now), search: figures(search, now) };
    },
  };
}
