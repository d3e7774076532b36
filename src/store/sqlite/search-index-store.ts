import Database from 'better-sqlite3';
import { ANALYZER_VERSION, bigramTokens, segmentTokens } from '../../search/analyzer.js';
import { matchExpressionOf } from '../../search/match-expression.js';

/** A page as the index keeps it. */
export interface IndexedDocument {
  url: string;
  title: string;
  description: string;
  body: string;
}

export interface SearchHit {
  url: string;
  title: string;
  /** BM25 over the weighted fields; lower is better (SQLite's sign). */
  score: number;
}

/**
 * Field weights for bm25(): the segment columns (whole words) outrank the bigram columns, so
 * 京都 ranks a page about Kyoto above one that mentions 東京都; titles outrank bodies.
 */
const WEIGHTS = { titleBigrams: 4, bodyBigrams: 1, titleWords: 8, bodyWords: 2 };

/**
 * The full-text index of one search service, in its own SQLite file. The service computes the
 * tokens itself (see analyzer.ts) and FTS5 stores them space-separated, since no FTS5 tokenizer
 * matches two-character Japanese words. WAL mode keeps it readable while a batch is written.
 */
export class SearchIndex {
  private readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS documents (
        id INTEGER PRIMARY KEY,
        url TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL,
        description TEXT NOT NULL,
        body TEXT NOT NULL
      );
      CREATE VIRTUAL TABLE IF NOT EXISTS document_terms USING fts5(
        title_bigrams, body_bigrams, title_words, body_words, tokenize = 'unicode61 remove_diacritics 0',
        content = '', contentless_delete = 1
      );
    `);
    const version = this.db.prepare('SELECT value FROM index_meta WHERE key = ?').pluck().get('analyzer');
    if (version === undefined) {
      this.db
        .prepare('INSERT INTO index_meta (key, value) VALUES (?, ?)')
        .run('analyzer', String(ANALYZER_VERSION));
    } else if (version !== String(ANALYZER_VERSION)) {
      this.db.close();
      throw new Error(`${file}: index built by analyzer ${version}, this is ${ANALYZER_VERSION}; rebuild it`);
    }
  }

  /** Adds or replaces documents (by URL) in one transaction. */
  upsert(documents: readonly IndexedDocument[]): void {
    const findId = this.db.prepare('SELECT id FROM documents WHERE url = ?').pluck();
    const removeTerms = this.db.prepare('DELETE FROM document_terms WHERE rowid = ?');
    const removeDocument = this.db.prepare('DELETE FROM documents WHERE id = ?');
    const insertDocument = this.db.prepare(
      'INSERT INTO documents (url, title, description, body) VALUES (?, ?, ?, ?)',
    );
    const insertTerms = this.db.prepare(
      'INSERT INTO document_terms (rowid, title_bigrams, body_bigrams, title_words, body_words) VALUES (?, ?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      for (const document of documents) {
        const existing = findId.get(document.url) as number | undefined;
        if (existing !== undefined) {
          removeTerms.run(existing);
          removeDocument.run(existing);
        }
        const text = `${document.description}\n${document.body}`;
        const { lastInsertRowid } = insertDocument.run(
          document.url,
          document.title,
          document.description,
          document.body,
        );
        insertTerms.run(
          lastInsertRowid,
          bigramTokens(document.title).join(' '),
          bigramTokens(text).join(' '),
          segmentTokens(document.title).join(' '),
          segmentTokens(text).join(' '),
        );
      }
    })();
  }

  /** Removes documents by URL; unknown URLs are ignored. */
  remove(urls: readonly string[]): void {
    const findId = this.db.prepare('SELECT id FROM documents WHERE url = ?').pluck();
    this.db.transaction(() => {
      for (const url of urls) {
        const id = findId.get(url) as number | undefined;
        if (id === undefined) continue;
        this.db.prepare('DELETE FROM document_terms WHERE rowid = ?').run(id);
        this.db.prepare('DELETE FROM documents WHERE id = ?').run(id);
      }
    })();
  }

  /**
   * Documents holding every word of the query (AND), best first; ties keep insertion order. A
   * query without any word matches nothing.
   */
  search(query: string, limit = 10, offset = 0): { hits: number; docs: SearchHit[] } {
    const match = matchExpressionOf(query);
    if (match === undefined) return { hits: 0, docs: [] };
    const hits = this.db
      .prepare('SELECT count(*) FROM document_terms WHERE document_terms MATCH ?')
      .pluck()
      .get(match) as number;
    const { titleBigrams, bodyBigrams, titleWords, bodyWords } = WEIGHTS;
    const docs = this.db
      .prepare(
        `SELECT d.url, d.title, bm25(document_terms, ?, ?, ?, ?) AS score
         FROM document_terms JOIN documents d ON d.id = document_terms.rowid
         WHERE document_terms MATCH ?
         ORDER BY score, d.id LIMIT ? OFFSET ?`,
      )
      .all(titleBigrams, bodyBigrams, titleWords, bodyWords, match, limit, offset) as SearchHit[];
    return { hits, docs };
  }

  close(): void {
    this.db.close();
  }
}
