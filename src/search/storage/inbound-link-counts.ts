import type Database from 'better-sqlite3';
import { compareTerms } from '../engine/segment.js';
import { lazyStatements } from './lazy-statements.js';

/**
 * The links pointing at each page of an indexing pass (docs/reference/site-search.md, Pages with
 * the same text), counted as the pass's pages are written and stored in `document_state.inbound_links`
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
  /**
   * Each pass's number in the temp tables, whose rows would otherwise repeat its key (a run key
   * or a UUID, 40 bytes and more) in each of their millions of rows. Temp tables live as long as
   * the connection, and so do these numbers.
   */
  private readonly passNumbers = new Map<string, number>();
  private nextNumber = 1;

  constructor(db: Database.Database) {
    db.exec(`
      CREATE TEMP TABLE IF NOT EXISTS inbound_link_counts (
        pass INTEGER NOT NULL, url TEXT NOT NULL, links INTEGER NOT NULL, PRIMARY KEY (pass, url)
      ) WITHOUT ROWID;
      CREATE TEMP TABLE IF NOT EXISTS inbound_link_pages (
        pass INTEGER NOT NULL, url TEXT NOT NULL, PRIMARY KEY (pass, url)
      ) WITHOUT ROWID;
    `);
    this.statements = lazyStatements({
      page: () => db.prepare('INSERT OR IGNORE INTO temp.inbound_link_pages (pass, url) VALUES (?, ?)'),
      link: () =>
        db.prepare(
          `INSERT INTO temp.inbound_link_counts (pass, url, links) VALUES (?, ?, ?)
         ON CONFLICT (pass, url) DO UPDATE SET links = links + excluded.links`,
        ),
      write: () =>
        db.prepare(
          `UPDATE document_state SET inbound_links = counted.links
         FROM (SELECT d.id, coalesce(c.links, 0) AS links FROM temp.inbound_link_pages p
           JOIN documents d ON d.url = p.url
           LEFT JOIN temp.inbound_link_counts c ON c.pass = p.pass AND c.url = p.url
           WHERE p.pass = ?) AS counted
         WHERE document_state.id = counted.id`,
        ),
      dropCounts: () => db.prepare('DELETE FROM temp.inbound_link_counts WHERE pass = ?'),
      dropPages: () => db.prepare('DELETE FROM temp.inbound_link_pages WHERE pass = ?'),
    });
  }

  /**
   * Pages of the pass with the distinct pages each links to (not itself). A page seen twice in a
   * pass (a retried batch) counts once. The batch's links are summed per target first and added
   * in URL order: a target gets one upsert per batch, and the upserts walk the table's B-tree in
   * its order instead of at random (a million-page pass names tens of millions of links).
   */
  addPages(pass: string, pages: Iterable<{ url: string; targets: readonly string[] }>): void {
    const number = this.numberOf(pass);
    const sums = new Map<string, number>();
    for (const { url, targets } of pages) {
      if (this.statements.page.run(number, url).changes === 0) continue;
      for (const target of targets) if (target !== url) sums.set(target, (sums.get(target) ?? 0) + 1);
    }
    for (const target of [...sums.keys()].sort(compareTerms))
      this.statements.link.run(number, target, sums.get(target)!);
  }

  /**
   * Inside a write transaction: each indexed page of the pass takes the count of the pass's
   * pages linking to it (0 for none); pages not in the pass keep theirs. The pass's rows are then
   * dropped.
   */
  write(pass: string): void {
    const number = this.numberOf(pass);
    this.statements.write.run(number);
    // The pass keeps its number: should the transaction roll back, its rows come back under it.
    this.dropRows(number);
  }

  /** Forgets a pass's counts without storing them (a run discarded or failed). */
  discard(pass: string): void {
    const number = this.passNumbers.get(pass);
    if (number === undefined) return;
    this.dropRows(number);
    this.passNumbers.delete(pass);
  }

  private dropRows(number: number): void {
    this.statements.dropCounts.run(number);
    this.statements.dropPages.run(number);
  }

  private numberOf(pass: string): number {
    let number = this.passNumbers.get(pass);
    if (number === undefined) {
      number = this.nextNumber;
      this.nextNumber += 1;
      this.passNumbers.set(pass, number);
    }
    return number;
  }
}
