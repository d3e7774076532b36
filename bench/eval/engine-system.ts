import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SearchIndex } from '../../src/search/search-index.js';
import type { EvalDocument } from './page-documents.js';
import type { SearchSystem } from './search-system.js';

/** Documents per upsert, as the indexer hands them over during a crawl. */
const BATCH = 500;

/** Kumo's own search index, through the facade the service uses, in a throwaway file. */
export class EngineSystem implements SearchSystem {
  readonly name = 'engine';

  private constructor(
    private readonly folder: string,
    /** Open until close(): the site search probes ask it too (site-search-probe.ts). */
    readonly searchIndex: SearchIndex,
  ) {}

  static async open(): Promise<EngineSystem> {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-search-eval-'));
    try {
      return new EngineSystem(folder, new SearchIndex(path.join(folder, 'service.db')));
    } catch (error) {
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
  }

  index(documents: readonly EvalDocument[]): void {
    for (let first = 0; first < documents.length; first += BATCH) {
      const batch = documents.slice(first, first + BATCH);
      this.searchIndex.upsert(batch, 'eval:corpus');
      process.stderr.write(`  engine: ${first + batch.length}/${documents.length} pages indexed\n`);
    }
  }

  search(query: string, limit: number): string[] {
    return this.searchIndex.search(query, limit).docs.map((doc) => doc.url);
  }

  close(): void {
    try {
      this.searchIndex.close();
    } finally {
      rmSync(this.folder, { recursive: true, force: true });
    }
  }
}
