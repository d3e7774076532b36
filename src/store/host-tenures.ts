/**
 * Which process may send requests to a host, when several processes share the per-host pace
 * (docs/design/scale-out.md, Shared host pace): one holds a host at a time, and the HostPacer of the
 * holder paces it as if it were alone. Plain data in and out, so the holding can be kept in a
 * shared database.
 */
export interface HostTenures {
  /**
   * Resolves once this process holds `host`, with the wall-clock time (ms) before which its next
   * request to the host may not start: the previous holder's last start plus its gap. Waits
   * while another process holds it. Rejects when the signal aborts (nothing waits for the host
   * any more), when the tenures are closed, or when the store fails.
   */
  take(host: string, signal: AbortSignal): Promise<number>;
  /** Gives the host back; the next holder starts no request before `freeAtMs` (wall clock). */
  give(host: string, freeAtMs: number): void;
  /**
   * `listener` is told of each held host another process waits for, and of each host this one
   * lost (its hold lapsed unrenewed): the pacer hands it over once its requests have ended.
   */
  onYield(listener: (host: string, lost: boolean) => void): void;
}
