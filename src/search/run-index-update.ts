import { BatchIndexer } from './batch-indexer.js';
import { bundleDocuments, type SkippedPage } from './bundle-documents.js';
import type { ContentSelectors } from './content-selectors.js';
import type { IndexingBudget } from './indexing-budget.js';
import type { SearchIndex } from './search-index.js';
import type { UpsertResult } from './search-index-types.js';

/** What a finished run tells about pages beyond its bundle (from its URL rows). */
export interface RunPageOutcomes {
  /** URLs (requested or final) that answered 404 or 410: their documents are removed. */
  gone: ReadonlySet<string>;
  /** URLs fetched without a usable answer (5xx, network error, refused redirect...): kept as they were. */
  failed: ReadonlySet<string>;
  /**
   * A complete run (2030 not cut short by documents_limit, every seed answered): its setting
   * gives up the documents it claimed and did not reach this time. A document another feed
   * (setting, instant run, bundle, or a legacy claim) also claims stays.
   */
  complete: boolean;
}

export interface RunIndexOptions {
  onProgress?: (totals: UpsertResult) => void;
  /** The search service's content selectors (docs/reference/site-search.md, Content selectors). */
  selectors?: ContentSelectors;
  /**
   * The run's contract: it takes turns with other contracts at the extraction of PDF and office
   * files (extraction-pool.ts).
   */
  owner?: string;
  /** The memory indexing may hold (KUMO_INDEX_MEMORY_MB); the default budget when not given. */
  budget?: IndexingBudget;
}

export interface RunIndexSummary extends UpsertResult {
  removed: number;
  skipped: SkippedPage[];
}

/**
 * Brings a search index in line with a scheduled run (docs/api.md, Search feeding): new and
 * changed pages of its bundle are staged batch by batch (analysis in worker threads), then the
 * whole run is applied in one transaction together with the removals, so searches never see
 * half a run. Unchanged pages (same content hash) are not re-indexed. Every page the run indexed
 * or found unchanged is claimed for `feed`, its setting; of the pages the run did not reach,
 * only those no other feed claims are removed. A page whose text could not be extracted or
 * analyzed this time is skipped and keeps its previous version. A failure before the apply
 * discards the staging and leaves the index as it was.
 */
export async function applyRunToIndex(
  index: SearchIndex,
  runKey: string,
  feed: string,
  bundleFile: string,
  outcomes: RunPageOutcomes,
  { onProgress, selectors = {}, owner, budget }: RunIndexOptions = {},
): Promise<RunIndexSummary> {
  // A previous attempt of this run (stopped by a restart) may have left a staging behind.
  index.writer.discardStaged(runKey);
  const seen = new Set<string>();
  const noindex = new Set<string>();
  const skipped: SkippedPage[] = [];
  const indexer = new BatchIndexer(
    { upsert: (documents, analyzed) => index.writer.stage(runKey, documents, analyzed) },
    onProgress,
    {
      budget,
      onNoindex: (url) => {
        // A page whose markup says noindex, found as its batch is analyzed: gone like the others.
        seen.delete(url);
        noindex.add(url);
      },
      onFailed: (page) => skipped.push(page),
    },
  );
  try {
    const documents = bundleDocuments(
      bundleFile,
      (page) => skipped.push(page),
      (url) => noindex.add(url),
      selectors,
      owner,
    );
    for await (const page of documents) {
      // Two fetched URLs can end at one final URL (a redirect to a page also linked directly).
      if (seen.has(page.url)) continue;
      seen.add(page.url);
      await indexer.add(page);
    }
    await indexer.finish();
  } catch (error) {
    await indexer.finish().catch(() => undefined);
    index.writer.discardStaged(runKey);
    throw error;
  }
  // A page whose text could not be extracted this time keeps its previous version.
  const kept = new Set(skipped.map((page) => page.url));
  const gone = [...outcomes.gone, ...noindex].filter((url) => !seen.has(url) && !kept.has(url));
  const removed = index.writer.applyStaged(runKey, {
    feed,
    gone,
    release: (url) => outcomes.complete && !outcomes.failed.has(url) && !kept.has(url),
  });
  // The run is applied: free pages that cannot go back now (another writer) go at the next run's end.
  await index.releaseFreePages();
  return { ...indexer.totals, removed, skipped };
}
