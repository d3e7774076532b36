/**
 * The pings each contract may queue (docs/reference/webhooks.md, Ping): a bucket of `burst`
 * pings per contract, refilled at `perMinute` a minute. A ping over it is refused with the
 * seconds until one is allowed again. The buckets are kept in this process's memory: several API
 * processes each allow the full rate, and a restart refills them.
 */
export interface PingLimits {
  burst: number;
  perMinute: number;
}

export const PING_LIMITS: PingLimits = { burst: 10, perMinute: 10 };

interface Bucket {
  pings: number;
  atMicros: number;
}

/** Buckets kept before the full ones are let go; a full bucket is the same as none. */
const MAX_BUCKETS = 10_000;

export class PingLimiter {
  private readonly buckets = new Map<number, Bucket>();

  constructor(private readonly limits: PingLimits = PING_LIMITS) {}

  /** Takes a ping of the contract's bucket: undefined, or the seconds until one is allowed. */
  take(contractId: number, nowMicros: number): number | undefined {
    const bucket = this.refilled(contractId, nowMicros);
    if (bucket.pings >= 1) {
      bucket.pings -= 1;
      return undefined;
    }
    const perSecond = this.limits.perMinute / 60;
    return Math.max(1, Math.ceil((1 - bucket.pings) / perSecond));
  }

  private refilled(contractId: number, nowMicros: number): Bucket {
    const perMicro = this.limits.perMinute / 60_000_000;
    const fill = (bucket: Bucket) =>
      Math.min(this.limits.burst, bucket.pings + Math.max(0, nowMicros - bucket.atMicros) * perMicro);
    let bucket = this.buckets.get(contractId);
    if (bucket === undefined) {
      if (this.buckets.size >= MAX_BUCKETS)
        for (const [id, other] of this.buckets) if (fill(other) >= this.limits.burst) this.buckets.delete(id);
      bucket = { pings: this.limits.burst, atMicros: nowMicros };
      this.buckets.set(contractId, bucket);
      return bucket;
    }
    bucket.pings = fill(bucket);
    // A clock set back refills nothing rather than draining.
    bucket.atMicros = Math.max(bucket.atMicros, nowMicros);
    return bucket;
  }
}
