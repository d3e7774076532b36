import { AnalysisPool } from './analysis-pool.js';
import type { AnalyzedPage } from './document-fields.js';
import { type AnalyzedBatch, isHtmlPage, type PageToIndex } from './html-page.js';
import type { IndexedDocument } from './indexed-document.js';
import type { UpsertResult } from './search-index-types.js';

/** Where analyzed batches go: IndexWriter.upsert, or a scheduled run's staging. */
export interface BatchTarget {
  upsert(documents: readonly IndexedDocument[], analyzed: readonly AnalyzedPage[]): UpsertResult;
  /** After the last batch: what the whole pass decides (its pages' inbound link counts). */
  finish?(): void;
}

/** Documents per batch: large enough to be fast, small enough to show progress and bound memory. */
export const DEFAULT_BATCH_SIZE = 500;
/**
 * A batch is sent sooner once its pages hold this many bytes (HTML, or text): a batch per
 * analysis thread is in hand while one is written (three on two cores), and pages of a megabyte
 * are not rare.
 */
export const MAX_BATCH_BYTES = 16 * 1024 * 1024;

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
  private readonly pool = new AnalysisPool();
  readonly totals: UpsertResult = { added: 0, updated: 0, unchanged: 0 };

  constructor(
    private readonly index: BatchTarget,
    private readonly onBatch: (totals: UpsertResult) => void = () => undefined,
    private readonly batchSize = DEFAULT_BATCH_SIZE,
    /** Told the URL of each HTML page whose markup says noindex: it is not indexed. */
    private readonly onNoindex: (url: string) => void = () => undefined,
  ) {}

  async add(page: PageToIndex): Promise<void> {
    this.batch.push(page);
    this.batchBytes += isHtmlPage(page) ? page.html.byteLength : page.body.length;
    if (this.batch.length >= this.batchSize || this.batchBytes >= MAX_BATCH_BYTES) await this.dispatch();
  }

  /** Writes what is left; the totals are then complete. */
  async finish(): Promise<UpsertResult> {
    try {
      await this.dispatch();
      while (this.inFlight.length > 0) await this.writeOldest();
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
    const { documents, analyzed, noindex } = await this.inFlight.shift()!;
    for (const url of noindex) this.onNoindex(url);
    const result = this.index.upsert(documents, analyzed);
    this.totals.added += result.added;
    this.totals.updated += result.updated;
    this.totals.unchanged += result.unchanged;
    this.onBatch(this.totals);
  }
}
