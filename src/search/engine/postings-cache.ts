import type { TermPostings } from './segment.js';

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

  /** Keeps `postings` under `key` unless they alone exceed a quarter of the budget. */
  set(key: string, postings: TermPostings): void {
    const bytes =
      postings.docs.byteLength + postings.positionStart.byteLength + postings.positions.byteLength;
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
