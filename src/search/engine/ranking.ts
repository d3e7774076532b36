import { FIELD_COUNT, FIELDS, type FieldName } from './fields.js';

/**
 * Ranking parameters. Scores are BM25F (Robertson and Zaragoza, "The Probabilistic Relevance
 * Framework: BM25 and Beyond", 2009): per-field term frequencies are length-normalized, weighted
 * and summed before the saturation, so a word in the title counts more than in the body without
 * a page collecting score from every field separately.
 */
export interface RankingParameters {
  /** Term frequency saturation. */
  k1: number;
  /** Weight of an occurrence in each field. */
  fieldWeights: Record<FieldName, number>;
  /** Length normalization of each field (0 none, 1 full). */
  fieldB: Record<FieldName, number>;
  /**
   * Share of the word view (Japanese words as Intl.Segmenter cuts them) added to the bigram
   * match: 京都 scores higher on a page about Kyoto than on one that says 東京都.
   */
  wordViewBoost: number;
  /** Bonus scale for query words that occur close together (multi-word queries). */
  proximityWeight: number;
  /** Words further apart than this (in tokens) earn no proximity bonus. */
  proximityWindow: number;
  /** How many of the best documents by BM25F get the proximity bonus computed. */
  proximityCandidates: number;
  /** Bonus scale, per unit of the query words' idf, for the query as a phrase in the title. */
  titlePhraseWeight: number;
}

/**
 * Defaults, tuned with `npm run eval:search` (docs/search-evaluation.md): headings count close to
 * titles, since a documentation page defines its subjects in headings and definition terms, and
 * long bodies are normalized gently (b 0.4 rather than the textbook 0.75), since a long reference
 * page is long because it covers many subjects, not because it repeats one. Headings are not
 * length-normalized at all: each heading names a subject of its own, so the heading that defines
 * a directive on a module page of ninety weighs as much as the only heading of a short page.
 */
export const DEFAULT_RANKING: RankingParameters = {
  k1: 1.2,
  fieldWeights: { title: 6, headings: 5, description: 2, body: 1, url: 2, links: 0.5 },
  fieldB: { title: 0.4, headings: 0, description: 0.5, body: 0.4, url: 0.5, links: 0.4 },
  wordViewBoost: 0.5,
  proximityWeight: 1,
  proximityWindow: 8,
  proximityCandidates: 100,
  titlePhraseWeight: 1,
};

/** Per-field weights and normalization as arrays in FIELDS order, computed once per search. */
export interface FieldArrays {
  weights: Float64Array;
  b: Float64Array;
  /** The weights and normalizations as one text: what occurrence weights cached for a segment were computed with. */
  key: string;
}

export function fieldArraysOf(parameters: RankingParameters): FieldArrays {
  const weights = Float64Array.from(FIELDS, (field) => parameters.fieldWeights[field]);
  const b = Float64Array.from(FIELDS, (field) => parameters.fieldB[field]);
  return { weights, b, key: `${weights.join(',')}/${b.join(',')}` };
}

/** Robertson-Sparck Jones idf as Lucene computes it: never negative. */
export function inverseDocumentFrequency(documentFrequency: number, documentCount: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * The weight of one occurrence in each field of each document of a segment, length-normalized:
 * `weights[f] / (1 - b[f] + b[f] * length / averageLength)`, laid out as the field lengths are.
 * Computed once per index change instead of once per hit.
 */
export function occurrenceWeights(
  fieldLengths: Uint32Array,
  averageLengths: Float64Array,
  fields: FieldArrays,
): Float32Array {
  const result = new Float32Array(fieldLengths.length);
  for (let index = 0; index < fieldLengths.length; index += 1) {
    const field = index % FIELD_COUNT;
    const b = fields.b[field]!;
    const average = averageLengths[field]! || 1;
    result[index] = fields.weights[field]! / (1 - b + (b * fieldLengths[index]!) / average);
  }
  return result;
}

/**
 * BM25F of one clause in one document: `tf` holds its occurrences per field at `tfOffset`,
 * `weights` the document's occurrence weights (see occurrenceWeights) at `weightOffset`.
 */
export function bm25f(
  tf: Float32Array,
  tfOffset: number,
  weights: Float32Array,
  weightOffset: number,
  k1: number,
  idf: number,
): number {
  let weighted = 0;
  for (let field = 0; field < FIELD_COUNT; field += 1) {
    weighted += tf[tfOffset + field]! * weights[weightOffset + field]!;
  }
  if (weighted === 0) return 0;
  return (idf * (weighted * (k1 + 1))) / (weighted + k1);
}

/**
 * Proximity bonus of two clauses whose nearest occurrences are `gap` tokens apart within a
 * field (1 = adjacent): decays with the gap, scaled by the rarer clause's idf so that two rare
 * words side by side matter more than two common ones.
 */
export function proximityBonus(gap: number, idf: number, parameters: RankingParameters): number {
  if (gap < 1 || gap > parameters.proximityWindow) return 0;
  return (parameters.proximityWeight * idf) / gap;
}

/**
 * Bonus of a document whose title holds the query's words adjacent and in order, `coverage` the
 * share of the title they make (1: the title is the query): half the bonus for holding the
 * phrase, half in proportion to the coverage, so "Streaming Replication Protocol" as a whole
 * title counts more than inside "Logical Streaming Replication Protocol".
 */
export function titlePhraseBonus(coverage: number, idf: number, parameters: RankingParameters): number {
  return (parameters.titlePhraseWeight * idf * (1 + coverage)) / 2;
}
