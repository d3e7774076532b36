import { AnalysisPool } from './analysis-pool.js';
import type { SkippedPage } from './bundle-documents.js';
import type { AnalyzedPage } from './document-fields.js';
import { type AnalyzedBatch, isHtmlPage, type PageToIndex } from './html-page.js';
import type { IndexedDocument } from './indexed-document.js';
import { type IndexingBudget, indexingBudgetOf } from './indexing-budget.js';
import type { UpsertResult } from './search-index-types.js';

/** Where analyzed batches go: IndexWriter.upsert, or a scheduled run's staging. */
export interface BatchTarget {
  upsert(documents: readonly IndexedDocument[], analyzed: readonly AnalyzedPage[]): UpsertResult;
  /** After the last batch: what the whole pass decides (its pages' inbound link counts). */
  finish?(): void;
}

/**
 * Documents per batch: large enough to be fast, small enough to show progress. A batch is sent
 * sooner once its pages hold the budget's batch bytes (HTML, or text): pages of a megabyte are
 * not rare.
 */
export const DEFAULT_BATCH_SIZE = 500;

/** A page of this share of the batch bytes or more is a large page, analyzed in a batch of its own. */
const LARGE_PAGE_SHARE = 1 / 4;

export interface BatchIndexerOptions {
  batchSize?: number;
  /** Told the URL of each HTML page whose markup says noindex: it is not indexed. */
  onNoindex?: (url: string) => void;
  /**
   * Told of each page left out because its analysis ran out of its thread's memory or time
   * (AnalysisPool); they are also in `failed`.
   */
  onFailed?: (page: SkippedPage) => void;
  /** The memory indexing may hold (KUMO_INDEX_MEMORY_MB); the default budget when not given. */
  budget?: IndexingBudget;
}

/**
 * Feeds a stream of pages into a SearchIndex in batches, extracting and analyzing the next
 * batches in worker threads while one is written: on two cores indexing runs at about the speed
 * of the extraction and analysis spread over both.
 * Each batch is one upsert (one transaction), so searches never see half a batch.
 */
export class BatchIndexer {
  private batch: PageToIndex[] = [];
  private batchBytes = 0;
  /** Batches sent to analysis, oldest first; they are written in this order. */
  private readonly inFlight: Promise<AnalyzedBatch>[] = [];
  private readonly pool: AnalysisPool;
  private readonly budget: IndexingBudget;
  readonly totals: UpsertResult = { added: 0, updated: 0, unchanged: 0 };
  /** Pages left out because their analysis could not finish (see BatchIndexerOptions.onFailed). */
  readonly failed: SkippedPage[] = [];

  constructor(
    private readonly index: BatchTarget,
    private readonly onBatch: (totals: UpsertResult) => void = () => undefined,
    private readonly options: BatchIndexerOptions = {},
  ) {
    this.budget = options.budget ?? indexingBudgetOf();
    this.pool = new AnalysisPool({
      threads: this.budget.analysisThreads,
      heapMb: this.budget.analysisHeapMb,
      largePageHeapMb: this.budget.largePageHeapMb,
      batchTimeoutMs: this.budget.batchTimeoutMs,
    });
  }

  /** The analysis threads alive now (AnalysisPool.threadsAlive). */
  get analysisThreadsAlive(): number {
    return this.pool.threadsAlive;
  }

  async add(page: PageToIndex): Promise<void> {
    const bytes = isHtmlPage(page) ? page.html.byteLength : page.body.length;
    // A large page is analyzed as a batch of its own: should it run its thread out of memory,
    // no other page's analysis is lost with it, and it goes to the large-page thread at once.
    if (bytes >= this.budget.batchBytes * LARGE_PAGE_SHARE) await this.dispatch();
    this.batch.push(page);
    this.batchBytes += bytes;
    const batchSize = this.options.batchSize ?? DEFAULT_BATCH_SIZE;
    if (
      this.batch.length >= batchSize ||
      this.batchBytes >= this.budget.batchBytes ||
      bytes >= this.budget.batchBytes * LARGE_PAGE_SHARE
    )
      await this.dispatch();
  }

  /** Writes what is left; the totals are then complete. */
  async finish(): Promise<UpsertResult> {
    try {
      await this.dispatch();
      while (this.inFlight.length > 0) await this.writeOldest();
      // What the pass decides at its end needs no analysis thread: their heaps go back first.
      await this.pool.close();
      this.index.finish?.();
    } finally {
      await this.pool.close();
    }
    return this.totals;
  }

  /**
   * Sends the current batch to analysis, and writes the oldest analyzed batch once as many are
   * out as the pool has workers: the workers analyze while this thread writes.
   */
  private async dispatch(): Promise<void> {
    if (this.batch.length === 0) return;
    const pages = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    this.inFlight.push(this.pool.analyze(pages));
    while (this.inFlight.length > this.pool.size) await this.writeOldest();
  }

  private async writeOldest(): Promise<void> {
    const { documents, analyzed, noindex, failed } = await this.inFlight.shift()!;
    for (const url of noindex) this.options.onNoindex?.(url);
    for (const page of failed) {
      this.failed.push(page);
      this.options.onFailed?.(page);
    }
    const result = this.index.upsert(documents, analyzed);
    this.totals.added += result.added;
    this.totals.updated += result.updated;
    this.totals.unchanged += result.unchanged;
    this.onBatch(this.totals);
  }
}
