import { bigramsOf } from '../analyzer.js';
import type { IndexSnapshot } from '../search-index-types.js';
import { documentFrequencyOf, isLatinWord } from './vocabulary.js';

/**
 * How many documents of the whole index hold a candidate keyword (docs/reference/site-search.md,
 * Related keywords): a Latin word's document frequency; for a Japanese compound, the smallest
 * frequency of its bigrams (every document holding the compound holds all its bigrams, and the
 * rarest one, often the one across the parts' junction, is close to the compound's own count).
 * Undefined for a word the index does not hold: a fragment of a word, never a keyword. Each is
 * looked up in the segments' term dictionaries, so a page of related keywords reads a few hundred
 * terms, never the whole vocabulary.
 */
export class KeywordBackground {
  readonly documentCount: number;
  private readonly frequencies = new Map<string, number>();

  constructor(private readonly snapshot: IndexSnapshot) {
    this.documentCount = Math.max(1, snapshot.statistics.documentCount);
  }

  frequencyOf(word: string, japanese: boolean): number | undefined {
    if (!japanese) {
      if (!isLatinWord(word)) return undefined;
      const frequency = this.termFrequency(word);
      return frequency === 0 ? undefined : frequency;
    }
    let smallest: number | undefined;
    for (const gram of bigramsOf(word)) {
      const frequency = this.termFrequency(gram);
      if (frequency === 0) return undefined;
      smallest = Math.min(smallest ?? frequency, frequency);
    }
    return smallest;
  }

  /** Postings of a term in every segment, deleted documents included (as the vocabulary counts). */
  private termFrequency(term: string): number {
    const cached = this.frequencies.get(term);
    if (cached !== undefined) return cached;
    const frequency = documentFrequencyOf(this.snapshot, term);
    this.frequencies.set(term, frequency);
    return frequency;
  }
}
