/**
 * Site search answers byte for byte (test/support/golden-search.ts): a fixed site indexed as `kumo
 * index` loads a bundle, and searches in every form (words, phrases, OR, exclusion, a typo,
 * Japanese, paging, sorting, category, drill-down, counts only, JSONP), suggest and related
 * keywords, answered by a real service, must equal the answers kept in
 * test/fixtures/search-golden.json. A change that speeds search up must not change a single byte;
 * a change meant to change answers updates the file (`npm run golden:search`) in the same commit,
 * so the difference is reviewed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerGoldenRequests, GOLDEN_REQUESTS, readGoldenAnswers } from '../support/golden-search.js';

test('every golden request answers exactly as recorded', async () => {
  const [answers, golden] = await Promise.all([answerGoldenRequests(), readGoldenAnswers()]);
  assert.deepEqual(Object.keys(golden), [...GOLDEN_REQUESTS], 'the recorded requests are the golden list');
  for (const url of GOLDEN_REQUESTS) {
    // Each answer holds results: an empty index or a failing service would answer alike everywhere.
    assert.match(answers[url]!, /^200 /, url);
    assert.equal(answers[url], golden[url], `the answer of ${url} changed`);
  }
});
