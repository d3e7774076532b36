import type { ObjectSpool } from '../artifacts/index.js';
import type { PageRenderer } from '../browser/index.js';
import type { CrawlProgress, RunDataStore } from '../run-data/index.js';
import type { Clock } from '../util/index.js';
import type { HostPace } from './host-pacer.js';
import type { HttpFetcher } from './http-fetcher.js';
import type { FetchLimits, PageFetchResult } from './page-fetch.js';
import type { RenderOutcome } from './page-rendering.js';
import type { PreviousAnswers } from './previous-answers.js';

/** What a crawl is given (runCrawl in crawl-engine.ts) and how it is steered while it runs. */

export interface CrawlEngineDeps {
  fetcher: HttpFetcher;
  store: RunDataStore;
  spool: ObjectSpool;
  clock: Clock;
  limits: FetchLimits;
  /** User-Agent when the setting gives none. */
  defaultUserAgent: string;
  /** Time zone of timestamps written into the bundle. */
  timezone: string;
  /** Chromium, for runs with a screenshot or wait_type 2; without it such runs fail at start. */
  renderer?: PageRenderer;
  /** Told of every page crawled (metrics); must not throw. */
  observer?: CrawlObserver;
  /**
   * The per-host pace shared with the other runs of the service (docs/reference/crawl-rules.md,
   * Pacing); without it the run paces its hosts on its own.
   */
  pace?: HostPace;
  /**
   * What the previous run of the setting stored (a scheduled run): its pages are asked for again
   * with their validators, and a 304 keeps the stored copy (docs/reference/crawl-rules.md,
   * Conditional re-crawls).
   */
  previous?: PreviousAnswers;
}

/** Watches a crawl's pages (the service's metrics count pages fetched and failures by kind). */
export interface CrawlObserver {
  /**
   * A page was crawled and its URL row stored, failed or not. Pages excluded by content type,
   * skipped by robots.txt (a seed's row included: it was not fetched), or cut short by a cancel
   * or the execution timeout are not reported.
   */
  pageFetched(
    result: Exclude<PageFetchResult, { kind: 'excluded' }>,
    rendering: RenderOutcome | undefined,
  ): void;
}

export interface CrawlControl {
  /** Aborting it cancels the run (state 2050). */
  cancelSignal: AbortSignal;
  /**
   * Aborting it drains the run for a shutdown: no new page starts, pages in flight finish and are
   * stored, and the outcome is `interrupted` (the run resumes later).
   */
  drainSignal?: AbortSignal;
  /** Wall-clock end of the run in epoch microseconds (execution_timeout; state 2060). */
  deadlineMicros: number;
  onProgress?: (progress: CrawlProgress) => void;
}
