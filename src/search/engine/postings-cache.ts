import type { PositionBlock } from './segment-codec.js';
import type { TermPostings } from './segment.js';

/**
 * What an entry holds beyond its arrays' bytes and its key: the entry and value objects, the
 * typed arrays with a buffer each, what a stored term keeps to read its positions, and the map's
 * slot. Measured with V8's heap (`heapUsed` over 100,000 stored terms of one document each): 854
 * bytes an entry, for 32 bytes of arrays and a key of 12 characters. Counted, it keeps a budget
 * of small postings (most terms of a small site's segments) from holding thirty times its size.
 */
const ENTRY_OVERHEAD_BYTES = 780;

/**
 * What was read from index files most recently, decoded, up to a byte budget shared by every
 * index of the process (docs/design/search-engine.md, Segments): the operating system's page cache
 * keeps the stored bytes, this keeps a busy term from being decoded for every search.
 */
export class DecodedCache<Value> {
  /** Entries by key, least recently used first (a Map keeps insertion order). */
  private readonly entries = new Map<string, { value: Value; bytes: number }>();
  private heldBytes = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.heldBytes;
  }

  get(key: string): Value | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * Keeps `value` under `key` unless it alone exceeds a quarter of the budget. An entry is
   * counted for its arrays (`valueBytes`), its key and what holding them costs the heap.
   */
  set(key: string, value: Value, valueBytes: number): void {
    const bytes = valueBytes + 2 * key.length + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.maxBytes / 4) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.heldBytes -= previous.bytes;
    }
    this.entries.set(key, { value, bytes });
    this.heldBytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.heldBytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.heldBytes -= entry.bytes;
    }
  }
}

export type PostingsCache = DecodedCache<TermPostings>;
export type PositionBlockCache = DecodedCache<PositionBlock>;

/** Decoded documents and counts of terms a process keeps, across all its indexes. */
export const POSTINGS_CACHE_BYTES = 64 * 1024 * 1024;

export const sharedPostingsCache: PostingsCache = new DecodedCache(POSTINGS_CACHE_BYTES);

/**
 * Decoded blocks of positions a process keeps: those of the best hits of the common queries,
 * which proximity reads again at each of them.
 */
export const POSITION_BLOCKS_CACHE_BYTES = 32 * 1024 * 1024;

export const sharedPositionBlockCache: PositionBlockCache = new DecodedCache(POSITION_BLOCKS_CACHE_BYTES);
