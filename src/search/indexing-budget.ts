import { availableParallelism } from 'node:os';

/**
 * How much memory indexing may hold, and how it is shared (docs/design/search-engine.md, Memory
 * of indexing): `kumo index`, scheduled runs and staged applies read pages in batches of a bounded
 * size and analyze them in threads of a bounded heap, whatever the bundle's size.
 */
export interface IndexingBudget {
  /** The budget, in MB (KUMO_INDEX_MEMORY_MB). */
  megabytes: number;
  /** Bytes of pages (HTML as fetched, or text) a batch gathers before it is sent to analysis. */
  batchBytes: number;
  /** The old-generation heap of the thread writing the index, in MB (`kumo index`'s). */
  writingHeapMb: number;
  /** Analysis threads: one per core, at most four, as many as the budget gives a full share. */
  analysisThreads: number;
  /** The old-generation heap of each analysis thread, in MB. */
  analysisHeapMb: number;
  /**
   * The heap of the thread that analyzes, alone, a page that ran its analysis thread out of
   * memory (a page of tens of MB): the analysis threads' whole share, one such page at a time
   * while they are stopped.
   */
  largePageHeapMb: number;
  /** A batch whose analysis runs longer than this is stopped and split (ms). */
  batchTimeoutMs: number;
  /**
   * SQLite's page cache of a connection that only indexes (`kumo index`'s), in MB, for its file
   * and again for its TEMP database (the pass's link counts, sorts): part of what lies outside
   * the heaps.
   */
  pageCacheMb: number;
}

export const DEFAULT_INDEX_MEMORY_MB = 256;
/**
 * An analysis thread's smallest share: on batches of 2 MiB of ordinary pages (the default
 * budget's) its heap holds 24–33 MB, and a page of several MB (a manual's index of every name,
 * analyzed as a batch of its own) fits.
 */
const ANALYSIS_THREAD_MB = 40;
/**
 * The analysis threads' share of the budget, in sixteenths: 80 MB of the default 256. Half is
 * the writing thread's, and the rest (48 MB) is what lies outside the heaps: the pages of the
 * batches in hand, their analysis on its way between threads, SQLite's page cache.
 */
const ANALYSIS_SIXTEENTHS = 5;
/** The smallest budget: the writing thread's half, and one analysis thread's share. */
export const MIN_INDEX_MEMORY_MB = (ANALYSIS_THREAD_MB * 16) / ANALYSIS_SIXTEENTHS;
/** More analysis threads than this only queue behind each other on the machines Kumo runs on. */
const MAX_ANALYSIS_THREADS = 4;
/**
 * A batch normally takes a few seconds; two minutes is far beyond any page's honest analysis
 * and stops a hostile one (a tenant's content selectors run there) from holding a thread.
 */
const BATCH_TIMEOUT_MS = 120_000;
/**
 * The page cache's share, in 64ths: 4 MB of the default budget, for the file and the TEMP
 * database each. This build of SQLite gives every connection 16 MB for each; with 4 MB,
 * `kumo index` peaked 28–34 MB lower at the same speed on rust-doc and the generated site's
 * first 20,000 pages (docs/design/search-engine.md, Memory of indexing).
 */
const PAGE_CACHE_SIXTYFOURTHS = 1;
/** Below this, every lookup of a large pass would read its B-trees' upper pages again. */
const MIN_PAGE_CACHE_MB = 2;

/**
 * The shares of a budget of `megabytes`. Half is the writing thread's heap (the batch being
 * written, its segment, a re-split's chunk); 5/16 are shared by the analysis threads; the pages
 * of the batches in hand (one per analysis thread and the one being written) are 1/128 of the
 * budget each. A page too large for an analysis thread's share is analyzed alone with the
 * analysis threads' whole share as heap, while they are stopped: the heaps never hold more
 * than their shares. Heaps hold more than they keep alive between collections, so the shares
 * are what keeps the process near its budget: with two analysis threads of 64 MB and batches
 * of 4 MiB, `kumo index` peaked 100–170 MB above the default budget
 * (docs/design/search-engine.md, Memory of indexing).
 */
export function indexingBudgetOf(
  megabytes = DEFAULT_INDEX_MEMORY_MB,
  cores = availableParallelism(),
): IndexingBudget {
  if (!Number.isInteger(megabytes) || megabytes < MIN_INDEX_MEMORY_MB)
    throw new RangeError(
      `an indexing budget is a whole number of MB, at least ${MIN_INDEX_MEMORY_MB}, got ${megabytes}`,
    );
  const writingHeapMb = Math.floor(megabytes / 2);
  const analysisMb = Math.floor((megabytes * ANALYSIS_SIXTEENTHS) / 16);
  const analysisThreads = Math.max(
    1,
    Math.min(MAX_ANALYSIS_THREADS, cores, Math.floor(analysisMb / ANALYSIS_THREAD_MB)),
  );
  return {
    megabytes,
    batchBytes: Math.floor((megabytes * 1024 * 1024) / 128),
    writingHeapMb,
    analysisThreads,
    analysisHeapMb: Math.floor(analysisMb / analysisThreads),
    largePageHeapMb: analysisMb,
    batchTimeoutMs: BATCH_TIMEOUT_MS,
    pageCacheMb: Math.max(MIN_PAGE_CACHE_MB, Math.floor((megabytes * PAGE_CACHE_SIXTYFOURTHS) / 64)),
  };
}
