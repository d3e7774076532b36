/** The shapes SearchIndex hands out: its snapshots, hits, batch results and staged-run endings. */
import type { IndexStatistics } from './engine/matcher.js';
import type { Segment } from './engine/segment.js';
import type { SegmentColumns } from './storage/segment-columns.js';
import type { SameTextGroups } from './same-text-copies.js';

/**
 * A segment in memory with the columns every search reads of its documents, by ordinal
 * (storage/segment-columns.ts): a document's id is the segment's `docIds`, its URL and title are
 * read by id when shown. The columns of a document replaced or removed since its segment was
 * written are whatever its row held when they were computed (zeros once it had moved): its
 * ordinal is marked deleted, and they are never read.
 */
export interface LoadedSegment extends SegmentColumns {
  segment: Segment;
}

export { DOCTYPE_BITS } from './storage/segment-columns.js';

/** An unchanging view of the index for one search: segments, statistics, a generation number. */
export interface IndexSnapshot {
  segments: readonly LoadedSegment[];
  statistics: IndexStatistics;
  /** Changes with every change of the documents, so derived data can be cached per generation. */
  generation: number;
  /** The groups of pages with the same main text (src/search/same-text-copies.ts). */
  sameText: SameTextGroups;
}

export interface SearchHit {
  id: number;
  url: string;
  title: string;
  score: number;
  /** URLs of the pages with the same main text this one is shown for. */
  copyUrls: readonly string[];
}

/** How a staged run ends in the index (IndexWriter.applyStaged). */
export interface StagedRunEnd {
  /** The feed of the run (feed-keys.ts): it claims every document the run staged or found unchanged. */
  feed: string;
  /**
   * URLs the run saw gone (404/410, noindex): the run's feed and a legacy claim give them up at
   * once, complete run or not; one another feed (a bundle, an instant run, another setting)
   * claims stays, since no run removes another feed's documents (docs/api.md, Search feeding).
   */
  gone: Iterable<string>;
  /**
   * Asked about each searchable document `feed` claims and the run did not reach: whether the
   * feed gives up its claim (after a complete run). A document left with no claim is removed;
   * one another feed claims stays.
   */
  release: (url: string) => boolean;
}

export interface UpsertResult {
  added: number;
  updated: number;
  unchanged: number;
}
