import type { TermPostings } from './segment.js';

/**
 * What an entry holds beyond its arrays' bytes and its key: the entry and postings objects, three
 * typed arrays with a buffer each, and the map's slot. Measured with V8's heap (`heapUsed` over
 * 100,000 entries of one document each): 822 bytes an entry, for 16 bytes of arrays and a key of
 * 14 characters. Counted, it keeps a budget of small postings (most terms of a small site's
 * segments) from holding fifty times its size.
 */
const ENTRY_OVERHEAD_BYTES = 780;

/**
 * The postings read from index files most recently, decoded, up to a byte budget shared by every
 * index of the process (docs/design/search-engine.md, Segments): the operating system's page cache
 * keeps the stored bytes, this keeps a busy term from being decoded for every search.
 */
export class PostingsCache {
  /** Entries by key, least recently used first (a Map keeps insertion order). */
  private readonly entries = new Map<string, { postings: TermPostings; bytes: number }>();
  private heldBytes = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.heldBytes;
  }

  get(key: string): TermPostings | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.postings;
  }

  /**
   * Keeps `postings` under `key` unless they alone exceed a quarter of the budget. An entry is
   * counted for its arrays, its key and what holding them costs the heap.
   */
  set(key: string, postings: TermPostings): void {
    const bytes =
      postings.docs.byteLength +
      postings.positionStart.byteLength +
      postings.positions.byteLength +
      2 * key.length +
      ENTRY_OVERHEAD_BYTES;
    if (bytes > this.maxBytes / 4) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.heldBytes -= previous.bytes;
    }
    this.entries.set(key, { postings, bytes });
    this.heldBytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.heldBytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.heldBytes -= entry.bytes;
    }
  }
}

/** Decoded postings a process keeps, across all its indexes. */
export const POSTINGS_CACHE_BYTES = 64 * 1024 * 1024;

export const sharedPostingsCache = new PostingsCache(POSTINGS_CACHE_BYTES);
