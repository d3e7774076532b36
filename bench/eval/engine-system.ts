import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SearchServiceConfig } from '../../src/domain/schemas.js';
import { applyRunToIndex } from '../../src/search/indexing.js';
import { SearchIndex } from '../../src/search/local-index.js';
import type { EvalCorpus } from './eval-corpus.js';
import type { SearchSystem } from './search-system.js';
import { SiteSearchProbe } from './site-search-probe.js';
import type { ShownResult } from './snippet-quality.js';

/** Documents per upsert, as the indexer hands them over during a crawl. */
const BATCH = 500;
/** Pages between two progress lines while a run is applied. */
const PROGRESS_EVERY = 500;

/** `KUMO_EVAL_SYNONYMS=starter` searches with the starter synonyms (docs/reference/site-search.md,
 * Synonyms).
 */
const SERVICE_CONFIG: SearchServiceConfig =
  process.env.KUMO_EVAL_SYNONYMS === 'starter' ? { synonyms: { starter_set: true } } : {};

/** Run key and feed of the one run fed: a scheduled setting's first run (src/search/serving/search-feeder.ts). */
const RUN_KEY = 'run-1';
const FEED = 'setting:1';

/**
 * Kumo's own search index in a throwaway file, fed as a search service is fed, and searched
 * through the site search the API answers with (docs/search-evaluation.md, Relevance evaluation).
 */
export class EngineSystem implements SearchSystem {
  readonly name = 'engine';
  /** What the site search showed for each query asked, under the set's URLs. */
  readonly shown = new Map<string, ShownResult[]>();
  private site: SiteSearchProbe | undefined;
  private setUrlOf: (url: string) => string = (url) => url;

  private constructor(
    private readonly folder: string,
    readonly searchIndex: SearchIndex,
  ) {}

  static open(): EngineSystem {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-search-eval-'));
    try {
      return new EngineSystem(folder, new SearchIndex(path.join(folder, 'service.db')));
    } catch (error) {
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
  }

  /** The site search over the index; open from index() until close(). */
  get probe(): SiteSearchProbe {
    if (this.site === undefined) throw new Error('the engine is searched before it is indexed');
    return this.site;
  }

  /**
   * A crawled corpus is applied as a scheduled run's bundle is (src/search/run-index-update.ts),
   * so extraction, template lines and pages with the same text are the service's; pages read from
   * disk are upserted in batches of 500, as before the eval crawled.
   */
  async index(corpus: EvalCorpus): Promise<void> {
    this.setUrlOf = (url) => corpus.urls.setUrlOf(url);
    if (corpus.run !== undefined) {
      let printed = 0;
      const summary = await applyRunToIndex(
        this.searchIndex,
        RUN_KEY,
        FEED,
        corpus.run.bundleFile,
        corpus.run.outcomes,
        {
          onProgress: (totals) => {
            const pages = totals.added + totals.updated + totals.unchanged;
            if (pages - printed < PROGRESS_EVERY) return;
            printed = pages;
            process.stderr.write(`  engine: ${pages} pages staged\n`);
          },
        },
      );
      process.stderr.write(
        `  engine: ${summary.added} pages indexed, ${summary.skipped.length} skipped, ${summary.removed} removed\n`,
      );
    } else {
      const { documents } = corpus;
      for (let first = 0; first < documents.length; first += BATCH) {
        const batch = documents.slice(first, first + BATCH);
        this.searchIndex.writer.upsert(batch, 'eval:corpus');
        process.stderr.write(`  engine: ${first + batch.length}/${documents.length} pages indexed\n`);
      }
    }
    this.site = new SiteSearchProbe(this.searchIndex, SERVICE_CONFIG);
  }

  /** The URLs of the results a visitor sees (one per group of pages with the same text). */
  async search(query: string, limit: number): Promise<string[]> {
    const results = (await this.probe.shown(query)).map((result) => ({
      ...result,
      url: this.setUrlOf(result.url),
      copies: (result.copies ?? []).map(this.setUrlOf),
    }));
    this.shown.set(query, results);
    return results.slice(0, limit).map(({ url }) => url);
  }

  async close(): Promise<void> {
    try {
      await this.site?.close();
      this.searchIndex.close();
    } finally {
      rmSync(this.folder, { recursive: true, force: true });
    }
  }
}
