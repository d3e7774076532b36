import type Database from 'better-sqlite3';

/** SQLite's `auto_vacuum` value of a file that gives free pages back on request. */
const INCREMENTAL = 2;

/**
 * The pages of an index file that merges and removals left free (docs/design/search-engine.md,
 * Free pages). Later writes reuse them, but those of a pass's last merges would stay in the file
 * for good: an index file is created in SQLite's incremental auto-vacuum mode, so a pass's end can
 * give them back to the file system.
 */
export class FreePages {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      free: db.prepare('PRAGMA freelist_count').pluck(),
      total: db.prepare('PRAGMA page_count').pluck(),
      size: db.prepare('PRAGMA page_size').pluck(),
      mode: db.prepare('PRAGMA auto_vacuum').pluck(),
    };
  }

  /** The file's free pages, all its pages, and the bytes of one. */
  count(): { free: number; total: number; pageBytes: number } {
    return {
      free: this.statements.free.get() as number,
      total: this.statements.total.get() as number,
      pageBytes: this.statements.size.get() as number,
    };
  }

  /** Whether the file can give free pages back without being rewritten (made in incremental mode). */
  get releasable(): boolean {
    return this.statements.mode.get() === INCREMENTAL;
  }

  /**
   * Gives up to `pages` free pages back to the file system in one transaction, moving the file's
   * last pages into them; answers how many stay free. The file shrinks at the next checkpoint.
   */
  release(pages: number): number {
    // A pragma whose argument is a statement's: better-sqlite3 steps it to the end, which it needs.
    this.db.pragma(`incremental_vacuum(${Math.max(1, Math.floor(pages))})`);
    return this.statements.free.get() as number;
  }

  /**
   * Rewrites a file made before index files gave free pages back (VACUUM): without free pages, and
   * in incremental mode from then on. It takes the time and the temporary disk of a copy of the
   * file, so only `kumo index` asks for it (IndexWriter.releaseFreePages).
   */
  rewrite(): void {
    // Takes effect with the VACUUM that follows: a file with tables changes mode no other way.
    this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.exec('VACUUM');
  }
}
