/**
 * The word forms one index generation holds (docs/reference/site-search.md, Word forms): a query
 * word's inflected forms looked up in the segments' term dictionaries. Apart from word-forms.ts
 * so that query planning, which the index types depend on, does not depend on the index.
 */
import { visitTermsWithPrefix } from '../engine/prefix-terms.js';
import { inverseDocumentFrequency } from '../engine/ranking.js';
import type { IndexSnapshot } from '../search-index-types.js';
import { inflectedForms } from './inflections.js';
import { COMPLETION_FREQUENCY_FACTOR, COMPLETION_WEIGHT, MAX_COMPLETIONS } from './prefix-completions.js';
import { FORM_WEIGHT, MAX_FORMS_PER_WORD, type WordForm, type WordForms } from './word-forms.js';

/** Words whose forms one index generation remembers; past it, lookups start over. */
const MAX_CACHED_WORDS = 10_000;

const cache = new WeakMap<IndexSnapshot['segments'], Map<string, readonly WordForm[]>>();
const completionCache = new WeakMap<IndexSnapshot['segments'], Map<string, readonly WordForm[]>>();

/** The map a snapshot's lookups are remembered in, emptied when it holds MAX_CACHED_WORDS. */
function rememberedOf(
  caches: WeakMap<IndexSnapshot['segments'], Map<string, readonly WordForm[]>>,
  snapshot: IndexSnapshot,
): Map<string, readonly WordForm[]> {
  let known = caches.get(snapshot.segments);
  if (known === undefined) {
    known = new Map();
    caches.set(snapshot.segments, known);
  }
  if (known.size >= MAX_CACHED_WORDS) known.clear();
  return known;
}

/**
 * Weights of words found for a query word (its forms, or its completions), most frequent first,
 * each `total` at most, and adding up to `total` at most when a page may be scored by several
 * (forms; a page is scored by one completion alone, query-plan.ts). A word rarer than the one
 * typed scores with the typed word's idf, its weight scaled down; a typed word the index lacks
 * takes the idf of the commonest.
 */
function weighted(
  found: readonly { text: string; frequency: number }[],
  own: number,
  documentCount: number,
  total: number,
  shared = true,
): WordForm[] {
  const reference = inverseDocumentFrequency(own > 0 ? own : (found[0]?.frequency ?? 1), documentCount);
  const shares = found.map(({ frequency }) =>
    Math.min(1, reference / inverseDocumentFrequency(frequency, documentCount)),
  );
  const sum = shared ? shares.reduce((a, b) => a + b, 0) : 1;
  return found.map(({ text }, index) => ({ text, weight: (total * shares[index]!) / Math.max(1, sum) }));
}

/**
 * The word forms of a snapshot's index. A form rarer than the word typed scores with the typed
 * word's idf (its weight scaled down): by its own idf alone, a page found through `triggering`
 * (on five pages) would outrank the pages that say `triggers` as typed. A word the index lacks
 * takes the idf of its commonest form. The weights of a word's forms add up to FORM_WEIGHT at
 * most.
 */
export function indexWordForms(snapshot: IndexSnapshot): WordForms {
  const documentCount = snapshot.statistics.documentCount;
  const frequencyOf = (term: string) => {
    let frequency = 0;
    for (const { segment } of snapshot.segments) frequency += segment.documentFrequency(term);
    return Math.min(frequency, documentCount);
  };
  return {
    formsOf(word: string): readonly WordForm[] {
      const remembered = rememberedOf(cache, snapshot);
      const cached = remembered.get(word);
      if (cached !== undefined) return cached;
      const present = inflectedForms(word)
        .map((text) => ({ text, frequency: frequencyOf(text) }))
        .filter((form) => form.frequency > 0)
        .sort((a, b) => b.frequency - a.frequency || (a.text < b.text ? -1 : 1))
        .slice(0, MAX_FORMS_PER_WORD);
      const forms = weighted(present, frequencyOf(word), documentCount, FORM_WEIGHT);
      remembered.set(word, forms);
      return forms;
    },
    completionsOf(prefix: string): readonly WordForm[] {
      const remembered = rememberedOf(completionCache, snapshot);
      const cached = remembered.get(prefix);
      if (cached !== undefined) return cached;
      const found = new Map<string, number>();
      for (const { segment } of snapshot.segments) {
        visitTermsWithPrefix(segment, prefix, (term, postings) =>
          found.set(term, (found.get(term) ?? 0) + postings),
        );
      }
      const commonest = [...found]
        .map(([text, frequency]) => ({ text, frequency: Math.min(frequency, documentCount) }))
        .sort((a, b) => b.frequency - a.frequency || (a.text < b.text ? -1 : 1))
        .slice(0, MAX_COMPLETIONS);
      const own = frequencyOf(prefix);
      const completions =
        commonest.length === 0 || own * COMPLETION_FREQUENCY_FACTOR >= commonest[0]!.frequency
          ? []
          : weighted(commonest, own, documentCount, COMPLETION_WEIGHT, false);
      remembered.set(prefix, completions);
      return completions;
    },
  };
}
