import type Database from 'better-sqlite3';
import { lazyStatements } from './lazy-statements.js';

/**
 * The links pointing at each page of an indexing pass (docs/reference/site-search.md, Pages with
 * the same text), counted as the pass's pages are written and stored in `documents.inbound_links`
 * when the pass ends. A pass is a bundle loaded by `kumo index`, or a scheduled run (its run key).
 *
 * The counts live in TEMP tables of the index connection, not in memory: a million-page pass
 * names tens of millions of links, and SQLite keeps a temp table in a temporary file (this build's
 * temp_store is FILE) behind its bounded page cache, so memory stays flat whatever the pass's
 * size. A page adds 1 to each distinct target it links to, so a target's count is the number of
 * other pages of the pass linking to it.
 */
export class InboundLinkCounts {
  private readonly statements;

  constructor(db: Database.Database) {
    db.exec(`
      CREATE TEMP TABLE IF NOT EXISTS inbound_link_counts (
        pass TEXT NOT NULL, url TEXT NOT NULL, links INTEGER NOT NULL, PRIMARY KEY (pass, url)
      ) WITHOUT ROWID;
      CREATE TEMP TABLE IF NOT EXISTS inbound_link_pages (
        pass TEXT NOT NULL, url TEXT NOT NULL, PRIMARY KEY (pass, url)
      ) WITHOUT ROWID;
    `);
    this.statements = lazyStatements({
      page: () => db.prepare('INSERT OR IGNORE INTO temp.inbound_link_pages (pass, url) VALUES (?, ?)'),
      link: () =>
        db.prepare(
          `INSERT INTO temp.inbound_link_counts (pass, url, links) VALUES (?, ?, 1)
         ON CONFLICT (pass, url) DO UPDATE SET links = links + 1`,
        ),
      write: () =>
        db.prepare(
          `UPDATE documents SET inbound_links = coalesce(
           (SELECT links FROM temp.inbound_link_counts c WHERE c.pass = ? AND c.url = documents.url), 0)
         WHERE url IN (SELECT url FROM temp.inbound_link_pages WHERE pass = ?)`,
        ),
      dropCounts: () => db.prepare('DELETE FROM temp.inbound_link_counts WHERE pass = ?'),
      dropPages: () => db.prepare('DELETE FROM temp.inbound_link_pages WHERE pass = ?'),
    });
  }

  /**
   * A page of the pass and the distinct pages it links to (not itself). A page seen twice in a
   * pass (a retried batch) counts once.
   */
  addPage(pass: string, url: string, targets: readonly string[]): void {
    if (this.statements.page.run(pass, url).changes === 0) return;
    for (const target of targets) if (target !== url) this.statements.link.run(pass, target);
  }

  /**
   * Inside a write transaction: each indexed page of the pass takes the count of the pass's
   * pages linking to it (0 for none); pages not in the pass keep theirs. The pass is then forgotten.
   */
  write(pass: string): void {
    this.statements.write.run(pass, pass);
    this.discard(pass);
  }

  /** Forgets a pass's counts without storing them (a run discarded or failed). */
  discard(pass: string): void {
    this.statements.dropCounts.run(pass);
    this.statements.dropPages.run(pass);
  }
}
