import { occurrenceStarts, type OccurrenceStarts } from './clause-matcher.js';
import { FIELDS, fieldOfPosition, MAX_FIELD_TOKENS, positionOf } from './fields.js';
import type { HitSet } from './hit-set.js';
import type { Clause } from './query-plan.js';
import { proximityBonus, titlePhraseBonus, type RankingParameters } from './ranking.js';
import type { Segment } from './segment.js';
import { topByScore } from './top-k.js';

/** What proximity needs of a query clause. */
interface ProximityClause {
  clause: Clause;
  idf: number;
}

const TITLE = FIELDS.indexOf('title');
const HEADINGS = FIELDS.indexOf('headings');
/**
 * Words side by side in the links field are two links' titles side by side in a list, not a
 * phrase of the page (docs/reference/site-search.md, Listing pages): no proximity there.
 */
const LINKS = FIELDS.indexOf('links');
/**
 * The headings field holds every heading of a page in order; the main heading (h1) is the first,
 * so a phrase starting within its first tokens (after a number such as "Chapter 31." or "5.4.1.")
 * is in the main heading. Phrases in later section headings get no bonus: "Remove Foreign Key
 * Constraints" is not a page about foreign keys.
 */
const MAIN_HEADING_TOKENS = 4;

/**
 * Adds two bonuses to the best `proximityCandidates` hits. Proximity: for each pair of
 * neighbouring query clauses, the nearest pair of occurrences within one field, so a query's
 * words side by side (a phrase the user did not quote) rank above the same words paragraphs
 * apart. Title phrase: the query's words adjacent and in order in the title, so the page named
 * after the query ranks above pages that repeat its words in a long body, which BM25F's
 * saturation lets score as much as a title. A query of one word (or one Japanese compound) is a
 * phrase of one: the page titled `ずらし` ranks above the one titled `ずらしマップ`, by coverage.
 */
export function positionRerank(
  segments: readonly Segment[],
  hits: HitSet,
  clauses: readonly ProximityClause[],
  parameters: RankingParameters,
): void {
  const best = topByScore(hits.score, hits.count, parameters.proximityCandidates);
  for (const hit of best) {
    const segment = segments[hits.segment[hit]!]!;
    const ordinal = hits.ordinal[hit]!;
    const starts = clauses.map(({ clause }) => occurrenceStarts(segment, clause, ordinal));
    const lengths = clauses.map(({ clause }) => clauseLength(clause));
    let bonus = 0;
    for (let index = 0; index + 1 < clauses.length; index += 1) {
      const gap = nearestGap(starts[index]!, lengths[index]!, starts[index + 1]!);
      bonus += proximityBonus(gap, Math.min(clauses[index]!.idf, clauses[index + 1]!.idf), parameters);
    }
    const idf = clauses.reduce((sum, { idf }) => sum + idf, 0);
    if (chainInField(starts, lengths, TITLE, MAX_FIELD_TOKENS)) {
      const titleLength = segment.fieldLength(ordinal, TITLE);
      const phraseLength = lengths.reduce((sum, length) => sum + length, 0);
      bonus += titlePhraseBonus(phraseLength / Math.max(phraseLength, titleLength), idf, parameters);
    } else if (chainInField(starts, lengths, HEADINGS, MAIN_HEADING_TOKENS)) {
      // The main heading's length is not known: the bonus for holding the phrase, none for coverage.
      bonus += titlePhraseBonus(0, idf, parameters);
    }
    hits.score[hit]! += bonus;
  }
}

/**
 * Whether the clauses occur one right after the other, in order, within `field`, starting at most
 * `maxOffset` tokens into it.
 */
function chainInField(
  starts: readonly OccurrenceStarts[],
  lengths: readonly number[],
  field: number,
  maxOffset: number,
): boolean {
  outer: for (const start of starts[0]!) {
    const startField = fieldOfPosition(start);
    if (startField < field) continue;
    if (startField > field || start - positionOf(field, 0) > maxOffset) return false;
    let expected = start + lengths[0]!;
    for (let index = 1; index < starts.length; index += 1) {
      if (!sortedIncludes(starts[index]!, expected)) continue outer;
      expected += lengths[index]!;
    }
    return true;
  }
  return false;
}

function sortedIncludes(values: OccurrenceStarts, wanted: number): boolean {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < wanted) low = middle + 1;
    else high = middle;
  }
  return values[low] === wanted;
}

function clauseLength(clause: Clause): number {
  return Math.max(1, clause.tokens.length);
}

/**
 * Smallest gap from an occurrence of the first clause to one of the second in the same field:
 * 1 when the second follows the first directly; the reverse order costs one token more. The
 * links field holds no pair.
 */
function nearestGap(first: OccurrenceStarts, firstLength: number, second: OccurrenceStarts): number {
  let best = Infinity;
  let pointer = 0;
  for (const start of first) {
    const field = fieldOfPosition(start);
    if (field === LINKS) continue;
    const end = start + firstLength - 1;
    while (pointer < second.length && second[pointer]! <= end) pointer += 1;
    const after = second[pointer];
    if (after !== undefined && fieldOfPosition(after) === field) {
      best = Math.min(best, after - end);
      // Directly after is the nearest there is: a common word's hundreds of occurrences need no more looking.
      if (best === 1) return 1;
    }
    const before = second[pointer - 1];
    if (before !== undefined && before < start && fieldOfPosition(before) === field) {
      best = Math.min(best, start - before + 1);
    }
  }
  return best;
}
