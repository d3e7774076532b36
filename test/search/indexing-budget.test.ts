/**
 * The shares of the indexing budget (docs/design/search-engine.md, Memory of indexing): what
 * `kumo index` holds at the default KUMO_INDEX_MEMORY_MB, at the smallest and on more cores.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { indexingBudgetOf, MIN_INDEX_MEMORY_MB } from '../../src/search/indexing-budget.js';

const MiB = 1024 * 1024;

describe('indexing budget', () => {
  test('the default 256 MB on two cores: a 128 MB writer, two analysis threads of 40 MB, batches of 2 MiB, 4 MB page caches', () => {
    const budget = indexingBudgetOf(256, 2);
    assert.equal(budget.writingHeapMb, 128);
    assert.equal(budget.analysisThreads, 2);
    assert.equal(budget.analysisHeapMb, 40);
    assert.equal(budget.largePageHeapMb, 80);
    assert.equal(budget.batchBytes, 2 * MiB);
    assert.equal(budget.pageCacheMb, 4);
    // The heaps and the batches in hand (one per thread and one being written) fit the budget.
    const heaps = budget.writingHeapMb + budget.analysisThreads * budget.analysisHeapMb;
    assert.ok(heaps + ((budget.analysisThreads + 1) * budget.batchBytes) / MiB <= 256);
  });

  test('the smallest budget has one analysis thread of its smallest share; less is refused', () => {
    assert.equal(MIN_INDEX_MEMORY_MB, 128);
    const budget = indexingBudgetOf(128, 8);
    assert.equal(budget.analysisThreads, 1);
    assert.equal(budget.analysisHeapMb, 40);
    assert.equal(budget.largePageHeapMb, 40);
    assert.equal(budget.writingHeapMb, 64);
    assert.equal(budget.pageCacheMb, 2);
    assert.throws(() => indexingBudgetOf(127, 2), /at least 128, got 127/);
    assert.throws(() => indexingBudgetOf(200.5, 2), /whole number of MB/);
  });

  test('a larger budget gives more cores their threads, at most four, and larger shares', () => {
    const budget = indexingBudgetOf(1024, 8);
    assert.equal(budget.analysisThreads, 4);
    assert.equal(budget.analysisHeapMb, 80);
    assert.equal(budget.batchBytes, 8 * MiB);
    assert.equal(budget.pageCacheMb, 16);
    assert.equal(indexingBudgetOf(256, 1).analysisThreads, 1);
    assert.equal(indexingBudgetOf(256, 1).analysisHeapMb, 80);
  });
});
