/**
 * The phrases of titles and headings a suggester offers (docs/design/search-engine.md, Suggest):
 * those in enough pages or in a title, and past MAX_OFFERED_PHRASES only the best, so what a
 * suggester holds stays bounded on a site of a million titles.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PhraseFrequency } from '../../src/search/site/phrase-counts.js';
import { LargestValues } from '../../src/search/site/largest-values.js';
import { MAX_OFFERED_PHRASES, offeredPhrases } from '../../src/search/site/suggester.js';
import { runNow } from '../../src/search/site/work-slices.js';

describe('offered phrases', () => {
  test('a phrase in one heading is not offered on a large site, one in a title is', () => {
    const phrases = new Map<string, PhraseFrequency>([
      ['replication', { documents: 40, titles: 10 }],
      ['replication slots', { documents: 12, titles: 0, head: 'replication' }],
      ['error 0x1f', { documents: 1, titles: 0 }],
      ['logical decoding', { documents: 1, titles: 1 }],
      // Only a label after its head, on the same pages as the head: its head is offered instead.
      ['vacuum', { documents: 5, titles: 5 }],
      ['vacuum command', { documents: 5, titles: 5, head: 'vacuum' }],
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
    const phrases = new Map<string, PhraseFrequency>();
    const extra = 25;
    for (let n = 0; n < MAX_OFFERED_PHRASES + extra; n += 1)
      phrases.set(`title ${n.toString(36)}`, { documents: 1 + (n % 1000), titles: 1 });
    const offered = runNow(offeredPhrases(phrases, 1_000_000));
    assert.equal(offered.size, MAX_OFFERED_PHRASES);
    // The 25 left out are in a single page each, and the first such pages counted stay.
    const left = [...phrases.keys()].filter((phrase) => !offered.has(phrase));
    assert.equal(left.length, extra);
    assert.ok(left.every((phrase) => phrases.get(phrase)!.documents === 1));
    assert.ok(offered.has('title 0'));
  });

  test('the largest values are kept, of equal ones the first offered', () => {
    const largest = new LargestValues(3);
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
