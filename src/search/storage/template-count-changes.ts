import type Database from 'better-sqlite3';
import { blockHashesOf, pageHostOf } from '../../domain/index.js';

interface CountStatements {
  addHostPages: Database.Statement;
  addBlockPages: Database.Statement;
  dropUncounted: Database.Statement;
}

/**
 * The changes a write transaction makes to the counts of template lines (template-block-schema.ts),
 * gathered in memory and written at once, summed per line, each host's lines in the order of the table's key
 * (docs/design/search-engine.md, Page templates). The documents table's triggers report every
 * document counted in or out; writing each line's count from the trigger cost 1 ms a page (a
 * hundred random updates of a large table), most of a batch's writing time.
 *
 * Whoever reads the counts flushes first (TemplateBlockStore), and SearchIndexStore's write
 * transactions flush before they commit and drop what a failed one gathered (an error inside a
 * write transaction must end it: the changes are not tied to SQLite's statement rollback); a
 * document written outside a transaction would have its counts lost, so the trigger refuses it.
 */
export class TemplateCountChanges {
  /** Pages added to (or taken from) each host. */
  private readonly hostPages = new Map<string, number>();
  /** Pages added to (or taken from) each line of each host, by the line's hash. */
  private readonly blockPages = new Map<string, Map<number, number>>();
  private statements: CountStatements | undefined;

  constructor(private readonly db: Database.Database) {}

  /**
   * A document's lines counted in (`sign` 1) or out (-1) of its host's counts, and with
   * `countsPage` the document itself in or out of the host's pages.
   */
  count(url: string, title: string, body: string, template: string, sign: 1 | -1, countsPage: boolean): void {
    if (!this.db.inTransaction)
      throw new Error('documents are written inside a write transaction, which counts their template lines');
    const host = pageHostOf(url);
    if (countsPage) this.hostPages.set(host, (this.hostPages.get(host) ?? 0) + sign);
    let blocks = this.blockPages.get(host);
    if (blocks === undefined) this.blockPages.set(host, (blocks = new Map()));
    for (const block of blockHashesOf(title, body, template))
      blocks.set(block, (blocks.get(block) ?? 0) + sign);
  }

  /** Writes what was gathered into the counts' tables, inside the caller's transaction. */
  flush(): void {
    if (this.hostPages.size === 0 && this.blockPages.size === 0) return;
    const statements = (this.statements ??= this.prepare());
    for (const host of new Set([...this.hostPages.keys(), ...this.blockPages.keys()])) {
      const hostId = statements.addHostPages.get(host, this.hostPages.get(host) ?? 0) as number;
      this.hostPages.delete(host);
      const blocks = this.blockPages.get(host);
      if (blocks === undefined) continue;
      const changed = [...blocks].filter(([, pages]) => pages !== 0).sort(([one], [other]) => one - other);
      for (const [block, pages] of changed) statements.addBlockPages.run(hostId, block, pages);
      for (const [block, pages] of changed) if (pages < 0) statements.dropUncounted.run(hostId, block);
      // Forgotten host by host: a flush that fails part way never writes a host's changes twice.
      this.blockPages.delete(host);
    }
  }

  /** Forgets what was gathered: its transaction was rolled back. */
  discard(): void {
    this.hostPages.clear();
    this.blockPages.clear();
  }

  private prepare(): CountStatements {
    return {
      addHostPages: this.db
        .prepare(
          `INSERT INTO template_hosts (host, pages) VALUES (?, ?)
           ON CONFLICT (host) DO UPDATE SET pages = pages + excluded.pages RETURNING id`,
        )
        .pluck(),
      addBlockPages: this.db.prepare(
        `INSERT INTO template_blocks (host_id, block, pages) VALUES (?, ?, ?)
         ON CONFLICT (host_id, block) DO UPDATE SET pages = pages + excluded.pages`,
      ),
      dropUncounted: this.db.prepare(
        'DELETE FROM template_blocks WHERE host_id = ? AND block = ? AND pages <= 0',
      ),
    };
  }
}
