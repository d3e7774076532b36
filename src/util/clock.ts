import { performance } from 'node:perf_hooks';

/** Time source of the service; the engine and the API take one so tests can pin time. */
export interface Clock {
  /** Microseconds since the Unix epoch. */
  nowMicros(): number;
}

/** Wall clock with microsecond resolution (Date has only milliseconds; API timestamps carry six digits). */
export const systemClock: Clock = {
  nowMicros: () => Math.floor((performance.timeOrigin + performance.now()) * 1000),
};
