/**
 * Per-host politeness: the time between two request starts to one host is at least the run's
 * download_delay, raised by the host's robots.txt Crawl-delay (docs/reference/crawl-rules.md,
 * Pacing). Tracks hosts only, never URLs, so its memory does not grow with the size of a crawl.
 */
export class HostPacer {
  private readonly nextStartMs = new Map<string, number>();
  private readonly delayMsByHost = new Map<string, number>();

  constructor(private readonly defaultDelayMs: number) {}

  /** Raises the delay of one host (Crawl-delay); never lowers it below the run's delay. */
  raiseDelay(host: string, delayMs: number): void {
    if (delayMs > this.delayOf(host)) this.delayMsByHost.set(host, delayMs);
  }

  /**
   * Index of the first candidate whose host may be fetched now, reserving its slot; or -1 and
   * how long to wait until one may.
   */
  pick(hosts: readonly string[], nowMs: number): { index: number; waitMs: number } {
    let earliest = Number.POSITIVE_INFINITY;
    for (let index = 0; index < hosts.length; index++) {
      const host = hosts[index]!;
      const readyAt = this.nextStartMs.get(host) ?? 0;
      if (readyAt <= nowMs) {
        const delay = this.delayOf(host);
        if (delay > 0) this.nextStartMs.set(host, nowMs + delay);
        return { index, waitMs: 0 };
      }
      earliest = Math.min(earliest, readyAt);
    }
    return { index: -1, waitMs: Number.isFinite(earliest) ? earliest - nowMs : 0 };
  }

  private delayOf(host: string): number {
    return this.delayMsByHost.get(host) ?? this.defaultDelayMs;
  }
}
