/**
 * A segment's candidates scored a clause at a time (segment-scoring.ts): which documents match
 * the groups and exclusions, what each clause adds, and the rules of other forms and quoted
 * phrases, checked against scores worked out by hand. The arrays by ordinal are reused from
 * query to query, so each test runs after another has left its marks. And the statistics the
 * scores use, whose sums are kept by segment.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText } from '../../src/search/analyzer.js';
import { FIELD_COUNT } from '../../src/search/engine/fields.js';
import { statisticsOf } from '../../src/search/engine/matcher.js';
import { buildSegment } from '../../src/search/engine/segment-builder.js';
import { bm25f } from '../../src/search/engine/ranking.js';
import {
  scoreSegment,
  type ScoringClause,
  type SegmentQuery,
  type SegmentScorer,
} from '../../src/search/engine/segment-scoring.js';

const K1 = 1.2;
const BOOST = 0.5;
const IDF = 2;

/** A clause's documents, each holding it `count` times in the body. */
function scorer(docs: number[], count = 1): SegmentScorer {
  const tf = new Float32Array(docs.length * FIELD_COUNT);
  docs.forEach((_, index) => (tf[index * FIELD_COUNT + 3] = count));
  return { docs: Uint32Array.from(docs), tf, wordTf: tf, idf: IDF, wordIdf: IDF };
}

function clause(slot: number, own: SegmentScorer, formSlot = -1, weight = 1): ScoringClause {
  return { weight, slot, formSlot, own, parts: [] };
}

/** Every occurrence weighs 1 in every field of every document. */
function unitWeights(docCount: number): Float32Array {
  return new Float32Array(docCount * FIELD_COUNT).fill(1);
}

/** What one clause present `count` times scores, as the engine computes it (word view included). */
function clauseScore(count: number): number {
  const tf = new Float32Array(FIELD_COUNT);
  tf[3] = count;
  const score = bm25f(tf, 0, unitWeights(1), 0, K1, IDF);
  return score + BOOST * score;
}

function run(docCount: number, query: SegmentQuery): Map<number, number> {
  const emitted = new Map<number, number>();
  let previous = -1;
  scoreSegment(docCount, query, unitWeights(docCount), K1, BOOST, (ordinal, score) => {
    assert.ok(ordinal > previous, 'candidates come in ascending order');
    previous = ordinal;
    emitted.set(ordinal, score);
  });
  return emitted;
}

test('candidates match every group and no excluded clause, and sum their clauses in order', () => {
  const a = scorer([1, 2, 5, 9]);
  const b = scorer([2, 3, 9], 3);
  const either = scorer([5, 7]);
  const query: SegmentQuery = {
    groups: [[a.docs], [b.docs, either.docs]],
    excluded: [Uint32Array.of(9)],
    clauses: [clause(0, a), clause(1, b), clause(2, either)],
    slotCount: 3,
  };
  const hits = run(12, query);
  assert.deepEqual([...hits.keys()], [2, 5]);
  assert.equal(hits.get(2), clauseScore(1) + clauseScore(3));
  assert.equal(hits.get(5), clauseScore(1) + clauseScore(1));
  // The same query again finds the same: nothing of the first run is left in the arrays.
  assert.deepEqual(run(12, query), hits);
});

test('a form scores only where its typed word is missing, through a chain of forms', () => {
  // `typed` on 0 and 1; `form` (of typed) on 1 and 2; `completion` (of form) on 0, 2 and 3.
  const typed = scorer([0, 1]);
  const form = scorer([1, 2], 2);
  const completion = scorer([0, 2, 3], 4);
  const all = [typed, form, completion];
  const query: SegmentQuery = {
    groups: [all.map((each) => each.docs)],
    excluded: [],
    clauses: [clause(0, typed), clause(1, form, 0, 0.5), clause(2, completion, 1, 0.25)],
    slotCount: 3,
  };
  const hits = run(4, query);
  // 0: typed; its completion stands for the form, which stands for the typed word: skipped too.
  assert.equal(hits.get(0), clauseScore(1));
  assert.equal(hits.get(1), clauseScore(1));
  assert.equal(hits.get(2), 0.5 * clauseScore(2));
  assert.equal(hits.get(3), 0.25 * clauseScore(4));
});

test('a quoted phrase decides the documents and its words score them', () => {
  const phrase = scorer([1, 4]);
  const first = scorer([1, 2, 4], 2);
  const second = scorer([1, 3]);
  const secondForm = scorer([4], 3);
  const quoted: ScoringClause = {
    weight: 1,
    slot: 0,
    formSlot: -1,
    own: phrase,
    parts: [
      { weight: 1, slot: 1, formSlot: -1, ...first },
      { weight: 1, slot: 2, formSlot: -1, ...second },
      { weight: 0.5, slot: 3, formSlot: 2, ...secondForm },
    ],
  };
  const hits = run(6, { groups: [[phrase.docs]], excluded: [], clauses: [quoted], slotCount: 4 });
  assert.deepEqual([...hits.keys()], [1, 4]);
  assert.equal(hits.get(1), clauseScore(2) + clauseScore(1));
  // 4 lacks the second word: its other form scores in its place.
  assert.equal(hits.get(4), clauseScore(2) + 0.5 * clauseScore(3));
});

test('a rare clause of a large segment is gathered from its list, and a small segment after it starts clean', () => {
  const rare = scorer([70_000, 3, 999_999].sort((x, y) => x - y));
  const hits = run(1_000_000, {
    groups: [[rare.docs]],
    excluded: [],
    clauses: [clause(0, rare)],
    slotCount: 1,
  });
  assert.deepEqual([...hits.keys()], [3, 70_000, 999_999]);
  const small = scorer([0, 1, 2]);
  const none = scorer([]);
  const after = run(3, {
    groups: [[small.docs], [none.docs]],
    excluded: [],
    clauses: [clause(0, small)],
    slotCount: 1,
  });
  assert.equal(after.size, 0);
});

test("the collection's statistics follow the deletions of a segment whose sums were kept", () => {
  // Page n has n + 1 words in its body (field 3).
  const documents = Array.from({ length: 4 }, (_, docId) => ({
    docId,
    fields: [0, 1, 2, 3, 4, 5].map((field) => analyzeText(field === 3 ? 'word '.repeat(docId + 1) : '')),
  }));
  const first = buildSegment(1, documents);
  const second = buildSegment(2, documents.slice(0, 2));
  const before = statisticsOf([first, second]);
  assert.equal(before.documentCount, 6);
  assert.equal(before.averageFieldLengths[3], (1 + 2 + 3 + 4 + 1 + 2) / 6);
  first.markDeleted(3);
  const after = statisticsOf([first, second]);
  assert.equal(after.documentCount, 5);
  assert.equal(after.averageFieldLengths[3], (1 + 2 + 3 + 1 + 2) / 5);
});
