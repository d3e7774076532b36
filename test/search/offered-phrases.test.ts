/**
 * The phrases of titles and headings a suggester offers (docs/design/search-engine.md, Suggest):
 * those in enough pages or in a title, and past MAX_OFFERED_PHRASES only the best, so what a
 * suggester holds stays bounded on a site of a million titles.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CountedPhrases } from '../../src/search/site/phrase-counts.js';
import { LargestValues } from '../../src/search/site/largest-values.js';
import { PhraseTexts } from '../../src/search/site/phrase-texts.js';
import { MAX_OFFERED_PHRASES, offeredPhrases } from '../../src/search/site/suggester.js';
import { runNow } from '../../src/search/site/work-slices.js';

/** Counted phrases as the counter hands them over: arrays by id, a head named by its id. */
function counted(
  rows: readonly [text: string, documents: number, titles: number, head?: string][],
): CountedPhrases {
  const texts = new PhraseTexts();
  for (const [text] of rows) texts.idOf(text);
  return {
    texts,
    heads: rows.map(([, , , head]) => (head === undefined ? -1 : texts.idOf(head))),
    documents: Int32Array.from(rows, ([, documents]) => documents),
    titles: Int32Array.from(rows, ([, , titles]) => titles),
    template: new Set(),
  };
}

describe('offered phrases', () => {
  test('a phrase in one heading is not offered on a large site, one in a title is', () => {
    const phrases = counted([
      ['replication', 40, 10],
      ['replication slots', 12, 0, 'replication'],
      ['error 0x1f', 1, 0],
      ['logical decoding', 1, 1],
      // Only a label after its head, on the same pages as the head: its head is offered instead.
      ['vacuum', 5, 5],
      ['vacuum command', 5, 5, 'vacuum'],
      // Held only by a page's template.
      ['site menu', 0, 0],
    ]);
    const offered = runNow(offeredPhrases(phrases, 5_000));
    assert.deepEqual([...offered.keys()], ['replication', 'replication slots', 'vacuum', 'logical decoding']);
    const points = [...offered.values()];
    assert.deepEqual(
      points,
      [...points].sort((a, b) => b - a),
    );
    // A small site offers its single headings too.
    assert.ok(runNow(offeredPhrases(phrases, 500)).has('error 0x1f'));
  });

  test('past the bound, the phrases of the fewest pages are left out', () => {
    const extra = 25;
    const phrases = counted(
      Array.from({ length: MAX_OFFERED_PHRASES + extra }, (_, n) => [
        `title ${n.toString(36)}`,
        1 + (n % 1000),
        1,
      ]),
    );
    const offered = runNow(offeredPhrases(phrases, 1_000_000));
    assert.equal(offered.size, MAX_OFFERED_PHRASES);
    // The 25 left out are in a single page each, and the first such pages counted stay.
    const left = [];
    for (let id = 0; id < phrases.texts.size; id += 1)
      if (!offered.has(phrases.texts.textOf(id))) left.push(id);
    assert.equal(left.length, extra);
    assert.ok(left.every((id) => phrases.documents[id] === 1));
    assert.ok(offered.has('title 0'));
  });

  test('the largest values are kept, of equal ones the first offered', () => {
    const largest = new LargestValues<string>(3);
    const offers: [string, number][] = [
      ['a', 1],
      ['b', 5],
      ['c', 3],
      ['d', 5],
      ['e', 3],
      ['f', 0.5],
      ['g', 4],
    ];
    const kept = offers.map(([key, value]) => largest.offer(key, value));
    assert.deepEqual(kept, [true, true, true, false, false, false, false]);
    assert.deepEqual(
      [...runNow(largest.toMap())],
      [
        ['b', 5],
        ['d', 5],
        ['g', 4],
      ],
    );
  });
});
