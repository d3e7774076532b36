/**
 * The text analyzer of the search index, used alike on documents and on queries. Text is
 * indexed two ways, as Japanese site-search engines do:
 *  - bigrams: Latin and number words whole, and overlapping two-character grams over each run of
 *    Han / Hiragana / Katakana, which finds a word inside a compound (キャプチャ in
 *    キャプチャツール) where no dictionary knows the compound;
 *  - segments: words as Intl.Segmenter cuts them, which keeps 京都 from matching 東京都.
 * Both start from NFKC and lower case, so full-width and half-width forms are one.
 */

/**
 * Stored with every index; an index written by an older version is indexed again from its stored
 * text when first opened (reanalysis-upgrade.ts, docs/operations.md, Upgrading).
 */
export const ANALYZER_VERSION = 5;

/**
 * Characters of a Japanese run: the three scripts, plus the marks that live inside Japanese
 * words but belong to no script (ー prolonged sound, 々 iteration, ヶ small ke, 〆).
 */
const JAPANESE_CHAR = String.raw`[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヶ]`;
/** A run of Japanese characters, or of other letters and digits (Japanese ones excluded). */
const RUNS = new RegExp(String.raw`(${JAPANESE_CHAR}+)|((?:(?!${JAPANESE_CHAR})[\p{L}\p{N}\p{M}])+)`, 'gu');

/**
 * A code identifier: letters and digits joined by underscores (`format_value`, `__bool__`,
 * `pg_stat_activity`). The stream holds its words (`format`, `value`); the word view holds it
 * whole too, so that the page naming `FORMAT_VALUE` outranks one saying `format(value)`.
 */
const IDENTIFIER = new RegExp(
  String.raw`(?:(?:(?!${JAPANESE_CHAR})[\p{L}\p{N}])|_)*_(?:(?:(?!${JAPANESE_CHAR})[\p{L}\p{N}])|_)*`,
  'gu',
);

/** Marks an identifier of the word view, apart from Japanese words (vocabulary reads those). */
export const IDENTIFIER_MARK = '\u0002';

const segmenter = new Intl.Segmenter('ja', { granularity: 'word' });

/** NFKC and lower case: `ＡＢＣ１２３` is `abc123`, half-width `ｶﾀｶﾅ` is `カタカナ`. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** One run of the text: Japanese (bigrammed) or a word of other letters and digits. */
export interface TextRun {
  text: string;
  japanese: boolean;
}

/** The runs of normalized text, in order; punctuation and spaces separate them. */
export function runsOf(normalized: string): TextRun[] {
  const runs: TextRun[] = [];
  for (const match of normalized.matchAll(RUNS)) {
    runs.push({ text: match[0], japanese: match[1] !== undefined });
  }
  return runs;
}

/**
 * Overlapping bigrams of a Japanese run (a lone character stays a unigram), by code point so a
 * character outside the BMP is never split.
 */
export function bigramsOf(run: string): string[] {
  const grams: string[] = [];
  // Code point boundaries, walked by hand: this runs over every Japanese character indexed.
  let first = 0;
  let second = codePointEnd(run, first);
  if (second >= run.length) return [run];
  while (second < run.length) {
    const third = codePointEnd(run, second);
    grams.push(run.slice(first, third));
    first = second;
    second = third;
  }
  return grams;
}

/** Index just past the code point starting at `index`. */
function codePointEnd(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? index + 2 : index + 1;
}

/**
 * Marks a term of the word view (a Japanese word as Intl.Segmenter cuts it) so it never collides
 * with a bigram of the same two characters: the word 京都 and the bigram 京都 of 東京都 are
 * different terms.
 */
export const WORD_MARK = '\u0001';

/** The tokens of one field as the index stores them. */
export interface AnalyzedText {
  /** Latin words and Japanese bigrams in text order: positions, phrases and proximity use them. */
  stream: string[];
  /** Japanese words (WORD_MARK-prefixed), in order: the precision signal of the word view. */
  words: string[];
}

/**
 * Analyzes a field once for both views. Latin words live only in the stream: for them the two
 * views agree, so storing them twice would only double the index.
 */
export function analyzeText(text: string): AnalyzedText {
  const stream: string[] = [];
  const words: string[] = [];
  const normalized = normalizeText(text);
  if (normalized.includes('_')) {
    for (const match of normalized.matchAll(IDENTIFIER)) {
      if (/[^_]/.test(match[0])) words.push(IDENTIFIER_MARK + match[0]);
    }
  }
  for (const run of runsOf(normalized)) {
    if (!run.japanese) {
      stream.push(run.text);
      continue;
    }
    for (const gram of bigramsOf(run.text)) stream.push(gram);
    for (const segment of segmenter.segment(run.text)) {
      if (segment.isWordLike) words.push(WORD_MARK + segment.segment);
    }
  }
  return { stream, words };
}
