/** The knobs of bench:engines, read from BENCH_* variables (docs/operations.md, Benchmark). */

export interface EnginesOptions {
  /** Seconds of each measured HTTP load (BENCH_SECONDS). */
  seconds: number;
  /** Unmeasured seconds of load before each engine's measured ones (BENCH_WARMUP_SECONDS). */
  warmupSeconds: number;
  /** Measured rounds over every query in process (BENCH_ROUNDS). */
  rounds: number;
  /** Rounds run first and thrown away, while the code and caches warm up (BENCH_WARMUP_ROUNDS). */
  warmupRounds: number;
  /** Queries taken from the judgments (BENCH_QUERIES); every Japanese one is kept. */
  queries: number;
}

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number >= ${min}`);
  return value;
}

export function enginesOptions(): EnginesOptions {
  return {
    seconds: envInt('BENCH_SECONDS', 10, 1),
    warmupSeconds: envInt('BENCH_WARMUP_SECONDS', 2, 0),
    rounds: envInt('BENCH_ROUNDS', 20, 1),
    warmupRounds: envInt('BENCH_WARMUP_ROUNDS', 5, 0),
    queries: envInt('BENCH_QUERIES', 200, 1),
  };
}
