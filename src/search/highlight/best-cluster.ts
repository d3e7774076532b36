/**
 * The passage a snippet should show: of all runs of matches fitting in `span` code units, the
 * one with the most distinct terms, then the most matches, the earliest on ties. One pass with
 * two pointers, so a long body with many matches costs no more than its match count.
 */
import type { TermMatch } from './find-matches.js';
import type { TextRange } from './highlight-part.js';

/** `matches` sorted by start; undefined when there are none. */
export function bestCluster(matches: readonly TermMatch[], span: number): TextRange | undefined {
  if (matches.length === 0) return undefined;
  const counts = new Map<number, number>();
  let distinct = 0;
  // The window holds matches[first] up to, not including, matches[next].
  let next = 0;
  let best = { first: 0, next: 1, distinct: 0, count: 0 };
  for (let first = 0; first < matches.length; first += 1) {
    const limit = matches[first]!.start + span;
    while (next < matches.length && (next === first || matches[next]!.end <= limit)) {
      const term = matches[next]!.term;
      const seen = counts.get(term) ?? 0;
      if (seen === 0) distinct += 1;
      counts.set(term, seen + 1);
      next += 1;
    }
    const count = next - first;
    if (distinct > best.distinct || (distinct === best.distinct && count > best.count)) {
      best = { first, next, distinct, count };
    }
    const term = matches[first]!.term;
    const left = counts.get(term)! - 1;
    counts.set(term, left);
    if (left === 0) distinct -= 1;
  }
  let end = 0;
  for (let index = best.first; index < best.next; index += 1) end = Math.max(end, matches[index]!.end);
  return { start: matches[best.first]!.start, end };
}
