import { availableParallelism } from 'node:os';
import { PasswordChecksBusyError } from './management-errors.js';

/**
 * How many password hashes run at once and how many wait (docs/operations.md, Console security).
 * scrypt runs on Node's small thread pool (4 threads), which also reads and writes files for the
 * rest of the service, and each hash keeps a core busy for about 100 ms: a flood of sign-ins
 * would fill the pool and the cores and stall health checks and crawls for seconds. So hashes
 * leave a core to the rest of the service (one at a time on 2 cores, two from 3 cores on, never
 * more than half the pool), and 8 wait per running one, drained within a second; past that an
 * attempt is refused at once with 429 and Retry-After.
 */
export const PASSWORD_HASH_LIMITS = hashLimitsFor(availableParallelism());

export function hashLimitsFor(cores: number): { concurrent: number; queued: number } {
  const concurrent = Math.max(1, Math.min(2, cores - 1));
  return { concurrent, queued: 8 * concurrent };
}

/** About how long one hash takes (password-hash.ts), for the Retry-After of a full queue. */
const HASH_MILLIS = 100;

/** Runs password hashes at most `concurrent` at a time, `queued` waiting, refusing the rest. */
export class PasswordHashGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limits: { concurrent: number; queued: number }) {}

  /** Runs `work` when a place is free; PasswordChecksBusyError when the queue is full. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.limits.concurrent) {
      this.running += 1;
    } else if (this.waiting.length < this.limits.queued) {
      // The place of a finishing hash is handed over as it is: `running` stays counted.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      throw new PasswordChecksBusyError(this.retryAfterSeconds());
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.running -= 1;
      else next();
    }
  }

  /** The time the queue ahead takes to drain, in whole seconds, at least 1. */
  private retryAfterSeconds(): number {
    const rounds = Math.ceil(this.waiting.length / this.limits.concurrent) + 1;
    return Math.max(1, Math.ceil((rounds * HASH_MILLIS) / 1000));
  }
}
