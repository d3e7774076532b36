/**
 * The terms of a segment that start with a prefix, found by a range scan of the segment's term
 * dictionary, which is in sorted order (docs/reference/site-search.md, Words being typed).
 */
import type { Segment } from './segment.js';

/** Terms of one segment looked at by one lookup at most: a short prefix of a huge index stays cheap. */
const MAX_SCANNED_TERMS = 10_000;

/**
 * The first character of a term no prefix completes: a Japanese bigram's, or the mark of a word
 * of the word view or of an identifier (analyzer.ts); every other stream term is a word of
 * letters or digits.
 */
const NOT_COMPLETED = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヶ\u0001\u0002]/u;

/**
 * Calls `visit` with each Latin term of the segment longer than `prefix` that starts with it and
 * the number of its postings (documents, deleted ones included as in every document frequency).
 */
export function visitTermsWithPrefix(
  segment: Segment,
  prefix: string,
  visit: (term: string, postings: number) => void,
): void {
  for (const { term, docCount } of segment.termsWithPrefix(prefix, MAX_SCANNED_TERMS)) {
    if (term.length === prefix.length || NOT_COMPLETED.test(term)) continue;
    visit(term, docCount);
  }
}
