import type { Doctype } from '../../src/search/index.js';
import type { RunPageOutcomes } from '../../src/search/indexing.js';
import type { EvalDocument } from './page-documents.js';
import type { SiteUrls } from './site-urls.js';

/** Where a set's pages come from: a crawl of the site (the default), or its files read from disk. */
export type CorpusMode = 'crawl' | 'files';
export const CORPUS_MODES: readonly CorpusMode[] = ['crawl', 'files'];

/** What the crawl of a set fetched and gave the search service (docs/search-evaluation.md,
 * Relevance evaluation).
 */
export interface CrawlFigures {
  /** URLs fetched, those that answered 404 or 410, and those without a usable answer. */
  fetched: number;
  gone: number;
  failed: number;
  seconds: number;
  /** The bundle's searchable documents by doctype. */
  documents: Partial<Record<Doctype, number>>;
  /** Of those, the set's listing pages (corpus-spec.ts, isListing). */
  listingPages: number;
  /** Content pages (those judged among) the crawl did not reach. */
  contentNotReached: number;
}

/** A set's pages as every system indexes them. */
export interface EvalCorpus {
  mode: CorpusMode;
  /** Every document, under the set's URLs, with the extracted fields the baselines index. */
  documents: EvalDocument[];
  /** The text blocks of each page's HTML as served, by the set's URL (template-blocks.ts). */
  blocksByUrl: Map<string, string[]>;
  /** The URLs the engine answers with, made the set's, and which of them are listing pages. */
  urls: SiteUrls;
  /** With a crawl: the run the engine is fed, as a scheduled run feeds its search service. */
  run?: { bundleFile: string; outcomes: RunPageOutcomes };
  crawl?: CrawlFigures;
  /** Removes the crawl's files. */
  dispose(): Promise<void>;
}
