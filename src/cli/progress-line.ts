/** A live progress line on a terminal, plain log lines (at most one per interval) elsewhere. */
export interface ProgressSnapshot {
  crawled: number;
  total: number;
  errors: number;
}

export class ProgressReporter {
  private readonly startedMs = Date.now();
  private lastPrintMs = 0;
  private last: ProgressSnapshot = { crawled: 0, total: 0, errors: 0 };

  /**
   * `pagesDoneBefore`: pages a resumed crawl had fetched before this process started; the rate
   * counts only the pages fetched since, in the time since.
   */
  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly pagesDoneBefore = 0,
    private readonly intervalMs = stream.isTTY ? 200 : 2000,
  ) {
    this.last = { crawled: pagesDoneBefore, total: pagesDoneBefore, errors: 0 };
  }

  update(snapshot: ProgressSnapshot): void {
    this.last = snapshot;
    const now = Date.now();
    if (now - this.lastPrintMs < this.intervalMs) return;
    this.lastPrintMs = now;
    this.print(false);
  }

  /** Prints the final line with the run's stored counts (the error count is the reporter's own). */
  finish(final: { crawled: number; total: number }): void {
    this.last = { ...this.last, crawled: final.crawled, total: final.total };
    this.print(true);
  }

  private print(final: boolean): void {
    const seconds = Math.max(0.001, (Date.now() - this.startedMs) / 1000);
    const { crawled, total, errors } = this.last;
    const queued = Math.max(0, total - crawled);
    const pagesPerSecond = Math.max(0, crawled - this.pagesDoneBefore) / seconds;
    const line = `pages ${crawled} done / ${queued} queued | ${pagesPerSecond.toFixed(1)} pages/s | ${errors} errors | ${seconds.toFixed(1)} s`;
    if (this.stream.isTTY) {
      this.stream.write(`\r\x1b[2K${line}${final ? '\n' : ''}`);
    } else {
      this.stream.write(`${new Date().toISOString()} ${line}\n`);
    }
  }
}
