/**
 * The vocabularies of the search benchmark's corpus, Zipf-distributed (exponent 1.0): about
 * 20,000 English word forms (the real words of search-words.ts first, then generated words from
 * syllables for the long tail) and a few hundred real Japanese words. Built once, deterministic.
 */
import { random } from './bench-site-pages.js';
import {
  ENGLISH_CONTENT_WORDS,
  ENGLISH_FUNCTION_WORDS,
  ENGLISH_TYPOS,
  JAPANESE_ENDINGS,
  JAPANESE_PARTICLES,
  JAPANESE_WORDS,
  RARE_ENGLISH,
  RARE_JAPANESE,
} from './search-words.js';
import { pairTable, type WeightedTable, zipfTable } from './weighted-table.js';

export const ENGLISH_VOCABULARY_SIZE = 20_000;
export const ZIPF_EXPONENT = 1.0;

const ONSETS = [
  '',
  ...'b c d f g h j k l m n p r s t v w z b d l m n r s t br cl dr fl gr pl pr sh st th tr ch'.split(' '),
];
const VOWELS = 'a e i o u a e i o u a e ai ea ou io'.split(' ');
const CODAS = ['', '', '', '', '', 'n', 'r', 's', 't', 'l', 'm', 'nd', 'st', 'ck', 'ng'];
const SUFFIXES = ['', '', '', '', '', '', 'ing', 'ed', 'er', 'ion', 'ly', 'ness', 'ment', 'able', 'ous', 's'];

export interface CorpusVocabulary {
  /** Every English word form (and set phrase), most frequent first. */
  english: readonly string[];
  /** Words drawn for running English text. */
  englishText: WeightedTable<string>;
  /** Words drawn for titles and headings: the same ranks without the function words. */
  englishTitle: WeightedTable<string>;
  japanese: readonly string[];
  japaneseText: WeightedTable<string>;
  particles: WeightedTable<string>;
  endings: WeightedTable<string>;
}

let built: CorpusVocabulary | undefined;

export function corpusVocabulary(): CorpusVocabulary {
  built ??= buildVocabulary();
  return built;
}

function buildVocabulary(): CorpusVocabulary {
  const reserved = new Set([...ENGLISH_TYPOS, ...RARE_ENGLISH]);
  const english: string[] = [];
  const seen = new Set<string>();
  const add = (word: string) => {
    if (seen.has(word) || reserved.has(word)) return;
    seen.add(word);
    english.push(word);
  };
  ENGLISH_FUNCTION_WORDS.forEach(add);
  ENGLISH_CONTENT_WORDS.forEach(add);
  const next = random(20_240_601);
  const pick = (items: readonly string[]) => items[Math.floor(next() * items.length)]!;
  while (english.length < ENGLISH_VOCABULARY_SIZE) {
    const roll = next();
    const syllables = roll < 0.3 ? 1 : roll < 0.85 ? 2 : 3;
    let word = '';
    for (let index = 0; index < syllables; index += 1) word += pick(ONSETS) + pick(VOWELS) + pick(CODAS);
    add(word + pick(SUFFIXES));
  }
  const functionWords = new Set(ENGLISH_FUNCTION_WORDS);
  const titleWords = english.filter((word) => !functionWords.has(word));
  const japanese = JAPANESE_WORDS.filter((word) => !RARE_JAPANESE.includes(word));
  return {
    english,
    englishText: zipfTable(english, ZIPF_EXPONENT),
    englishTitle: zipfTable(titleWords, ZIPF_EXPONENT),
    japanese,
    japaneseText: zipfTable(japanese, ZIPF_EXPONENT),
    particles: pairTable(JAPANESE_PARTICLES),
    endings: pairTable(JAPANESE_ENDINGS),
  };
}
