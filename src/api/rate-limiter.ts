/**
 * Per-key token buckets: each key holds up to `burst` tokens, refilled continuously at
 * `perMinute` tokens a minute; a request takes one or is refused with the seconds until one is
 * back (the Retry-After of the 429).
 *
 * The buckets live in this process's memory: one `kumo serve` enforces the limit exactly, but
 * several processes behind a balancer each allow the full rate, and a restart refills every bucket.
 */
export interface RateLimiterOptions {
  /** Sustained rate of each key; 0 disables the limit. */
  perMinute: number;
  /** Largest burst of one key (default: perMinute). */
  burst?: number;
  /** Milliseconds of a monotonic-enough clock (the service's clock, so tests can move it). */
  nowMs: () => number;
  /** Buckets kept before full (idle) ones are dropped; a full bucket is the same as no bucket. */
  maxIdleBuckets?: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedMs: number;
}

const DEFAULT_MAX_IDLE_BUCKETS = 10_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly capacity: number;
  /** Tokens per millisecond. */
  private readonly rate: number;
  private readonly maxIdleBuckets: number;

  constructor(private readonly options: RateLimiterOptions) {
    this.capacity = Math.max(1, options.burst ?? options.perMinute);
    this.rate = options.perMinute / 60_000;
    this.maxIdleBuckets = options.maxIdleBuckets ?? DEFAULT_MAX_IDLE_BUCKETS;
  }

  get enabled(): boolean {
    return this.options.perMinute > 0;
  }

  get perMinute(): number {
    return this.options.perMinute;
  }

  /** Takes a token of `key`'s bucket, or tells how long until one is there. */
  take(key: string): RateDecision {
    if (!this.enabled) return { allowed: true };
    const now = this.options.nowMs();
    const bucket = this.refilled(key, now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    const waitMs = (1 - bucket.tokens) / this.rate;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  private refilled(key: string, now: number): Bucket {
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      if (this.buckets.size >= this.maxIdleBuckets) this.dropFullBuckets(now);
      bucket = { tokens: this.capacity, updatedMs: now };
      this.buckets.set(key, bucket);
      return bucket;
    }
    // A clock that goes back (a test, an NTP step) refills nothing rather than draining.
    const elapsed = Math.max(0, now - bucket.updatedMs);
    bucket.tokens = Math.min(this.capacity, bucket.tokens + elapsed * this.rate);
    bucket.updatedMs = Math.max(bucket.updatedMs, now);
    return bucket;
  }

  /** Forgets buckets that have refilled completely: they hold nothing a new bucket would not. */
  private dropFullBuckets(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + Math.max(0, now - bucket.updatedMs) * this.rate >= this.capacity) {
        this.buckets.delete(key);
      }
    }
  }
}
