/**
 * The request slot a run's sitemap reading borrows from its crawl loop (docs/reference/
 * crawl-rules.md, Sitemaps): the reading asks before each fetch, the loop grants it ahead of its
 * next page when one of base_concurrent_requests is free, and the reading gives it back after.
 * Stopping answers a waiting request with no, and aborts `signal` for the fetch in progress.
 */
export class SitemapSlot {
  /** Whether a sitemap fetch holds the slot (the loop counts it among its requests). */
  held = false;
  private waiting: (() => void) | undefined;
  private readonly stopper = new AbortController();

  /** @param wake tells the loop to look again (a request came, or the slot is free). */
  constructor(private readonly wake: () => void) {}

  /** Aborted once the reading must end. */
  get signal(): AbortSignal {
    return this.stopper.signal;
  }

  /** A fetch waits for the slot. */
  get requested(): boolean {
    return this.waiting !== undefined;
  }

  /** Waits until the loop grants the slot; false when the reading must stop instead. */
  async take(): Promise<boolean> {
    if (this.stopper.signal.aborted) return false;
    await new Promise<void>((resolve) => {
      this.waiting = resolve;
      this.wake();
    });
    return this.held;
  }

  /** The loop's answer to a waiting request. */
  grant(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    this.held = true;
    waiting?.();
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    this.wake();
  }

  stop(): void {
    this.stopper.abort();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }
}
