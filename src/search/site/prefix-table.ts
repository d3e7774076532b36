import { sortInSlices, type Work } from './work-slices.js';

/** An entry of a PrefixTable: found by `key`, offered as `word`. */
export interface PrefixEntry {
  key: string;
  word: string;
  point: number;
}

/** Keys of at most this many code points are answered from a per-prefix cache. */
const CACHED_PREFIX_LENGTH = 2;
/**
 * A longer prefix matching at least this many entries is cached too: on a large site `serv`
 * matches tens of thousands of phrases, and scanning and sorting them on every keystroke would
 * cost milliseconds each time.
 */
const CACHED_SCAN_ENTRIES = 1000;
/** Prefixes cached at most; past it the cache starts over (a table lives one index generation). */
const MAX_CACHED_PREFIXES = 20_000;
/** Entries kept per prefix: the best ones (a suggest answer holds at most 100). */
export const BEST_PER_PREFIX = 100;

const byKey = (a: PrefixEntry, b: PrefixEntry) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * Entries sorted by key, so the entries of a prefix are a binary search and a scan; the best
 * BEST_PER_PREFIX are returned, best first. Short prefixes, which match the most entries, and
 * any prefix matching many entries are cached.
 */
export class PrefixTable {
  private readonly cache = new Map<string, PrefixEntry[]>();

  private constructor(private readonly entries: readonly PrefixEntry[]) {}

  static readonly empty = new PrefixTable([]);

  /** The table of `entries`, sorted in slices (work-slices.ts). */
  static *of(entries: readonly PrefixEntry[]): Work<PrefixTable> {
    return new PrefixTable(yield* sortInSlices(entries, byKey));
  }

  withPrefix(prefix: string): PrefixEntry[] {
    if (prefix === '') return [];
    const cacheable = [...prefix].length <= CACHED_PREFIX_LENGTH;
    const cached = this.cache.get(prefix);
    if (cached !== undefined) return cached;
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.entries[middle]!.key < prefix) low = middle + 1;
      else high = middle;
    }
    const matching: PrefixEntry[] = [];
    for (
      let index = low;
      index < this.entries.length && this.entries[index]!.key.startsWith(prefix);
      index += 1
    )
      matching.push(this.entries[index]!);
    const best = matching.sort((a, b) => b.point - a.point).slice(0, BEST_PER_PREFIX);
    if (cacheable || matching.length >= CACHED_SCAN_ENTRIES) {
      if (this.cache.size >= MAX_CACHED_PREFIXES) this.cache.clear();
      this.cache.set(prefix, best);
    }
    return best;
  }
}
