/**
 * The signal of one page fetch: aborted when the run stops or when the fetch's time is up, and
 * released as soon as the fetch ends. `AbortSignal.timeout` would keep every fetch's timer and
 * signal alive for the whole timeout (30 s by default) after the fetch is done: tens of thousands
 * at once in a fast crawl, which measured about 2 KB of RSS each (docs/design/crawl.md, Memory of
 * a long crawl).
 */
export class FetchDeadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onRunAbort = () => this.controller.abort(this.runSignal.reason);

  constructor(
    private readonly runSignal: AbortSignal,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(
      () => this.controller.abort(new DOMException('The page timed out', 'TimeoutError')),
      timeoutMs,
    );
    if (runSignal.aborted) this.controller.abort(runSignal.reason);
    else runSignal.addEventListener('abort', this.onRunAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops the timer and the run's listener; the signal stays as it is. */
  release(): void {
    clearTimeout(this.timer);
    this.runSignal.removeEventListener('abort', this.onRunAbort);
  }
}
