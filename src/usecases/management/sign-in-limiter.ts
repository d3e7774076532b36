import { SignInLimitedError } from './management-errors.js';

/**
 * Failed password attempts in a sliding window, per key (an account, a client address, the
 * operator from an address) (docs/operations.md, Console security): at `limit` failures of a key
 * within the window, further attempts are refused without looking at the password until the
 * oldest failure leaves the window. An attempt counts from the moment it starts, before its
 * password is hashed: a reserved attempt still being checked counts like a failure, so N
 * attempts sent at once can never check more than `limit` passwords. Unknown addresses count like
 * known ones, so the refusal tells nothing about accounts. Kept in memory: a restart forgets the
 * failures.
 */
export const SIGN_IN_LIMITS = {
  windowMicros: 15 * 60 * 1_000_000,
  perAccount: 5,
  perAddress: 20,
} as const;

/**
 * Retry-After of an attempt refused only because others of its keys are still being checked: a
 * check takes about a hash (password-hash.ts), so a second is enough to see how they ended.
 */
export const IN_FLIGHT_RETRY_SECONDS = 1;

/** Keys remembered before those without a failure in the window are dropped. */
const MAX_KEYS = 10_000;

/** A key and the number of failures within the window that locks it. */
export interface LimitedKey {
  key: string;
  limit: number;
}

/**
 * An attempt reserved against its keys: it must end exactly once, as a failure (it stays in the
 * window), a success (it leaves no trace) or abandoned (the password was never checked).
 */
export interface ReservedAttempt {
  failed(nowMicros: number): void;
  succeeded(): void;
  abandoned(): void;
}

export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();
  /** Attempts reserved and not yet ended, per key. */
  private readonly inFlight = new Map<string, number>();

  /**
   * Reserves an attempt on every key, or answers the seconds to wait when one of them has
   * `limit` failures and attempts in flight together.
   */
  reserve(keys: readonly LimitedKey[], nowMicros: number): ReservedAttempt | { retryAfterSeconds: number } {
    let waitMicros = 0;
    let busy = false;
    for (const { key, limit } of keys) {
      const recent = this.recent(key, nowMicros);
      if (recent.length >= limit) {
        const freedAt = recent[recent.length - limit]! + SIGN_IN_LIMITS.windowMicros;
        waitMicros = Math.max(waitMicros, freedAt - nowMicros);
      } else if (recent.length + (this.inFlight.get(key) ?? 0) >= limit) {
        busy = true;
      }
    }
    if (waitMicros > 0) return { retryAfterSeconds: Math.max(1, Math.ceil(waitMicros / 1_000_000)) };
    if (busy) return { retryAfterSeconds: IN_FLIGHT_RETRY_SECONDS };
    const names = keys.map(({ key }) => key);
    for (const key of names) this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    let ended = false;
    const end = () => {
      if (ended) return false;
      ended = true;
      for (const key of names) {
        const left = (this.inFlight.get(key) ?? 1) - 1;
        if (left > 0) this.inFlight.set(key, left);
        else this.inFlight.delete(key);
      }
      return true;
    };
    return {
      failed: (at) => {
        if (end()) this.fail(names, at);
      },
      succeeded: () => void end(),
      abandoned: () => void end(),
    };
  }

  /** Forgets the failures of `key` (an account's, after its right password). */
  clear(key: string): void {
    this.failures.delete(key);
  }

  private fail(keys: readonly string[], nowMicros: number): void {
    if (this.failures.size >= MAX_KEYS) this.forgetIdle(nowMicros);
    for (const key of keys) this.failures.set(key, [...this.recent(key, nowMicros), nowMicros]);
  }

  private recent(key: string, nowMicros: number): number[] {
    const since = nowMicros - SIGN_IN_LIMITS.windowMicros;
    return (this.failures.get(key) ?? []).filter((at) => at > since);
  }

  private forgetIdle(nowMicros: number): void {
    for (const key of [...this.failures.keys()]) {
      if (this.recent(key, nowMicros).length === 0) this.failures.delete(key);
    }
  }
}

/** The key of an account's password attempts (sign-ins and password changes), by its email. */
export function accountAttemptsKey(normalEmail: string): string {
  return `account:${normalEmail}`;
}

/** Reserves an attempt, or throws SignInLimitedError with the wait; `what` names the attempts. */
export function reserveAttempt(
  limiter: SignInLimiter,
  keys: readonly LimitedKey[],
  nowMicros: number,
  what?: string,
): ReservedAttempt {
  const attempt = limiter.reserve(keys, nowMicros);
  if ('retryAfterSeconds' in attempt) throw new SignInLimitedError(attempt.retryAfterSeconds, what);
  return attempt;
}

/**
 * Runs the check of a reserved attempt; when it throws (the hash queue is full, the store is
 * away) the password was not judged, so the attempt is abandoned rather than counted.
 */
export async function settle<T>(attempt: ReservedAttempt, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    attempt.abandoned();
    throw error;
  }
}
