/**
 * The terms of a segment that start with a prefix, found by a range scan of the segment's term
 * dictionary in sorted order (docs/reference/site-search.md, Words being typed). A segment keeps
 * its terms in the order it met them; the sorted view of its Latin words is made once, on the
 * first lookup, and lives as long as the segment, which never changes.
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

const sortedBySegment = new WeakMap<Segment, readonly string[]>();

function sortedTermsOf(segment: Segment): readonly string[] {
  const known = sortedBySegment.get(segment);
  if (known !== undefined) return known;
  // Code unit order (the default sort's), in which a prefix's terms are contiguous.
  const sorted: string[] = [];
  segment.forEachTerm((term) => {
    if (!NOT_COMPLETED.test(term)) sorted.push(term);
  });
  sorted.sort();
  sortedBySegment.set(segment, sorted);
  return sorted;
}

/**
 * Calls `visit` with each Latin term of the segment longer than `prefix` that starts with it and
 * the number of its postings (documents, deleted ones included as in every document frequency).
 */
export function visitTermsWithPrefix(
  segment: Segment,
  prefix: string,
  visit: (term: string, postings: number) => void,
): void {
  const terms = sortedTermsOf(segment);
  let low = 0;
  let high = terms.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (terms[middle]! < prefix) low = middle + 1;
    else high = middle;
  }
  const end = Math.min(terms.length, low + MAX_SCANNED_TERMS);
  for (let position = low; position < end; position += 1) {
    const term = terms[position]!;
    if (!term.startsWith(prefix)) return;
    if (term.length === prefix.length) continue;
    visit(term, segment.documentFrequency(term));
  }
}
