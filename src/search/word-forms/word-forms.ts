/**
 * Word forms at query time (docs/reference/site-search.md, Word forms): a query word such as
 * `triggers` also finds the pages that write `trigger`, `triggered` or `triggering`, scored
 * below the form typed. The index keeps words as written; a query looks its word's inflected
 * forms up in the index's term dictionaries, so the index format stays as it is and an index
 * change needs nothing rebuilt.
 */
import { normalizeText } from '../analyzer.js';
import { inverseDocumentFrequency } from '../engine/ranking.js';
import type { QueryPart } from '../query-syntax.js';
import type { IndexSnapshot } from '../search-index-types.js';
import { inflectedForms } from './inflections.js';

/** Another form of a query word that the index holds, with its share of the word's score. */
export interface WordForm {
  text: string;
  weight: number;
}

/** The other forms of query words that one index generation holds. */
export interface WordForms {
  /** Other forms of a lower-case word, most frequent first; none when the index has none. */
  formsOf(word: string): readonly WordForm[];
}

export const NO_WORD_FORMS: WordForms = { formsOf: () => [] };

/**
 * Share of the other forms' score next to the form typed, at equal document frequency, for
 * all of a word's forms together: a page with the typed form ranks above one with only other
 * forms, and a page that uses every form of a word (`push`, `pushed`, `pushes`) gains little
 * over the page that defines it. Measured with `npm run eval:search` (docs/search-evaluation.md).
 */
export const FORM_WEIGHT = 0.25;
/**
 * Other forms of one word at most, the most frequent: the plural or the verb forms a site uses
 * for the word; rarer forms add little recall and cost a posting scan each.
 */
export const MAX_FORMS_PER_WORD = 2;
/** Form clauses added to one query at most, so that a long query keeps its cost. */
export const MAX_FORM_CLAUSES = 24;
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

/**
 * The word a query part stands for when its forms apply, else undefined: a plain required word
 * of letters a-z alone, written in lower case or capitalized. A quoted phrase asks for the text
 * as written; an excluded word leaves out what it says, not its relatives; a word of several
 * runs (`pg_stat_activity`, `os.path`, a URL, `node.js`) or with digits is a name, and so is a
 * word with capitals inside (`shortDescription`, `GUI`): they find only themselves.
 */
export function formWordOf(part: QueryPart): string | undefined {
  if (part.phrase || part.exclude) return undefined;
  const text = part.text.normalize('NFKC');
  if (!/^[A-Za-z][a-z]+$/.test(text)) return undefined;
  return normalizeText(text);
}

/** Query part `part` also finds `forms`. */
export interface FormExpansion {
  part: number;
  forms: readonly WordForm[];
}

/** The forms each part of a query also finds, within MAX_FORM_CLAUSES. */
export function formExpansions(parts: readonly QueryPart[], forms: WordForms): FormExpansion[] {
  if (forms === NO_WORD_FORMS) return [];
  const expansions: FormExpansion[] = [];
  let added = 0;
  parts.forEach((part, index) => {
    const word = formWordOf(part);
    if (word === undefined || added >= MAX_FORM_CLAUSES) return;
    const found = forms.formsOf(word).slice(0, MAX_FORM_CLAUSES - added);
    if (found.length === 0) return;
    added += found.length;
    expansions.push({ part: index, forms: found });
  });
  return expansions;
}
