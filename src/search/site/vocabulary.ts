import { WORD_MARK } from '../analyzer.js';
import type { IndexSnapshot } from '../search-index-types.js';
import { commonestWords } from './commonest-words.js';
import { runNow, type Work } from './work-slices.js';

/**
 * The commonest words of the index with their document frequencies, for did-you-mean and
 * suggest (docs/design/search-engine.md, Did you mean).
 */
export interface Vocabulary {
  /**
   * Latin-script words and numbers (stream terms that are not Japanese bigrams): at most
   * MAX_VOCABULARY_WORDS, those in the most documents, most documents first.
   */
  latin: Map<string, number>;
  /** Live documents when the vocabulary was built. */
  documentCount: number;
}

/**
 * The words a vocabulary keeps at most: what an open service holds for its corrections and
 * completions stays a few MB whatever the index's size. The generated site of 100,000 pages has
 * 993,462 Latin words (53 MB of heap as a map), 38,255 of them on 10 pages or more; rust-doc has
 * 80,363.
 */
export const MAX_VOCABULARY_WORDS = 100_000;

const LATIN_WORD = /^[\p{L}\p{N}\p{M}]+$/u;
const JAPANESE_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヶ]/u;

const cache = new WeakMap<IndexSnapshot['segments'], Vocabulary>();

/**
 * The vocabulary of a snapshot, built once per index generation. Frequencies count postings,
 * deleted documents included until a merge drops them, as Lucene's docFreq does.
 */
export function vocabularyOf(snapshot: IndexSnapshot): Vocabulary {
  return runNow(vocabularyWork(snapshot));
}

/** The vocabulary of a snapshot if it was built already, without building it. */
export function builtVocabularyOf(snapshot: IndexSnapshot): Vocabulary | undefined {
  return cache.get(snapshot.segments);
}

/** vocabularyOf as work in slices (work-slices.ts), for a suggester built in the background. */
export function* vocabularyWork(snapshot: IndexSnapshot): Work<Vocabulary> {
  const cached = cache.get(snapshot.segments);
  if (cached !== undefined) return cached;
  const segments = snapshot.segments.map(({ segment }) => segment);
  const latin = yield* commonestWords(segments, isLatinWord, MAX_VOCABULARY_WORDS);
  const vocabulary = { latin, documentCount: snapshot.statistics.documentCount };
  cache.set(snapshot.segments, vocabulary);
  return vocabulary;
}

/**
 * The documents of every segment of the snapshot holding a term, deleted ones included until a
 * merge drops them (as the vocabulary counts): looked up in the segments' term dictionaries.
 */
export function documentFrequencyOf(snapshot: IndexSnapshot, term: string): number {
  let frequency = 0;
  for (const { segment } of snapshot.segments) frequency += segment.documentFrequency(term);
  return frequency;
}

/** The term of the word view a Japanese word is indexed under (analyzer.ts). */
export function japaneseWordTerm(word: string): string {
  return `${WORD_MARK}${word}`;
}

/** Whether a stream term is a Latin-script word or number, as the vocabulary keeps them. */
export function isLatinWord(term: string): boolean {
  return !JAPANESE_CHAR.test(term) && LATIN_WORD.test(term);
}

/** Whether a word is Japanese text (any Han, kana or Japanese mark). */
export function isJapanese(word: string): boolean {
  return JAPANESE_CHAR.test(word);
}
