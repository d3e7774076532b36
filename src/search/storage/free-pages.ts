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
  // Read with db.pragma when a pass ends, not prepared at open: every open index would hold
  // statements that only a pass's end uses (docs/scaling.md, Many services on one node).
  constructor(private readonly db: Database.Database) {}

  private read(pragma: string): number {
    return this.db.pragma(pragma, { simple: true }) as number;
  }

  /** The file's free pages, all its pages, and the bytes of one. */
  count(): { free: number; total: number; pageBytes: number } {
    return {
      free: this.read('freelist_count'),
      total: this.read('page_count'),
      pageBytes: this.read('page_size'),
    };
  }

  /** Whether the file can give free pages back without being rewritten (made in incremental mode). */
  get releasable(): boolean {
    return this.read('auto_vacuum') === INCREMENTAL;
  }

  /**
   * Gives up to `pages` free pages back to the file system in one transaction, moving the file's
   * last pages into them; answers how many stay free. The file shrinks at the next checkpoint.
   */
  release(pages: number): number {
    // A pragma whose argument is a statement's: better-sqlite3 steps it to the end, which it needs.
    this.db.pragma(`incremental_vacuum(${Math.max(1, Math.floor(pages))})`);
    return this.read('freelist_count');
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
