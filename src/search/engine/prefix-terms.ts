/**
 * The terms of a segment that start with a prefix, found by a range scan of the segment's term
 * dictionary in sorted order (docs/reference/site-search.md, Words being typed). A segment keeps
 * its terms in the order it met them; the sorted view of its Latin words is made once, on the
 * first lookup, and lives as long as the segment, which never changes.
 */
import type { Segment } from './segment.js';

/** Terms of one segment looked at by one lookup at most: a short prefix of a huge index stays cheap. */
const MAX_SCANNED_TERMS = 10_000;

/** A word of Latin letters or digits: the stream terms a prefix can complete (no bigram, no marked word). */
const LATIN_TERM =
  /^(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヶ])[\p{L}\p{N}\p{M}])+$/u;

const sortedBySegment = new WeakMap<Segment, { terms: string[]; ordinals: Uint32Array }>();

function sortedTermsOf(segment: Segment): { terms: string[]; ordinals: Uint32Array } {
  const known = sortedBySegment.get(segment);
  if (known !== undefined) return known;
  const all = segment.data.terms;
  const latin: number[] = [];
  for (let ordinal = 0; ordinal < all.length; ordinal += 1) {
    if (LATIN_TERM.test(all[ordinal]!)) latin.push(ordinal);
  }
  // Code unit order, the order a prefix's range is contiguous in.
  latin.sort((a, b) => (all[a]! < all[b]! ? -1 : all[a]! > all[b]! ? 1 : 0));
  const sorted = { terms: latin.map((ordinal) => all[ordinal]!), ordinals: Uint32Array.from(latin) };
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
  const { terms, ordinals } = sortedTermsOf(segment);
  let low = 0;
  let high = terms.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (terms[middle]! < prefix) low = middle + 1;
    else high = middle;
  }
  const { postingStart } = segment.data;
  const end = Math.min(terms.length, low + MAX_SCANNED_TERMS);
  for (let position = low; position < end; position += 1) {
    const term = terms[position]!;
    if (!term.startsWith(prefix)) return;
    if (term.length === prefix.length) continue;
    const ordinal = ordinals[position]!;
    visit(term, postingStart[ordinal + 1]! - postingStart[ordinal]!);
  }
}
