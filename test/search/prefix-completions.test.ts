/**
 * Completions of a word being typed (docs/reference/site-search.md, Words being typed) looked up
 * in the term dictionaries of a real index file: the commonest words with the prefix, at most 8,
 * their frequencies summed over segments, none for a whole word the index knows well, and a
 * lookup in a dictionary of 100,000 words that costs a range scan, not a pass over it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { indexWordForms } from '../../src/search/word-forms/index-word-forms.js';

let folder: string;
let index: SearchIndex;

const page = (n: number, body: string): IndexedDocument => ({
  url: `https://manual.example/docs/page-${n}.html`,
  title: `Page ${n}`,
  description: '',
  body,
});

/** `vacuum` on 40 pages, `vacuumdb` on 6, `vacuuming` on 3, nine rarer `vacu…` words once each. */
function vacuumPages(): IndexedDocument[] {
  const pages: IndexedDocument[] = [];
  for (let n = 0; n < 40; n += 1) {
    const words = ['vacuum'];
    if (n < 6) words.push('vacuumdb');
    if (n < 3) words.push('vacuuming');
    if (n < 9) words.push(`vacu${'abcdefghi'[n]}rare`);
    pages.push(page(n, `${words.join(' ')} table`));
  }
  return pages;
}

/** 100,000 distinct words over 1,000 pages: a large term dictionary. */
function largeVocabularyPages(): IndexedDocument[] {
  return Array.from({ length: 1_000 }, (_, n) =>
    page(1_000 + n, Array.from({ length: 100 }, (_, w) => `w${(n * 100 + w).toString(36)}x`).join(' ')),
  );
}

before(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-prefix-'));
  index = new SearchIndex(path.join(folder, 'index.db'));
  // Two batches: two segments, whose frequencies add up.
  const pages = vacuumPages();
  index.writer.upsert(pages.slice(0, 20), 'bundle:a');
  index.writer.upsert([...pages.slice(20), ...largeVocabularyPages()], 'bundle:b');
});

after(() => {
  index.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('completions of a word being typed', () => {
  test('the 8 commonest words with the prefix, most pages first, each weighing a quarter at most', () => {
    const completions = indexWordForms(index.searcher().snapshot).completionsOf('vacu');
    assert.equal(completions.length, 8);
    assert.deepEqual(
      completions.slice(0, 4).map((completion) => completion.text),
      ['vacuum', 'vacuumdb', 'vacuuming', 'vacuarare'],
    );
    for (const { text, weight } of completions)
      assert.ok(weight > 0 && weight <= 0.25, `${text} weighs ${weight}`);
    assert.ok(completions[0]!.weight >= completions[1]!.weight, 'the commonest weighs most');
  });

  test('a whole word the index knows well, and a word no other starts, have none', () => {
    const forms = indexWordForms(index.searcher().snapshot);
    assert.deepEqual(forms.completionsOf('vacuum'), [], '`vacuum` (40 pages) next to `vacuumdb` (6)');
    assert.deepEqual(forms.completionsOf('zzz'), []);
  });

  test('a lookup in a dictionary of 100,000 words is a range scan', () => {
    const forms = indexWordForms(index.searcher().snapshot);
    forms.completionsOf('w1');
    const started = performance.now();
    const prefixes = Array.from({ length: 1_000 }, (_, n) => `w${(n * 97).toString(36)}`);
    for (const prefix of prefixes) forms.completionsOf(prefix);
    const perLookup = (performance.now() - started) / prefixes.length;
    assert.ok(perLookup < 1, `${perLookup.toFixed(3)} ms per lookup`);
  });
});
