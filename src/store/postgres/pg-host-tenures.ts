import type { HostTenures } from '../host-tenures.js';
import type { PgSql } from './pg-connection.js';

export interface PgHostTenuresOptions {
  /** The holding process, as its run leases name it. */
  owner: string;
  /** How long a hold lasts unrenewed; renewed five times as often. */
  holdMs?: number;
  /** How often a process waiting for a host asks again. */
  retryMs?: number;
  /** Told of a renewal that failed (the holds then lapse unless a later one succeeds). */
  onError?: (error: unknown) => void;
}

const HOLD_MS = 10_000;
const RETRY_MS = 250;
const FORGET_EVERY_BEATS = 150;

/**
 * Host tenures in PostgreSQL (docs/design/scale-out.md, Shared host pace): a row per host names its
 * holder, until when, when the next holder may start (`free_at_us`) and whether another process
 * waits for it (`wanted_us`). Taking a host is one statement; a process that cannot take it marks
 * it wanted in the same statement and asks again every `retryMs`. One renewal statement for all
 * held hosts answers which are wanted and which were lost. A host just handed over is not asked
 * for again for a moment, so the process that wanted it gets it.
 */
export class PgHostTenures implements HostTenures {
  private readonly held = new Set<string>();
  private readonly yieldedAt = new Map<string, number>();
  private readonly listeners: ((host: string, lost: boolean) => void)[] = [];
  private readonly timer: NodeJS.Timeout;
  private renewing: Promise<void> | undefined;
  private closed = false;
  private beats = 0;
  /** Hosts being given back, awaited by close(). */
  private readonly giving = new Set<Promise<void>>();
  private readonly holdMs: number;
  private readonly retryMs: number;

  constructor(
    private readonly sql: PgSql,
    private readonly options: PgHostTenuresOptions,
  ) {
    this.holdMs = options.holdMs ?? HOLD_MS;
    this.retryMs = options.retryMs ?? RETRY_MS;
    this.timer = setInterval(() => {
      this.renewing ??= this.renew().finally(() => {
        this.renewing = undefined;
      });
    }, this.holdMs / 5);
    this.timer.unref();
  }

  async take(host: string, signal: AbortSignal): Promise<number> {
    const courtesyUntil = (this.yieldedAt.get(host) ?? 0) + 4 * this.retryMs;
    this.yieldedAt.delete(host);
    if (courtesyUntil > Date.now()) await sleep(courtesyUntil - Date.now(), signal);
    for (;;) {
      if (this.closed) throw new Error('the host tenures are closed');
      signal.throwIfAborted();
      const nowUs = Date.now() * 1000;
      // The host is free for this owner: nobody holds it, this owner does, or the hold lapsed.
      const free = this.sql`(host_tenures.owner IS NULL OR host_tenures.owner = ${this.options.owner}
        OR host_tenures.until_us < ${nowUs})`;
      const [row] = await this.sql<{ taken: boolean; free_at_us: number }[]>`
        INSERT INTO host_tenures (host, owner, until_us, free_at_us)
        VALUES (${host}, ${this.options.owner}, ${nowUs + this.holdMs * 1000}, 0)
        ON CONFLICT (host) DO UPDATE SET
          owner = CASE WHEN ${free} THEN excluded.owner ELSE host_tenures.owner END,
          until_us = CASE WHEN ${free} THEN excluded.until_us ELSE host_tenures.until_us END,
          wanted_us = CASE WHEN ${free} THEN NULL ELSE ${nowUs}::bigint END
        RETURNING owner = ${this.options.owner} AS taken, free_at_us`.catch((error: unknown) => {
        // Said here, since the pacer only asks again.
        this.options.onError?.(error);
        throw error;
      });
      if (row?.taken) {
        this.held.add(host);
        return row.free_at_us / 1000;
      }
      await sleep(this.retryMs, signal);
    }
  }

  give(host: string, freeAtMs: number): void {
    this.held.delete(host);
    this.yieldedAt.set(host, Date.now());
    const giving = this.sql`
      UPDATE host_tenures SET owner = NULL, free_at_us = ${Math.round(freeAtMs * 1000)}, wanted_us = NULL
      WHERE host = ${host} AND owner = ${this.options.owner}`
      .then(() => undefined)
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => this.giving.delete(giving));
    this.giving.add(giving);
  }

  onYield(listener: (host: string, lost: boolean) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Stops renewing, once the hosts being given back are: the holds still held lapse, so their
   * last gaps are kept whatever they were.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await Promise.all([this.renewing, ...this.giving]);
  }

  private async renew(): Promise<void> {
    // Now and then, the rows of hosts nobody has held for an hour go (one row per host crawled).
    if (++this.beats % FORGET_EVERY_BEATS === 0)
      await this.sql`
        DELETE FROM host_tenures WHERE owner IS NULL AND free_at_us < ${(Date.now() - 3600_000) * 1000}`.catch(
        (error: unknown) => this.options.onError?.(error),
      );
    const hosts = [...this.held];
    if (hosts.length === 0) return;
    let renewed: { host: string; wanted: boolean }[];
    try {
      renewed = await this.sql<{ host: string; wanted: boolean }[]>`
        UPDATE host_tenures SET until_us = ${(Date.now() + this.holdMs) * 1000}
        WHERE owner = ${this.options.owner} AND host = ANY(${this.sql.array(hosts)}::text[])
        RETURNING host, wanted_us IS NOT NULL AS wanted`;
    } catch (error) {
      this.options.onError?.(error);
      return;
    }
    const still = new Map(renewed.map((row) => [row.host, row.wanted]));
    for (const host of hosts) {
      if (!this.held.has(host)) continue;
      const wanted = still.get(host);
      if (wanted === false) continue;
      if (wanted === undefined) this.held.delete(host);
      for (const listener of this.listeners) listener(host, wanted === undefined);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
