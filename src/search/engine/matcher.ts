import { type ClauseMatches, matchClause } from './clause-matcher.js';
import { FIELD_COUNT } from './fields.js';
import { gallopTo } from './gallop.js';
import { positionRerank } from './proximity.js';
import type { Clause, QueryPlan } from './query-plan.js';
import {
  bm25f,
  type FieldArrays,
  fieldArraysOf,
  inverseDocumentFrequency,
  occurrenceWeights,
  type RankingParameters,
} from './ranking.js';
import type { Segment } from './segment.js';
import type { HitSet } from './hit-set.js';

/** Collection statistics BM25F needs: live documents and mean field lengths. */
export interface IndexStatistics {
  documentCount: number;
  averageFieldLengths: Float64Array;
}

export function statisticsOf(segments: readonly Segment[]): IndexStatistics {
  const totals = new Float64Array(FIELD_COUNT);
  let documentCount = 0;
  for (const segment of segments) {
    const lengths = segment.fieldLengths;
    for (let ordinal = 0; ordinal < segment.docCount; ordinal += 1) {
      if (!segment.isLive(ordinal)) continue;
      documentCount += 1;
      for (let field = 0; field < FIELD_COUNT; field += 1)
        totals[field]! += lengths[ordinal * FIELD_COUNT + field]!;
    }
  }
  const averageFieldLengths = totals.map((total) => (documentCount === 0 ? 0 : total / documentCount));
  return { documentCount, averageFieldLengths };
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

/** What scores one clause's occurrences in the documents of one segment. */
interface SegmentScorer {
  cursor: Cursor;
  tf: Float32Array;
  wordTf: Float32Array;
  idf: number;
  wordIdf: number;
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

  const perSegment = segments.map((segment, segmentIndex) => {
    const candidates = intersectGroups(
      groups.map((group) => unionDocs(group.map((c) => c.perSegment[segmentIndex]!))),
    );
    return { segment, segmentIndex, candidates };
  });
  const capacity = perSegment.reduce((sum, entry) => sum + entry.candidates.length, 0);
  const hitSegments = new Uint16Array(capacity);
  const hitOrdinals = new Uint32Array(capacity);
  const hitScores = new Float64Array(capacity);
  let count = 0;
  const { k1, wordViewBoost } = parameters;
  const scoreAt = (scorer: SegmentScorer, position: number, weights: Float32Array, weightOffset: number) => {
    const tfOffset = position * FIELD_COUNT;
    return (
      bm25f(scorer.tf, tfOffset, weights, weightOffset, k1, scorer.idf) +
      wordViewBoost * bm25f(scorer.wordTf, tfOffset, weights, weightOffset, k1, scorer.wordIdf)
    );
  };
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
  for (const { segment, segmentIndex, candidates } of perSegment) {
    const weights = weightsOf(segment, statistics, fields);
    const excludedCursors = excluded.map((c) => new Cursor(c.perSegment[segmentIndex]!.docs));
    // A clause weighing nothing (a synonym completing another word's group) only matches.
    const clauses = groups
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
      }));
    /**
     * The candidate on which each clause was last found, or skipped for the word it stands for:
     * a completion standing for the commoner one before it (query-plan.ts) is skipped too.
     */
    const foundOn = new Int32Array(slots.size).fill(-1);
    // One clause: the candidates are its documents, in order.
    const single = groups.length === 1 && groups[0]!.length === 1 && excludedCursors.length === 0;
    candidateLoop: for (let candidate = 0; candidate < candidates.length; candidate += 1) {
      const ordinal = candidates[candidate]!;
      for (const cursor of excludedCursors) if (cursor.seek(ordinal) >= 0) continue candidateLoop;
      let score = 0;
      const weightOffset = ordinal * FIELD_COUNT;
      for (const { weight, slot, formSlot, own, parts } of clauses) {
        // A page holding the form typed scores by it alone: exact forms rank above other forms.
        if (formSlot >= 0 && foundOn[formSlot] === candidate) {
          foundOn[slot] = candidate;
          continue;
        }
        const position = single ? candidate : own.cursor.seek(ordinal);
        if (position < 0) continue;
        foundOn[slot] = candidate;
        if (parts.length === 0) {
          score += weight * scoreAt(own, position, weights, weightOffset);
          continue;
        }
        for (const part of parts) {
          if (part.formSlot >= 0 && foundOn[part.formSlot] === candidate) continue;
          const partPosition = part.cursor.seek(ordinal);
          if (partPosition < 0) continue;
          foundOn[part.slot] = candidate;
          score += weight * part.weight * scoreAt(part, partPosition, weights, weightOffset);
        }
      }
      hitSegments[count] = segmentIndex;
      hitOrdinals[count] = ordinal;
      hitScores[count] = score;
      count += 1;
    }
  }
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
    cursor: new Cursor(matches.docs),
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

/**
 * Documents in any list, ascending: lists merged pairwise, as a word's other forms and synonyms
 * (query-plan.ts) make groups of common words whose lists run to thousands of documents.
 */
function unionDocs(matches: readonly ClauseMatches[]): Uint32Array {
  let union = matches[0]!.docs;
  for (let index = 1; index < matches.length; index += 1) union = mergeAscending(union, matches[index]!.docs);
  return union;
}

function mergeAscending(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const merged = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let count = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x <= y) {
      merged[count++] = x;
      i += 1;
      if (x === y) j += 1;
    } else {
      merged[count++] = y;
      j += 1;
    }
  }
  while (i < a.length) merged[count++] = a[i++]!;
  while (j < b.length) merged[count++] = b[j++]!;
  return merged.subarray(0, count);
}

/** Documents in every list, ascending; driven by the shortest list. */
function intersectGroups(lists: Uint32Array[]): Uint32Array {
  if (lists.length === 1) return lists[0]!;
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  const [shortest, ...others] = sorted;
  const cursors = others.map((list) => new Cursor(list));
  const result = new Uint32Array(shortest!.length);
  let count = 0;
  outer: for (const doc of shortest!) {
    for (const cursor of cursors) if (cursor.seek(doc) < 0) continue outer;
    result[count++] = doc;
  }
  return result.subarray(0, count);
}

/** Walks an ascending list of documents; seeks must come in ascending order. */
class Cursor {
  private position = 0;

  constructor(private readonly list: Uint32Array) {}

  /** Index of `doc` in the list, or -1; moves forward by galloping. */
  seek(doc: number): number {
    const list = this.list;
    this.position = gallopTo(list, this.position, list.length, doc);
    return this.position < list.length && list[this.position] === doc ? this.position : -1;
  }
}
