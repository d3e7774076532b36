import { AnalysisPool } from './analysis-pool.js';
import type { AnalyzedPage } from './document-fields.js';
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
 * Feeds a stream of documents into a SearchIndex in batches, analyzing the next batches in
 * worker threads while one is written: on two cores indexing runs at about the speed of the
 * analysis spread over both.
 * Each batch is one upsert (one transaction), so searches never see half a batch.
 */
export class BatchIndexer {
  private batch: IndexedDocument[] = [];
  /** Batches sent to analysis, oldest first; they are written in this order. */
  private readonly inFlight: Promise<{ documents: IndexedDocument[]; pages: AnalyzedPage[] }>[] = [];
  private readonly pool = new AnalysisPool();
  readonly totals: UpsertResult = { added: 0, updated: 0, unchanged: 0 };

  constructor(
    private readonly index: BatchTarget,
    private readonly onBatch: (totals: UpsertResult) => void = () => undefined,
    private readonly batchSize = DEFAULT_BATCH_SIZE,
  ) {}

  async add(document: IndexedDocument): Promise<void> {
    this.batch.push(document);
    if (this.batch.length >= this.batchSize) await this.dispatch();
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
    const documents = this.batch;
    this.batch = [];
    this.inFlight.push(this.pool.analyze(documents).then((pages) => ({ documents, pages })));
    while (this.inFlight.length > this.pool.size) await this.writeOldest();
  }

  private async writeOldest(): Promise<void> {
    const { documents, pages } = await this.inFlight.shift()!;
    const result = this.index.upsert(documents, pages);
    this.totals.added += result.added;
    this.totals.updated += result.updated;
    this.totals.unchanged += result.unchanged;
    this.onBatch(this.totals);
  }
}
