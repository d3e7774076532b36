/**
 * The vocabulary's bound (docs/design/search-engine.md, Did you mean): the commonest words over
 * all segments, counted whole across them, at most a fixed number whatever the index's size.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareTerms, type SegmentTerm } from '../../src/search/engine/segment.js';
import { commonestWords } from '../../src/search/site/commonest-words.js';
import { didYouMean } from '../../src/search/site/spellcheck.js';
import { isLatinWord } from '../../src/search/site/vocabulary.js';
import { runNow } from '../../src/search/site/work-slices.js';
import { queryTreeOf } from '../../src/search/query-tree.js';

/** A segment's terms in term order, in pages of `pageSize` as a stored segment reads them. */
function segmentOf(counts: Record<string, number>, pageSize = 2): { termPages(): Iterable<SegmentTerm[]> } {
  const terms = Object.entries(counts)
    .map(([term, docCount]) => ({ term, docCount }))
    .sort((a, b) => compareTerms(a.term, b.term));
  return {
    *termPages() {
      for (let start = 0; start < terms.length; start += pageSize) yield terms.slice(start, start + pageSize);
    },
  };
}

const SEGMENTS = [
  segmentOf({ alpha: 3, beta: 1, delta: 5, ab: 9, zeta: 1 }),
  segmentOf({ beta: 4, gamma: 2, zeta: 1 }, 1),
  segmentOf({}),
  segmentOf({ alpha: 1, delta: 1, epsilon: 6, データ: 7 }, 3),
];

describe('commonest words', () => {
  test("a word's documents are summed over the segments before the bound weighs them", () => {
    const words = runNow(commonestWords(SEGMENTS, isLatinWord, 100));
    // Most documents first, then in term order; terms that are not Latin words are passed over.
    assert.deepEqual(
      [...words],
      [
        ['ab', 9],
        ['delta', 6],
        ['epsilon', 6],
        ['beta', 5],
        ['alpha', 4],
        ['gamma', 2],
        ['zeta', 2],
      ],
    );
  });

  test('past the bound the words in fewest documents are left out', () => {
    const words = runNow(commonestWords(SEGMENTS, isLatinWord, 3));
    // beta is in 5 documents over two segments, though in no segment the most: kept before alpha.
    assert.deepEqual(
      [...words],
      [
        ['ab', 9],
        ['delta', 6],
        ['epsilon', 6],
      ],
    );
    const four = runNow(commonestWords(SEGMENTS, isLatinWord, 4));
    assert.deepEqual([...four.keys()], ['ab', 'delta', 'epsilon', 'beta']);
    // Of words with as many documents, the first in term order stays.
    const six = runNow(commonestWords(SEGMENTS, isLatinWord, 6));
    assert.deepEqual([...six.keys()].slice(5), ['gamma']);
    assert.equal(runNow(commonestWords(SEGMENTS, isLatinWord, 0)).size, 0);
  });

  test('the work pauses between pages of terms it passes over, so no slice reads many', () => {
    // A Japanese site: its word-view terms sort first, then a few Latin words, then its pairs.
    const terms: Record<string, number> = {};
    for (let index = 0; index < 5000; index += 1) terms[`\u0001語${index}`] = 1;
    for (let index = 0; index < 3; index += 1) terms[`word${index}`] = 2;
    for (let index = 0; index < 5000; index += 1) terms[`日${String.fromCharCode(0x4e00 + index)}`] = 1;
    const segment = segmentOf(terms, 100);
    let pagesRead = 0;
    const counting = {
      *termPages() {
        for (const page of segment.termPages()) {
          pagesRead += 1;
          yield page;
        }
      },
    };
    const work = commonestWords([counting], isLatinWord, 10);
    let mostPagesInASlice = 0;
    let step = work.next();
    for (let before = 0; step.done !== true; step = work.next()) {
      mostPagesInASlice = Math.max(mostPagesInASlice, pagesRead - before);
      before = pagesRead;
    }
    assert.deepEqual([...step.value.keys()], ['word0', 'word1', 'word2']);
    assert.ok(pagesRead >= 100);
    assert.ok(mostPagesInASlice <= 1, `${mostPagesInASlice} pages read in one slice`);
  });

  test('the work pauses as it merges, so a large index is read in slices', () => {
    const many: Record<string, number> = {};
    for (let index = 0; index < 3000; index += 1) many[`word${index}`] = 1 + (index % 7);
    const work = commonestWords([segmentOf(many, 100), segmentOf(many, 64)], isLatinWord, 10);
    let pauses = 0;
    for (let step = work.next(); step.done !== true; step = work.next()) pauses += 1;
    assert.ok(pauses >= 5, `${pauses} pauses`);
  });

  test("a typed word's own count comes from the index, not from a vocabulary that left it out", () => {
    const latin = new Map([['replication', 500]]);
    const vocabulary = { latin, documentCount: 100_000 };
    const tree = queryTreeOf('replicaton');
    // On 60 pages of the index, the typed word would need a word in 600 to be replaced.
    const inIndex = (term: string) => (term === 'replicaton' ? 60 : (latin.get(term) ?? 0));
    assert.equal(
      didYouMean(tree, 60, { vocabulary, frequencyOf: inIndex }, () => 500),
      undefined,
    );
    // Not in the index at all, it is corrected to the common word.
    const notInIndex = (term: string) => latin.get(term) ?? 0;
    assert.equal(
      didYouMean(tree, 0, { vocabulary, frequencyOf: notInIndex }, () => 500)?.text,
      'replication',
    );
  });
});
