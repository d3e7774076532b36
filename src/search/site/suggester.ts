import { normalizeText } from '../analyzer.js';
import type { IndexSnapshot } from '../search-index-types.js';
import { isJapanese, type Vocabulary } from './vocabulary.js';

/** One completion `{word, point}` of the suggest answer (docs/reference/site-search.md, Suggest). */
export interface Suggestion {
  word: string;
  point: number;
}

interface Entry {
  key: string;
  point: number;
}

/**
 * Index words must occur in at least this many documents to be offered: a word on a single
 * page of a large site is as often a typo or an id as a topic. Small sites offer every word.
 */
const MIN_WORD_FREQUENCY = 2;
const SMALL_INDEX_DOCUMENTS = 1000;
/** Entries scanned for one prefix at most; short prefixes are answered from a per-prefix cache. */
const CACHED_PREFIX_LENGTH = 2;
const CACHED_PER_PREFIX = 100;
/** Past queries offered at most: the most asked ones; the long tail of one-off queries adds little. */
const MAX_LOGGED_QUERIES = 100_000;
const MANY_LOGGED_QUERIES = 1000;

/**
 * Completions of what a visitor is typing (docs/reference/site-search.md, Suggest): past successful
 * queries, weighted by how often they were asked, rank first (points 0.5..1); words of the index
 * and two-word phrases of titles follow (points 0..0.5 by how many documents hold them). Entries
 * live in one array sorted by their normalized text, so a prefix is a binary search and a scan.
 */
export class Suggester {
  private readonly entries: Entry[];
  private readonly prefixCache = new Map<string, Entry[]>();

  constructor(queryCounts: ReadonlyMap<string, number>, vocabulary: Vocabulary, snapshot: IndexSnapshot) {
    const points = new Map<string, number>();
    const keep = (key: string, point: number) => {
      if (key === '' || point <= (points.get(key) ?? -1)) return;
      points.set(key, point);
    };
    const documents = Math.max(2, vocabulary.documentCount);
    const minimumFrequency = vocabulary.documentCount < SMALL_INDEX_DOCUMENTS ? 1 : MIN_WORD_FREQUENCY;
    const indexPoint = (frequency: number) => (0.5 * Math.log(1 + frequency)) / Math.log(1 + documents);
    for (const [word, frequency] of vocabulary.latin) {
      if (frequency >= minimumFrequency && word.length >= 3 && !/^\d+$/.test(word))
        keep(word, indexPoint(frequency));
    }
    for (const [word, frequency] of vocabulary.japanese) {
      if (frequency >= minimumFrequency && [...word].length >= 2 && !/^\p{Script=Hiragana}+$/u.test(word)) {
        keep(word, indexPoint(frequency));
      }
    }
    for (const [phrase, frequency] of titlePhrases(snapshot)) {
      if (frequency >= minimumFrequency) keep(phrase, indexPoint(frequency));
    }
    // Once many different queries are logged, one asked a single time is as often a typo or a
    // probe as a need, and would show to every visitor: it then takes two askings to be offered.
    const minimumAsked = queryCounts.size < MANY_LOGGED_QUERIES ? 1 : 2;
    const asked = [...queryCounts]
      .filter(([, count]) => count >= minimumAsked)
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_LOGGED_QUERIES);
    const mostAsked = Math.max(1, asked[0]?.[1] ?? 1);
    for (const [query, count] of asked) {
      keep(suggestionKey(query), 0.5 + (0.5 * Math.log(1 + count)) / Math.log(1 + mostAsked));
    }
    this.entries = [...points.entries()]
      .map(([key, point]) => ({ key, point }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /**
   * Up to `limit` completions of `query`, best first. The whole query is completed from past
   * queries; for index words only its last word is, the words before it kept.
   */
  suggest(query: string, limit: number): Suggestion[] {
    const key = suggestionKey(query);
    if (key === '') return [];
    const found = new Map<string, number>();
    for (const entry of this.withPrefix(key)) found.set(entry.key, entry.point);
    const lastSpace = key.lastIndexOf(' ');
    if (lastSpace > 0) {
      const head = key.slice(0, lastSpace + 1);
      for (const entry of this.withPrefix(key.slice(lastSpace + 1))) {
        if (entry.key.includes(' ')) continue;
        const completed = head + entry.key;
        if (!found.has(completed)) found.set(completed, entry.point * 0.9);
      }
    }
    return [...found.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([word, point]) => ({ word, point: Math.round(point * 1000) / 1000 }));
  }

  private withPrefix(prefix: string): Entry[] {
    if (prefix === '') return [];
    const cacheable = [...prefix].length <= CACHED_PREFIX_LENGTH;
    const cached = cacheable ? this.prefixCache.get(prefix) : undefined;
    if (cached !== undefined) return cached;
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.entries[middle]!.key < prefix) low = middle + 1;
      else high = middle;
    }
    const matching: Entry[] = [];
    for (
      let index = low;
      index < this.entries.length && this.entries[index]!.key.startsWith(prefix);
      index += 1
    ) {
      matching.push(this.entries[index]!);
    }
    matching.sort((a, b) => b.point - a.point);
    const best = matching.slice(0, CACHED_PER_PREFIX);
    if (cacheable) this.prefixCache.set(prefix, best);
    return best;
  }
}

/** A query as suggest compares it: normalized, spaces collapsed. */
export function suggestionKey(query: string): string {
  return normalizeText(query).replace(/\s+/g, ' ').trim();
}

/** Adjacent pairs of Latin words in titles (`site search`), by how many titles hold them. */
function titlePhrases(snapshot: IndexSnapshot): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { segment, summaries } of snapshot.segments) {
    for (const [ordinal, summary] of summaries.entries()) {
      if (summary === undefined || !segment.isLive(ordinal)) continue;
      const words = normalizeText(summary.title).split(/[^\p{L}\p{N}]+/u);
      const usable = (word: string) => word.length >= 2 && !isJapanese(word);
      const seen = new Set<string>();
      for (let index = 0; index + 1 < words.length; index += 1) {
        const [first, second] = [words[index]!, words[index + 1]!];
        if (usable(first) && usable(second)) seen.add(`${first} ${second}`);
      }
      for (const phrase of seen) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
    }
  }
  return counts;
}
