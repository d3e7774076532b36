/**
 * The word forms one index generation holds (docs/reference/site-search.md, Word forms): a query
 * word's inflected forms looked up in the segments' term dictionaries. Apart from word-forms.ts
 * so that query planning, which the index types depend on, does not depend on the index.
 */
import { inverseDocumentFrequency } from '../engine/ranking.js';
import type { IndexSnapshot } from '../search-index-types.js';
import { inflectedForms } from './inflections.js';
import { FORM_WEIGHT, MAX_FORMS_PER_WORD, type WordForm, type WordForms } from './word-forms.js';

/** Words whose forms one index generation remembers; past it, lookups start over. */
const MAX_CACHED_WORDS = 10_000;

const cache = new WeakMap<IndexSnapshot['segments'], Map<string, readonly WordForm[]>>();

/**
 * The word forms of a snapshot's index. A form rarer than the word typed scores with the typed
 * word's idf (its weight scaled down): by its own idf alone, a page found through `triggering`
 * (on five pages) would outrank the pages that say `triggers` as typed. A word the index lacks
 * takes the idf of its commonest form. The weights of a word's forms add up to FORM_WEIGHT at
 * most.
 */
export function indexWordForms(snapshot: IndexSnapshot): WordForms {
  let known = cache.get(snapshot.segments);
  if (known === undefined) {
    known = new Map();
    cache.set(snapshot.segments, known);
  }
  const remembered = known;
  const documentCount = snapshot.statistics.documentCount;
  const frequencyOf = (term: string) => {
    let frequency = 0;
    for (const { segment } of snapshot.segments) {
      const range = segment.postings(term);
      if (range !== undefined) frequency += range.end - range.start;
    }
    return Math.min(frequency, documentCount);
  };
  return {
    formsOf(word: string): readonly WordForm[] {
      const cached = remembered.get(word);
      if (cached !== undefined) return cached;
      const present = inflectedForms(word)
        .map((text) => ({ text, frequency: frequencyOf(text) }))
        .filter((form) => form.frequency > 0)
        .sort((a, b) => b.frequency - a.frequency || (a.text < b.text ? -1 : 1))
        .slice(0, MAX_FORMS_PER_WORD);
      const own = frequencyOf(word);
      const reference = inverseDocumentFrequency(own > 0 ? own : (present[0]?.frequency ?? 1), documentCount);
      const shares = present.map(({ frequency }) =>
        Math.min(1, reference / inverseDocumentFrequency(frequency, documentCount)),
      );
      const total = shares.reduce((sum, share) => sum + share, 0);
      const forms = present.map(({ text }, index) => ({
        text,
        weight: (FORM_WEIGHT * shares[index]!) / Math.max(1, total),
      }));
      if (remembered.size >= MAX_CACHED_WORDS) remembered.clear();
      remembered.set(word, forms);
      return forms;
    },
  };
}
