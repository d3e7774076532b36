import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FreePages } from './storage/free-pages.js';

/**
 * Pages given back per transaction: 4 MiB of 16 KiB pages, about a tenth of a second of moving,
 * so searches served by the same thread wait no longer than that, and the write-ahead log grows
 * by no more.
 */
const RELEASE_STEP_PAGES = 256;

/** What a pass's end gave back, and why it stopped short, when it did. */
export interface FreePagesReleased {
  bytes: number;
  /** Why free pages stay (another writer, a full disk); the next pass's end tries again. */
  problem?: string;
}

/**
 * Gives the file's free pages back to the file system at the end of an indexing pass, a step at
 * a time with the event loop's other work between steps (docs/design/search-engine.md, Free
 * pages). A file made before index files released them is rewritten once, when `rewriteOldFile`
 * (`kumo index`, whose thread serves no search) and a quarter of it is free. What the pass wrote
 * is committed already: a failure here costs disk space, never an indexed page.
 */
export async function releaseFreePages(
  pages: FreePages,
  rewriteOldFile: boolean,
): Promise<FreePagesReleased> {
  let before = { free: 0, total: 0, pageBytes: 0 };
  try {
    before = pages.count();
    if (!pages.releasable) {
      if (rewriteOldFile && before.free > 0 && before.free * 4 >= before.total) pages.rewrite();
    } else {
      let free = before.free;
      while (free > 0) {
        const left = pages.release(RELEASE_STEP_PAGES);
        // Pages the file cannot move (none expected) must not keep the loop turning.
        if (left >= free) break;
        free = left;
        if (free > 0) await nextTurn();
      }
    }
    return { bytes: releasedBytes(before, pages) };
  } catch (error) {
    return { bytes: releasedBytes(before, pages), problem: (error as Error).message };
  }
}

function releasedBytes(before: { total: number; pageBytes: number }, pages: FreePages): number {
  try {
    return Math.max(0, before.total - pages.count().total) * before.pageBytes;
  } catch {
    // The file was closed meanwhile (its service removed): nothing more to tell.
    return 0;
  }
}
