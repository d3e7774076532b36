import { normalizeText } from '../analyzer.js';
import { type QueryTree, withParts } from '../query-tree.js';
import { stemOf } from '../word-forms/inflections.js';
import { MIN_PREFIX_LENGTH } from '../word-forms/prefix-completions.js';
import { formWordOf, type WordForms } from '../word-forms/word-forms.js';
import { japaneseWordTerm, type Vocabulary } from './vocabulary.js';

/** Words of one query looked up at most: each lookup scans a band of the vocabulary. */
const MAX_CORRECTED_WORDS = 5;
/** Latin words shorter than this are never corrected: too many short words are one edit apart. */
const MIN_CORRECTED_LENGTH = 4;
/**
 * A word the index holds is replaced only by one this many times more frequent: a rare spelling
 * that is in the index (a typo on one page) still yields to the common one.
 */
const MORE_FREQUENT_FACTOR = 10;

/** Where corrections come from. */
export interface SpellingWords {
  /** The commonest words of the index: a correction is one of them. */
  vocabulary: Vocabulary;
  /**
   * Documents of the current index holding a term, however rare: a typed word's own count, which
   * a correction must exceed, is never taken from a vocabulary that left the word out.
   */
  frequencyOf: (term: string) => number;
}

/**
 * The did-you-mean phrase `spellcheck.main_phrase` (docs/reference/site-search.md, spellcheck): the
 * query with its unknown or rare words replaced by the most frequent index word within a small edit
 * distance (Latin words of 4+ letters), or a katakana word with its long-vowel mark added or
 * dropped (コンピュータ / コンピューター), when that query finds more documents: a new tree of the
 * corrected parts, its text the phrase (query-tree.ts). Undefined otherwise. A word whose other
 * forms the index holds (the tree's word forms) found pages through them
 * (docs/reference/site-search.md, Word forms): it is only respelt (`tomatoe`, which finds
 * `tomatoes`, to `tomato`), never replaced by another word (`casts`, which finds `cast`, not
 * by `costs`). A word that starts much more frequent words of the index (`vacu`) is never cut
 * to a shorter word (`vac`): as the last word of the query it found their pages already
 * (docs/reference/site-search.md, Words being typed) and is left as typed; elsewhere it is
 * completed to the commonest (`vacu settings` to `vacuum settings`).
 */
export function didYouMean(
  query: QueryTree,
  currentHits: number,
  words: SpellingWords,
  countHits: (corrected: QueryTree) => number,
): QueryTree | undefined {
  let changed = false;
  let attempts = 0;
  const forms = query.wordForms;
  const corrected = query.parts.map((part, index) => {
    if (part.phrase || part.exclude || attempts >= MAX_CORRECTED_WORDS) return part;
    attempts += 1;
    const word = normalizeText(part.text);
    const completion = completionOf(word, forms);
    if (completion !== undefined && query.typed?.part === index) return part;
    const replacement = completion ?? correctWord(word, words);
    if (replacement === undefined) return part;
    const formWord = formWordOf(part);
    if (
      formWord !== undefined &&
      forms.formsOf(formWord).length > 0 &&
      stemOf(replacement) !== stemOf(formWord)
    )
      return part;
    changed = true;
    return { ...part, text: replacement };
  });
  if (!changed) return undefined;
  const correction = withParts(query, corrected);
  return countHits(correction) > currentHits ? correction : undefined;
}

/** The commonest word of the index that `word` starts, when it is taken as a word being typed. */
function completionOf(word: string, forms: WordForms): string | undefined {
  if (!/^[a-z0-9]+$/.test(word) || word.length < MIN_PREFIX_LENGTH) return undefined;
  return forms.completionsOf(word)[0]?.text;
}

function correctWord(word: string, { vocabulary, frequencyOf }: SpellingWords): string | undefined {
  if (/^[a-z]+$/.test(word)) {
    if (word.length < MIN_CORRECTED_LENGTH) return undefined;
    return nearestWord(word, frequencyOf(word), vocabulary.latin);
  }
  if (
    /^[\p{Script=Katakana}ー]+$/u.test(word) &&
    [...word].length >= 3 &&
    frequencyOf(japaneseWordTerm(word)) === 0
  ) {
    const variant = word.endsWith('ー') ? word.slice(0, -1) : `${word}ー`;
    if (frequencyOf(japaneseWordTerm(variant)) > 0) return variant;
  }
  return undefined;
}

/** Latin words of the index by length, most frequent first, built once per vocabulary. */
const lengthBuckets = new WeakMap<
  Map<string, number>,
  Map<number, { words: string[]; frequencies: number[] }>
>();

function bucketsOf(words: Map<string, number>): Map<number, { words: string[]; frequencies: number[] }> {
  const cached = lengthBuckets.get(words);
  if (cached !== undefined) return cached;
  const sorted = [...words].filter(([word]) => /^[a-z]+$/.test(word)).sort((a, b) => b[1] - a[1]);
  const buckets = new Map<number, { words: string[]; frequencies: number[] }>();
  for (const [word, frequency] of sorted) {
    let bucket = buckets.get(word.length);
    if (bucket === undefined) {
      bucket = { words: [], frequencies: [] };
      buckets.set(word.length, bucket);
    }
    bucket.words.push(word);
    bucket.frequencies.push(frequency);
  }
  lengthBuckets.set(words, buckets);
  return buckets;
}

/**
 * The most frequent word at the smallest edit distance (at most 1 for words up to 5 letters,
 * else 2) that is much more frequent than the word itself (`own`, its documents). Only words of a length within the
 * distance are compared, most frequent first, so each length stops at the first word too rare
 * to win.
 */
function nearestWord(word: string, own: number, words: Map<string, number>): string | undefined {
  const limit = word.length <= 5 ? 1 : 2;
  const needed = own === 0 ? 1 : own * MORE_FREQUENT_FACTOR;
  const buckets = bucketsOf(words);
  let best: string | undefined;
  let bestDistance = limit + 1;
  let bestFrequency = 0;
  for (let length = word.length - limit; length <= word.length + limit; length += 1) {
    const bucket = buckets.get(length);
    if (bucket === undefined) continue;
    for (let index = 0; index < bucket.words.length; index += 1) {
      const frequency = bucket.frequencies[index]!;
      if (frequency < needed || (frequency <= bestFrequency && bestDistance <= 1)) break;
      const candidate = bucket.words[index]!;
      if (candidate === word) continue;
      const distance = editDistance(word, candidate, Math.min(limit, bestDistance));
      if (distance > limit) continue;
      if (distance < bestDistance || (distance === bestDistance && frequency > bestFrequency)) {
        best = candidate;
        bestDistance = distance;
        bestFrequency = frequency;
      }
    }
  }
  return best;
}

/** Rows of the distance table, reused: words are short, and a search must not allocate per candidate. */
const rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions), giving up with
 * limit + 1 as soon as every path exceeds the limit.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (b.length + 1 > rows[0]!.length) {
    for (let index = 0; index < rows.length; index += 1) rows[index] = new Int32Array(b.length * 2 + 2);
  }
  let [previousPrevious, previous, current] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= b.length; j += 1) previous[j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    let rowMinimum = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j += 1) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        value = Math.min(value, previousPrevious[j - 2]! + 1);
      }
      current[j] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > limit) return limit + 1;
    [previousPrevious, previous, current] = [previous, current, previousPrevious];
  }
  return previous[b.length]!;
}
