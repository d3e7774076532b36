/**
 * The query tree every part of a search reads (docs/design/search-engine.md, The query, parsed
 * once): a correction is a new tree whose text is the did-you-mean phrase, and that phrase, sent
 * back as a query, is the query the correction was counted as.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { planQuery } from '../../src/search/engine/query-plan.js';
import { queryTerms } from '../../src/search/highlight/query-terms.js';
import { parseQuery } from '../../src/search/query-syntax.js';
import { queryTextOf, queryTreeOf, withParts } from '../../src/search/query-tree.js';
import { didYouMean, type SpellingWords } from '../../src/search/site/spellcheck.js';
import { SynonymTable } from '../../src/search/synonyms/synonym-table.js';
import type { WordForms } from '../../src/search/word-forms/word-forms.js';

/** An index that holds `tomatoes` as another form of `tomato` and completes `vacu` to `vacuum`. */
const FORMS: WordForms = {
  formsOf: (word) => (word === 'tomato' ? [{ text: 'tomatoes', weight: 0.25 }] : []),
  completionsOf: (prefix) => (prefix === 'vacu' ? [{ text: 'vacuum', weight: 0.5 }] : []),
};
const SYNONYMS = SynonymTable.of({ groups: [['postgres', 'postgresql']] });

describe('the query tree', () => {
  test('parts written back as a query parse to the same parts', () => {
    for (const query of [
      'python lists',
      '"foreign keys" -mysql',
      'vacuum OR analyze -"full scan"',
      '"unclosed phrase',
      'node.js e-mail Python入門',
      '--double -OR ab"cd',
    ]) {
      const parts = parseQuery(query);
      assert.deepEqual(parseQuery(queryTextOf(parts)), parts, query);
    }
  });

  test('it holds the forms, the completion of the word being typed and the synonyms, once', () => {
    const tree = queryTreeOf('tomato postgres vacu', SYNONYMS, FORMS);
    assert.deepEqual(tree.forms, [{ part: 0, forms: [{ text: 'tomatoes', weight: 0.25 }] }]);
    assert.deepEqual(tree.typed, { part: 2, word: 'vacu' });
    assert.deepEqual(tree.completion, { part: 2, completions: [{ text: 'vacuum', weight: 0.5 }] });
    assert.deepEqual(tree.synonyms, [{ first: 1, count: 1, alternatives: ['postgresql'] }]);
    // A space after the last word says it is complete: nothing is being typed.
    assert.equal(queryTreeOf('tomato vacu ', SYNONYMS, FORMS).completion, undefined);
  });

  test('matching and highlighting read the same expansions', () => {
    const tree = queryTreeOf('tomato postgres', SYNONYMS, FORMS);
    const clauses = planQuery(tree).required.map((group) => group.map((clause) => clause.text));
    assert.deepEqual(clauses, [
      ['tomato', 'tomatoes'],
      ['postgres', 'postgresql'],
    ]);
    const terms = queryTerms(tree).map((term) => term.runs.map((run) => run.text).join(' '));
    assert.deepEqual(terms, ['tomato', 'postgres', 'tomatoes', 'postgresql']);
  });

  test('a correction is a new tree, expanded again, whose text is the phrase shown', () => {
    const latin = new Map([
      ['replication', 500],
      ['postgres', 40],
    ]);
    const words: SpellingWords = {
      vocabulary: { latin, documentCount: 600 },
      frequencyOf: (term) => latin.get(term) ?? 0,
    };
    const tree = queryTreeOf('replicaton postgres -"slow disk"', SYNONYMS, FORMS);
    const counted: string[] = [];
    const corrected = didYouMean(tree, 0, words, (correction) => {
      counted.push(correction.text);
      // The correction carries the synonyms of the query it corrects.
      assert.deepEqual(correction.synonyms, tree.synonyms);
      return 12;
    });
    assert.equal(corrected?.text, 'replication postgres -"slow disk"');
    assert.deepEqual(counted, ['replication postgres -"slow disk"']);
    assert.deepEqual(corrected?.parts, queryTreeOf(corrected.text).parts);
    assert.deepEqual(withParts(tree, tree.parts).text, tree.text);
    // A correction that finds no more documents than the query is not offered.
    assert.equal(
      didYouMean(tree, 12, words, () => 12),
      undefined,
    );
  });
});
