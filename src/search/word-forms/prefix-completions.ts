/**
 * Words being typed (docs/reference/site-search.md, Words being typed): the last word of a query
 * that does not end with a space may be the start of a word (`vacu`, `replicat`), and also finds
 * the pages of the index's most frequent words it starts (`vacuum`, `replication`), scored below
 * the word as typed. A whole word the index knows well (`vacuum`, `log`) is left alone, so the
 * answers to whole-word queries stay as they were.
 */
import { normalizeText } from '../analyzer.js';
import type { QueryPart } from '../query-syntax.js';

/**
 * Shortest word completed: two letters start too many words to say which one is meant, and each
 * completion costs a posting scan.
 */
export const MIN_PREFIX_LENGTH = 3;
/**
 * Completions of one word at most, the most frequent. A word being typed is one of a few common
 * words of the site (`vacu`: vacuum, vacuumdb, vacuuming); pages holding only a rarer completion
 * are few, since most of them hold a common one too, while each completion is one more clause of
 * the query, scanned in every segment. Eight keeps a query of one word under a third of
 * MAX_CLAUSES (query-plan.ts) and its cost near that of the word with its forms.
 */
export const MAX_COMPLETIONS = 8;
/**
 * Share of a completion's score next to the word as typed, at equal document frequency, as
 * FORM_WEIGHT is for other forms: a page holding the word typed ranks above pages found only
 * through a completion. A page is scored by the commonest completion it holds alone (query-plan.ts).
 */
export const COMPLETION_WEIGHT = 0.25;
/**
 * A word the index holds is completed only when its commonest completion is on this many times
 * more pages: `vac` on one page also finds `vacuum` on eighty, while `replica` next to
 * `replication`, or `vacuum` next to `vacuumdb`, is taken as the whole word it is. The factor is
 * the one a did-you-mean asks of a correction (spellcheck.ts).
 */
export const COMPLETION_FREQUENCY_FACTOR = 10;

const LATIN_WORD = /^(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヶ])[\p{L}\p{N}])+$/u;

/** The word of a query being typed, with the part it is, when the query may end mid-word. */
export interface WordBeingTyped {
  part: number;
  word: string;
}

/**
 * The last part of a query as a word being typed: a plain word (not a quoted phrase, not an
 * excluded word) of Latin letters or digits, of MIN_PREFIX_LENGTH characters or more, with no
 * space after it. A space after the last word says it is complete: the widget sends what the
 * visitor typed, so `vacu ` asks for the word `vacu` alone.
 */
export function wordBeingTyped(query: string, parts: readonly QueryPart[]): WordBeingTyped | undefined {
  if (/\s$/u.test(query)) return undefined;
  const part = parts.length - 1;
  const last = parts[part];
  if (last === undefined || last.phrase || last.exclude) return undefined;
  const word = normalizeText(last.text);
  if (!LATIN_WORD.test(word) || [...word].length < MIN_PREFIX_LENGTH) return undefined;
  return { part, word };
}
