import { bigramsOf } from '../analyzer.js';
import type { IndexSnapshot } from '../search-index-types.js';
import type { Vocabulary } from './vocabulary.js';

/**
 * How many documents of the whole index hold a candidate keyword (docs/reference/site-search.md,
 * Related keywords): a Latin word's document frequency; for a Japanese compound, the smallest
 * frequency of its bigrams (every document holding the compound holds all its bigrams, and the
 * rarest one, often the one across the parts' junction, is close to the compound's own count).
 * Undefined for a word the index does not hold: a fragment of a word, never a keyword.
 */
export class KeywordBackground {
  readonly documentCount: number;
  private readonly bigrams = new Map<string, number>();

  constructor(
    private readonly vocabulary: Vocabulary,
    private readonly snapshot: IndexSnapshot,
  ) {
    this.documentCount = Math.max(1, vocabulary.documentCount);
  }

  frequencyOf(word: string, japanese: boolean): number | undefined {
    if (!japanese) return this.vocabulary.latin.get(word);
    let smallest: number | undefined;
    for (const gram of bigramsOf(word)) {
      const frequency = this.bigramFrequency(gram);
      if (frequency === 0) return undefined;
      smallest = Math.min(smallest ?? frequency, frequency);
    }
    return smallest;
  }

  private bigramFrequency(gram: string): number {
    const cached = this.bigrams.get(gram);
    if (cached !== undefined) return cached;
    let frequency = 0;
    for (const { segment } of this.snapshot.segments) frequency += segment.documentFrequency(gram);
    this.bigrams.set(gram, frequency);
    return frequency;
  }
}
