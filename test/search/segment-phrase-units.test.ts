/**
 * A segment's phrase units in typed arrays (docs/design/search-engine.md, Suggest): documents
 * added in ordinal order with gaps where a row was not found, documents of many headings, and a
 * document copied from another segment's arrays as it was.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type PhraseUnitIds,
  type SegmentPhraseUnits,
  SegmentPhraseUnitsBuilder,
} from '../../src/search/site/segment-phrase-units.js';

/** A document's units read back from the arrays. */
function unitsAt(
  units: SegmentPhraseUnits,
  ordinal: number,
): { hash: number; title: boolean; phrases: number[] }[] {
  const read = [];
  for (let unit = units.unitStarts[ordinal]!; unit < units.unitStarts[ordinal + 1]!; unit += 1)
    read.push({
      hash: units.unitHashes[unit]!,
      title: units.unitTitles[unit] === 1,
      phrases: [...units.phraseIds.subarray(units.phraseStarts[unit]!, units.phraseStarts[unit + 1]!)],
    });
  return read;
}

describe('segment phrase units', () => {
  test('documents read back as added, ordinals not added have none', () => {
    const title: PhraseUnitIds = { hash: 0.25, title: true, phrases: [1, 2] };
    // A manual's index page: 300 headings of 3 phrases, past every array's first size.
    const headings = Array.from({ length: 300 }, (_, index) => ({
      hash: index,
      title: false,
      phrases: [index, index + 1, 7],
    }));
    const builder = new SegmentPhraseUnitsBuilder(6);
    builder.addDocument(1, 11.5, 0, [title]);
    builder.addDocument(2, 12.5, 1, [title, ...headings]);
    builder.addDocument(4, 14.5, 0, []);
    assert.throws(() => builder.addDocument(3, 1, 0, []), /out of order/);
    const units = builder.build();
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5].map((ordinal) => units.has(ordinal)),
      [false, true, true, false, true, false],
    );
    assert.deepEqual(unitsAt(units, 0), []);
    assert.deepEqual(unitsAt(units, 1), [{ hash: 0.25, title: true, phrases: [1, 2] }]);
    assert.equal(unitsAt(units, 2).length, 301);
    assert.deepEqual(unitsAt(units, 2)[300], { hash: 299, title: false, phrases: [299, 300, 7] });
    assert.deepEqual(unitsAt(units, 3), []);
    assert.deepEqual(unitsAt(units, 4), []);
    assert.deepEqual(unitsAt(units, 5), []);
    assert.equal(units.textHashes[2], 12.5);
    assert.equal(units.hosts[2], 1);

    // A merge's segment copies its documents from the segments it was merged from.
    const merged = new SegmentPhraseUnitsBuilder(3);
    merged.copyDocument(0, units, 2);
    merged.copyDocument(2, units, 1);
    const copied = merged.build();
    assert.deepEqual(unitsAt(copied, 0), unitsAt(units, 2));
    assert.deepEqual(unitsAt(copied, 2), unitsAt(units, 1));
    assert.equal(copied.has(1), false);
    assert.deepEqual([...copied.textHashes.subarray(0, 1)], [12.5]);
    assert.equal(copied.hosts[2], 0);
  });
});
