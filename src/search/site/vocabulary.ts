import { WORD_MARK } from '../analyzer.js';
import type { IndexSnapshot } from '../search-index-types.js';
import { runNow, type Work } from './work-slices.js';

/** The words of the index with their document frequencies, for did-you-mean, suggest and related keywords. */
export interface Vocabulary {
  /** Latin-script words and numbers (stream terms that are not Japanese bigrams). */
  latin: Map<string, number>;
  /** Japanese words as Intl.Segmenter cut them (the word view), without the word mark. */
  japanese: Map<string, number>;
  /** Live documents when the vocabulary was built. */
  documentCount: number;
}

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
  const latin = new Map<string, number>();
  const japanese = new Map<string, number>();
  for (const { segment } of snapshot.segments) {
    for (const page of segment.termPages()) {
      for (const { term, docCount } of page) {
        if (term.startsWith(WORD_MARK)) {
          const word = term.slice(WORD_MARK.length);
          japanese.set(word, (japanese.get(word) ?? 0) + docCount);
        } else if (isLatinWord(term)) {
          latin.set(term, (latin.get(term) ?? 0) + docCount);
        }
      }
      yield;
    }
  }
  const vocabulary = { latin, japanese, documentCount: snapshot.statistics.documentCount };
  cache.set(snapshot.segments, vocabulary);
  return vocabulary;
}

/** Whether a stream term is a Latin-script word or number, as the vocabulary keeps them. */
export function isLatinWord(term: string): boolean {
  return !JAPANESE_CHAR.test(term) && LATIN_WORD.test(term);
}

/** Whether a word is Japanese text (any Han, kana or Japanese mark). */
export function isJapanese(word: string): boolean {
  return JAPANESE_CHAR.test(word);
}
