import type { CrawlProgress } from '../run-data/index.js';
import type { FromRunThread } from './run-thread-protocol.js';

/** A run thread tells its progress and its pages at most this often. */
const REPORT_INTERVAL_MS = 200;

/**
 * What a run thread reports as it crawls, its progress and the pages it fetched, gathered and
 * sent at most every REPORT_INTERVAL_MS (docs/design/crawl.md, A message protocol, not shared
 * objects). Two messages per page woke the service's thread 1,200 times a second on a fast crawl
 * and cost the crawl a tenth of its rate; a person watching the progress, and the store written
 * once a second, need far fewer.
 */
export class RunThreadReports {
  private progress: CrawlProgress | undefined;
  private pages = 0;
  private failures = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly send: (message: FromRunThread) => void,
    private readonly intervalMs = REPORT_INTERVAL_MS,
  ) {}

  progressed(progress: CrawlProgress): void {
    this.progress = progress;
    this.schedule();
  }

  /** One crawled page: its failure kind, or undefined when it was fetched fine. */
  pageFetched(errorKind: string | undefined): void {
    this.pages += 1;
    if (errorKind !== undefined) this.failures.set(errorKind, (this.failures.get(errorKind) ?? 0) + 1);
    this.schedule();
  }

  /** Sends what is gathered now (the run is ending: its result follows). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pages > 0)
      this.send({ type: 'pages', count: this.pages, failures: Object.fromEntries(this.failures) });
    if (this.progress !== undefined) this.send({ type: 'progress', progress: this.progress });
    this.pages = 0;
    this.failures = new Map();
    this.progress = undefined;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }
}
