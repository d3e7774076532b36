/**
 * Failed sign-ins in a sliding window, per account address and per client address
 * (docs/operations.md, Console security): at SIGN_IN_LIMITS.perAccount failures of one email
 * address, or perAddress failures from one client address, within the window, further attempts
 * are refused without looking at the password until the oldest failure leaves the window.
 * Unknown addresses count like known ones, so the refusal tells nothing about accounts. Kept in
 * memory: a restart forgets the failures.
 */
export const SIGN_IN_LIMITS = {
  windowMicros: 15 * 60 * 1_000_000,
  perAccount: 5,
  perAddress: 20,
} as const;

/** Keys remembered before those without a failure in the window are dropped. */
const MAX_KEYS = 10_000;

export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();

  /** Seconds to wait before `keys` may try again; undefined when none of them is locked. */
  retryAfterSeconds(keys: readonly { key: string; limit: number }[], nowMicros: number): number | undefined {
    let waitMicros = 0;
    for (const { key, limit } of keys) {
      const recent = this.recent(key, nowMicros);
      if (recent.length >= limit) {
        const freedAt = recent[recent.length - limit]! + SIGN_IN_LIMITS.windowMicros;
        waitMicros = Math.max(waitMicros, freedAt - nowMicros);
      }
    }
    return waitMicros > 0 ? Math.max(1, Math.ceil(waitMicros / 1_000_000)) : undefined;
  }

  fail(keys: readonly string[], nowMicros: number): void {
    if (this.failures.size >= MAX_KEYS) this.forgetIdle(nowMicros);
    for (const key of keys) this.failures.set(key, [...this.recent(key, nowMicros), nowMicros]);
  }

  clear(key: string): void {
    this.failures.delete(key);
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
