import { type ClauseMatches, matchClause } from './clause-matcher.js';
import { FIELD_COUNT } from './fields.js';
import { positionRerank } from './proximity.js';
import type { Clause, QueryPlan } from './query-plan.js';
import {
  type FieldArrays,
  fieldArraysOf,
  inverseDocumentFrequency,
  occurrenceWeights,
  type RankingParameters,
} from './ranking.js';
import type { Segment } from './segment.js';
import type { HitSet } from './hit-set.js';
import { scoreSegment, type SegmentQuery, type SegmentScorer } from './segment-scoring.js';

/** Collection statistics BM25F needs: live documents and mean field lengths. */
export interface IndexStatistics {
  documentCount: number;
  averageFieldLengths: Float64Array;
}

export function statisticsOf(segments: readonly Segment[]): IndexStatistics {
  const totals = new Float64Array(FIELD_COUNT);
  let documentCount = 0;
  for (const segment of segments) {
    documentCount += segment.liveCount;
    const segmentTotals = liveLengthTotals(segment);
    for (let field = 0; field < FIELD_COUNT; field += 1) totals[field]! += segmentTotals[field]!;
  }
  const averageFieldLengths = totals.map((total) => (documentCount === 0 ? 0 : total / documentCount));
  return { documentCount, averageFieldLengths };
}

/**
 * A segment's field lengths summed over its live documents, kept with the live count they were
 * summed at: a segment only ever loses documents, so an unchanged count is an unchanged sum, and
 * a new generation sums only the segments it changed (a million pages took tens of milliseconds).
 * The sums are of whole numbers far below 2^53, so summing by segment changes no average.
 */
const lengthTotals = new WeakMap<Segment, { liveCount: number; totals: Float64Array }>();

function liveLengthTotals(segment: Segment): Float64Array {
  const cached = lengthTotals.get(segment);
  if (cached?.liveCount === segment.liveCount) return cached.totals;
  const totals = new Float64Array(FIELD_COUNT);
  const lengths = segment.fieldLengths;
  for (let ordinal = 0; ordinal < segment.docCount; ordinal += 1) {
    if (!segment.isLive(ordinal)) continue;
    for (let field = 0; field < FIELD_COUNT; field += 1)
      totals[field]! += lengths[ordinal * FIELD_COUNT + field]!;
  }
  lengthTotals.set(segment, { liveCount: segment.liveCount, totals });
  return totals;
}

/** A clause with what scoring needs across segments. */
interface ScoredClause {
  clause: Clause;
  perSegment: ClauseMatches[];
  idf: number;
  wordIdf: number;
  /** The words of a quoted phrase, which score the documents the phrase matches (Clause.parts). */
  parts: ScoredClause[];
}

/**
 * Finds and scores every document matching the plan: all required groups (any clause of a
 * group), none of the excluded clauses. The score is the sum of the BM25F of each matching
 * clause plus its word-view share, a quoted phrase scoring as its words; the best
 * `proximityCandidates` documents then get a bonus for query words close together and for the
 * query as a phrase in their title (proximity.ts).
 */
export function findHits(
  segments: readonly Segment[],
  plan: QueryPlan,
  statistics: IndexStatistics,
  parameters: RankingParameters,
): HitSet {
  if (plan.required.length === 0 || statistics.documentCount === 0) return emptyHits();
  const scoreOf = (clause: Clause): ScoredClause => {
    const perSegment = segments.map((segment) => matchClause(segment, clause));
    const documentFrequency = perSegment.reduce((sum, matches) => sum + matches.docs.length, 0);
    return {
      clause,
      perSegment,
      idf: inverseDocumentFrequency(documentFrequency, statistics.documentCount),
      wordIdf: wordIdfOf(segments, clause, statistics.documentCount),
      parts: clause.parts.map(scoreOf),
    };
  };
  const groups = plan.required.map((group) => group.map(scoreOf));
  const excluded = plan.excluded.map(scoreOf);
  const fields = fieldArraysOf(parameters);

  const { k1, wordViewBoost } = parameters;
  // Other forms come after the words they are forms of (query-plan.ts, Clause.formOf): a form
  // is skipped on a document where its typed word was found. Each clause has a slot for that.
  const slots = new Map<Clause, number>();
  for (const scored of groups.flat()) {
    for (const clause of [scored.clause, ...scored.parts.map((part) => part.clause)]) {
      if (!slots.has(clause)) slots.set(clause, slots.size);
    }
  }
  const slotOf = (clause: Clause) => slots.get(clause) ?? -1;
  const formSlotOf = (clause: Clause) => (clause.formOf === undefined ? -1 : slotOf(clause.formOf));
  const queries = segments.map((_, segmentIndex): SegmentQuery => ({
    groups: groups.map((group) => group.map((scored) => scored.perSegment[segmentIndex]!.docs)),
    excluded: excluded.map((scored) => scored.perSegment[segmentIndex]!.docs),
    // A clause weighing nothing (a synonym completing another word's group) only matches.
    clauses: groups
      .flat()
      .filter((scored) => scored.clause.weight > 0)
      .map((scored) => ({
        weight: scored.clause.weight,
        slot: slotOf(scored.clause),
        formSlot: formSlotOf(scored.clause),
        own: scorerOf(scored, segmentIndex),
        parts: scored.parts.map((part) => ({
          weight: part.clause.weight,
          slot: slotOf(part.clause),
          formSlot: formSlotOf(part.clause),
          ...scorerOf(part, segmentIndex),
        })),
      })),
    slotCount: slots.size,
  }));
  // At most the documents of each segment's smallest group.
  const capacity = queries.reduce(
    (sum, query) =>
      sum + Math.min(...query.groups.map((lists) => lists.reduce((total, docs) => total + docs.length, 0))),
    0,
  );
  const hitSegments = new Uint16Array(capacity);
  const hitOrdinals = new Uint32Array(capacity);
  const hitScores = new Float64Array(capacity);
  let count = 0;
  segments.forEach((segment, segmentIndex) => {
    const weights = weightsOf(segment, statistics, fields);
    scoreSegment(segment.docCount, queries[segmentIndex]!, weights, k1, wordViewBoost, (ordinal, score) => {
      hitSegments[count] = segmentIndex;
      hitOrdinals[count] = ordinal;
      hitScores[count] = score;
      count += 1;
    });
  });
  const hits: HitSet = {
    count,
    segment: hitSegments.subarray(0, count),
    ordinal: hitOrdinals.subarray(0, count),
    score: hitScores.subarray(0, count),
  };
  // A quoted phrase takes part as its words, as the same words unquoted would (their other
  // forms, weighing less than 1, score but do not take part: query-plan.ts, Clause.parts). A
  // single clause gets the title phrase bonus too (proximity.ts).
  const positives = groups.flatMap((group) =>
    group[0]!.parts.length > 0 ? group[0]!.parts.filter((part) => part.clause.weight === 1) : [group[0]!],
  );
  if (positives.length > 0) positionRerank(segments, hits, positives, parameters);
  return hits;
}

function scorerOf(scored: ScoredClause, segmentIndex: number): SegmentScorer {
  const matches = scored.perSegment[segmentIndex]!;
  const hasWords = matches.wordTf !== undefined;
  return {
    docs: matches.docs,
    tf: matches.tf,
    wordTf: matches.wordTf ?? matches.tf,
    idf: scored.idf,
    wordIdf: hasWords ? scored.wordIdf : scored.idf,
  };
}

/**
 * Occurrence weights of a segment, cached until the statistics change (a new index generation)
 * or the field weights do (a search service's weights changed, docs/reference/site-search.md,
 * Search services).
 */
const weightCache = new WeakMap<
  Segment,
  { averages: Float64Array; fieldsKey: string; weights: Float32Array }
>();

function weightsOf(segment: Segment, statistics: IndexStatistics, fields: FieldArrays): Float32Array {
  const cached = weightCache.get(segment);
  if (
    cached !== undefined &&
    cached.averages === statistics.averageFieldLengths &&
    cached.fieldsKey === fields.key
  )
    return cached.weights;
  const weights = occurrenceWeights(segment.fieldLengths, statistics.averageFieldLengths, fields);
  weightCache.set(segment, { averages: statistics.averageFieldLengths, fieldsKey: fields.key, weights });
  return weights;
}

function emptyHits(): HitSet {
  return { count: 0, segment: new Uint16Array(0), ordinal: new Uint32Array(0), score: new Float64Array(0) };
}

/** idf of the clause's Japanese words (mean of their document frequencies over all segments). */
function wordIdfOf(segments: readonly Segment[], clause: Clause, documentCount: number): number {
  if (clause.words.length === 0) return 0;
  let total = 0;
  for (const word of clause.words) {
    for (const segment of segments) total += segment.documentFrequency(word);
  }
  return inverseDocumentFrequency(Math.min(documentCount, total / clause.words.length), documentCount);
}
