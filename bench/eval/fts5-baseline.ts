import Database from 'better-sqlite3';
import type { EvalCorpus } from './eval-corpus.js';
import type { SearchSystem } from './search-system.js';

/**
 * unicode61 is FTS5's default and splits on spaces and punctuation only, so Japanese text becomes
 * one token per run of script; trigram is the tokenizer FTS5 offers for unsegmented text.
 */
export type Fts5Tokenizer = 'unicode61' | 'trigram';

/**
 * The plain full-text search anyone gets from SQLite: one FTS5 table over title and body, no
 * analysis of its own, bm25() with default (equal) column weights. The tokenizer is the only
 * setting; unicode61 is left implicit, as the default.
 */
export class Fts5Baseline implements SearchSystem {
  readonly name: string;
  private readonly db = new Database(':memory:');
  private readonly urls: string[] = [];

  constructor(tokenizer: Fts5Tokenizer) {
    this.name = `FTS5 ${tokenizer}`;
    const options = tokenizer === 'unicode61' ? '' : `, tokenize = '${tokenizer}'`;
    this.db.exec(`CREATE VIRTUAL TABLE pages USING fts5(title, body${options})`);
  }

  /** The corpus's documents under the set's URLs, with the fields the engine's extraction gave. */
  index({ documents }: EvalCorpus): void {
    const insert = this.db.prepare('INSERT INTO pages (rowid, title, body) VALUES (?, ?, ?)');
    this.db.transaction(() => {
      for (const document of documents) {
        this.urls.push(document.url);
        // The whole page text, template included, as the baseline indexed it before extraction kept them apart.
        insert.run(this.urls.length, document.title, `${document.body}\n${document.template ?? ''}`);
      }
    })();
    process.stderr.write(`  ${this.name}: ${documents.length} pages indexed\n`);
  }

  /**
   * Two URLs of a crawl can be one page of the set (a folder and its index.html, site-urls.ts):
   * such a page is listed once, so a few more rows than `limit` are read.
   */
  search(query: string, limit: number): string[] {
    const match = baselineMatchOf(query);
    if (match === undefined) return [];
    const rowids = this.db
      .prepare('SELECT rowid FROM pages WHERE pages MATCH ? ORDER BY bm25(pages) LIMIT ?')
      .pluck()
      .all(match, 2 * limit) as number[];
    return [...new Set(rowids.map((rowid) => this.urls[rowid - 1]!))].slice(0, limit);
  }

  close(): void {
    this.db.close();
  }
}

/**
 * The query's words, each double-quoted (so punctuation such as `os.path` stays a phrase and
 * never reads as FTS5 syntax) and ANDed by juxtaposition. Words without a letter or digit are
 * dropped; undefined when none is left. No fallback when the AND finds nothing.
 */
export function baselineMatchOf(query: string): string | undefined {
  const words = query
    .split(/\s+/)
    .map((word) => word.replace(/"/g, ''))
    .filter((word) => /[\p{L}\p{N}]/u.test(word));
  return words.length === 0 ? undefined : words.map((word) => `"${word}"`).join(' ');
}
