import { occurrenceStarts } from './clause-matcher.js';
import { fieldOfPosition } from './fields.js';
import type { HitSet } from './matcher.js';
import type { Clause } from './query-plan.js';
import { proximityBonus, type RankingParameters } from './ranking.js';
import type { Segment } from './segment.js';
import { topK } from './top-k.js';

/** What proximity needs of a query clause. */
interface ProximityClause {
  clause: Clause;
  idf: number;
}

/**
 * Adds the proximity bonus to the best `proximityCandidates` hits: for each pair of neighbouring
 * query clauses, the nearest pair of occurrences within one field. A query's words side by side
 * (a phrase the user did not quote) then rank above the same words paragraphs apart.
 */
export function proximityRerank(
  segments: readonly Segment[],
  hits: HitSet,
  clauses: readonly ProximityClause[],
  parameters: RankingParameters,
): void {
  const best = topK(
    hits.count,
    parameters.proximityCandidates,
    (a, b) => hits.score[b]! - hits.score[a]! || a - b,
  );
  for (const hit of best) {
    const segment = segments[hits.segment[hit]!]!;
    const ordinal = hits.ordinal[hit]!;
    const starts = clauses.map(({ clause }) => occurrenceStarts(segment, clause, ordinal));
    let bonus = 0;
    for (let index = 0; index + 1 < clauses.length; index += 1) {
      const gap = nearestGap(starts[index]!, clauseLength(clauses[index]!.clause), starts[index + 1]!);
      bonus += proximityBonus(gap, Math.min(clauses[index]!.idf, clauses[index + 1]!.idf), parameters);
    }
    hits.score[hit]! += bonus;
  }
}

function clauseLength(clause: Clause): number {
  return Math.max(1, clause.tokens.length);
}

/**
 * Smallest gap from an occurrence of the first clause to one of the second in the same field:
 * 1 when the second follows the first directly; the reverse order costs one token more.
 */
function nearestGap(first: readonly number[], firstLength: number, second: readonly number[]): number {
  let best = Infinity;
  let pointer = 0;
  for (const start of first) {
    const end = start + firstLength - 1;
    while (pointer < second.length && second[pointer]! <= end) pointer += 1;
    const after = second[pointer];
    if (after !== undefined && fieldOfPosition(after) === fieldOfPosition(start)) {
      best = Math.min(best, after - end);
    }
    const before = second[pointer - 1];
    if (before !== undefined && before < start && fieldOfPosition(before) === fieldOfPosition(start)) {
      best = Math.min(best, start - before + 1);
    }
  }
  return best;
}
