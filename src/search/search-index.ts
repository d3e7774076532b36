import { existsSync } from 'node:fs';
import { ANALYZER_VERSION } from './analyzer.js';
import { SearchIndexStore } from './storage/search-index-store.js';
import { IndexSegments } from './index-segments.js';
import { IndexWriter } from './index-writer.js';
import { type ReanalysisProgress, reanalyzeIndexFile } from './reanalysis-upgrade.js';
import { type FreePagesReleased, releaseFreePages } from './free-page-release.js';
import { DEFAULT_RANKING, type RankingParameters } from './engine/ranking.js';
import { Searcher, TemplateCache } from './searcher.js';

/**
 * The full-text index of one search service, opened: an inverted index of immutable segments
 * (src/search/engine) stored with the documents in one SQLite file, whose terms are read as
 * searches ask (docs/design/search-engine.md, Segments). Its
 * `writer` adds, replaces and removes documents (index-writer.ts); a `searcher()` reads the
 * generation current when it is taken (searcher.ts), the way Tantivy keeps an IndexWriter apart
 * from a Searcher. Another process's batches (kumo index while kumo serve runs) are picked up by
 * the next searcher.
 */
let opened = 0;

export class SearchIndex {
  readonly store: SearchIndexStore;
  /**
   * Names this open of the file among all of the process: a thread reading the file for result
   * pages keeps a connection per key, so a file removed and made again is never read through a
   * connection to the old one.
   */
  readonly openKey: string;
  readonly writer: IndexWriter;
  private readonly segments: IndexSegments;
  private readonly templates: TemplateCache;

  /**
   * Opens (or creates) the index file; a file written by an older analyzer is indexed again from
   * its stored text first (reanalysis-upgrade.ts), `onUpgrade` told how far it is.
   */
  constructor(
    file: string,
    readonly ranking: RankingParameters = DEFAULT_RANKING,
    onUpgrade?: (progress: ReanalysisProgress) => void,
  ) {
    let upgraded = false;
    this.store = openIndexStore(file, (progress) => {
      upgraded = true;
      onUpgrade?.(progress);
    });
    opened += 1;
    this.openKey = `${opened}:${file}`;
    this.segments = new IndexSegments(this.store);
    this.templates = new TemplateCache(this.store);
    this.writer = new IndexWriter(this.store, this.segments);
    // An upgrade writes one segment per batch of pages: merged as after a batch.
    if (upgraded) this.writer.mergeWhileNeeded();
  }

  /** A reader of the current generation, after picking up other processes' changes. */
  searcher(): Searcher {
    return new Searcher(this.segments.snapshot(), this.store, this.templates, this.ranking);
  }

  /**
   * Gives the pages an indexing pass's merges freed back to the file system; a file made before
   * is rewritten once when `rewriteOldFile` (free-page-release.ts).
   */
  releaseFreePages(rewriteOldFile = false): Promise<FreePagesReleased> {
    return releaseFreePages(this.store.freePages, rewriteOldFile);
  }

  get documentCount(): number {
    return this.segments.documentCount;
  }

  close(): void {
    this.store.close();
  }
}

/**
 * The store of an index file of this analyzer, a file of an older one upgraded by indexing its
 * documents again (docs/operations.md, Upgrading), `onUpgrade` told how far it is.
 */
function openIndexStore(file: string, onUpgrade?: (progress: ReanalysisProgress) => void): SearchIndexStore {
  return new SearchIndexStore(file, ANALYZER_VERSION, (rows, fromVersion) =>
    reanalyzeIndexFile(rows, fromVersion, onUpgrade),
  );
}

/**
 * The generation an index file was last published as or restored from (0 when none, or no file),
 * read without loading its segments (docs/design/scale-out.md, Search nodes); a file of an older
 * analyzer is upgraded first, `onUpgrade` told how far it is.
 */
export function publishedGenerationOf(
  file: string,
  onUpgrade?: (progress: ReanalysisProgress) => void,
): number {
  if (!existsSync(file)) return 0;
  const store = openIndexStore(file, onUpgrade);
  try {
    return store.publishedGeneration();
  } finally {
    store.close();
  }
}

/** Records the generation an index file now holds, without loading its segments. */
export function markPublishedGeneration(file: string, generation: number): void {
  const store = openIndexStore(file);
  try {
    store.setPublishedGeneration(generation);
  } finally {
    store.close();
  }
}
