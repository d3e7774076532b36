/**
 * Where a matching document speaks of the query, and the candidate keywords found there
 * (docs/reference/site-search.md, Related keywords). A long page that mentions the query once
 * (a release note, a changelog) is about something else: only the text around the mention
 * counts, so the words of its own topic do not pass for words of the query's.
 */

/** Characters read on each side of a mention of the query. */
const WINDOW_CHARS = 120;
/** Mentions read per document: enough to see the query's company, bounded for long pages. */
const MAX_MENTIONS = 12;
/** Characters read from the start of a page that never spells the query (a synonym matched it). */
const FALLBACK_CHARS = 5000;

/**
 * A candidate keyword in normalized text: a Latin word (letters, digits and marks of other
 * scripts), or a Japanese compound: a run of kanji and katakana, which hiragana (particles,
 * inflections) separate. An identifier (`jsonb_agg`) is one candidate, so its parts never pass
 * for words; the index holds no such word, so it is left out. A compound keeps アクセス制御 or 文字エンコーディング whole where a word
 * segmenter cuts them into parts a reader would not call keywords.
 */
const CANDIDATE =
  /([\p{Script=Han}\p{Script=Katakana}ー々〆ヶ]+)|((?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヶ])[\p{L}\p{N}\p{M}_])+)/gu;
const COMPOUND_CHAR = /[\p{Script=Han}\p{Script=Katakana}ー々〆ヶ]/u;
const LATIN_CHAR = /[\p{L}\p{N}\p{M}_]/u;
const HIRAGANA = /\p{Script=Hiragana}/u;

export interface Candidate {
  word: string;
  japanese: boolean;
}

/** The parts of a page read for keywords, and how often the page spells the query. */
export interface Passages {
  texts: string[];
  /** Mentions of the query's words, counted up to a bound. */
  mentions: number;
}

/**
 * The parts of `text` (normalized) within reach of a mention of one of `keys` (normalized query
 * words), merged where they overlap; the start of the text when no key is spelled in it.
 */
export function passagesOf(normalized: string, keys: readonly string[]): Passages {
  const mentions: number[] = [];
  for (const key of keys) {
    for (let at = normalized.indexOf(key); at >= 0; at = normalized.indexOf(key, at + key.length)) {
      mentions.push(at);
      if (mentions.length >= MAX_MENTIONS * keys.length) break;
    }
  }
  if (mentions.length === 0) return { texts: [sliceWords(normalized, 0, FALLBACK_CHARS)], mentions: 0 };
  mentions.sort((a, b) => a - b);
  const passages: string[] = [];
  let start = -1;
  let end = -1;
  for (const at of mentions.slice(0, MAX_MENTIONS)) {
    const from = Math.max(0, at - WINDOW_CHARS);
    const to = Math.min(normalized.length, at + WINDOW_CHARS);
    if (from <= end) {
      end = to;
      continue;
    }
    if (end >= 0) passages.push(sliceWords(normalized, start, end));
    start = from;
    end = to;
  }
  passages.push(sliceWords(normalized, start, end));
  return { texts: passages, mentions: mentions.length };
}

/**
 * `text[from, to)` without the word cut at either end: a word the cut splits ("fro" of "from")
 * is not a word of the page.
 */
export function sliceWords(text: string, from: number, to: number): string {
  let start = Math.max(0, from);
  let end = Math.min(text.length, to);
  if (start > 0) {
    while (start < end && splits(text, start)) start += 1;
  }
  if (end < text.length) {
    while (end > start && splits(text, end)) end -= 1;
  }
  return text.slice(start, end);
}

/** Whether a cut before `text[at]` falls inside a candidate keyword. */
function splits(text: string, at: number): boolean {
  const kind = kindOf(text[at - 1]!);
  return kind !== '' && kind === kindOf(text[at]!);
}

/** Which candidate a character can be part of: a compound ('j'), a Latin word ('l'), or none. */
function kindOf(char: string): 'j' | 'l' | '' {
  if (COMPOUND_CHAR.test(char)) return 'j';
  return LATIN_CHAR.test(char) && !HIRAGANA.test(char) ? 'l' : '';
}

/** The candidate keywords of a normalized text, in order (repeats included). */
export function candidatesOf(normalized: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of normalized.matchAll(CANDIDATE)) {
    found.push({ word: match[0], japanese: match[1] !== undefined });
  }
  return found;
}
