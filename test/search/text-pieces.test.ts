/**
 * A page's text gathered in pieces of alike text nodes (text-pieces.ts), and the counts that
 * stand in for arrays of matches: the same text and the same counts as one piece per node.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countOfKept, nonSpaceCount, TextPieces } from '../../src/search/text-pieces.js';

interface Piece {
  text: string;
  kind: string;
  end?: true;
}

const alike = (last: Piece, next: Piece) => last.kind === next.kind && !last.end && !next.end;

describe('text pieces', () => {
  test('alike neighbours become one piece with their text joined, in order', () => {
    const collected = new TextPieces<Piece>(alike);
    for (const piece of [
      { text: 'a', kind: 'main' },
      { text: 'b', kind: 'main' },
      { text: 'c', kind: 'nav' },
      { text: '\n', kind: 'nav', end: true as const },
      { text: 'd', kind: 'nav' },
      { text: 'e', kind: 'nav' },
    ])
      collected.add(piece);
    assert.deepEqual(collected.pieces(), [
      { text: 'ab', kind: 'main' },
      { text: 'c', kind: 'nav' },
      { text: '\n', kind: 'nav', end: true },
      { text: 'de', kind: 'nav' },
    ]);
  });

  test('a run of a hundred thousand nodes is one piece holding all their text', () => {
    const collected = new TextPieces<Piece>(alike);
    const texts = Array.from({ length: 100_000 }, (_, at) => `t${at} `);
    for (const text of texts) collected.add({ text, kind: 'main' });
    collected.add({ text: 'footer', kind: 'nav' });
    const pieces = collected.pieces();
    assert.equal(pieces.length, 2);
    assert.equal(pieces[0]!.text, texts.join(''));
    assert.equal(pieces[1]!.text, 'footer');
  });
});

describe('counts without arrays of matches', () => {
  const samples = [
    '',
    ' \t\n\v\f\r',
    'two words',
    '\u00a0x\u3000y\ufeff\u2028z\u205f',
    '𠀀 𠀀',
    '\ud800 lone \udc00',
    'é́ ﾃｽﾄ',
    '\u180e\u0085',
  ];

  test('non-space code points, as /\\S/gu counts them', () => {
    for (const sample of samples)
      assert.equal(nonSpaceCount(sample), sample.match(/\S/gu)?.length ?? 0, JSON.stringify(sample));
  });

  test('letters kept, as /[\\p{L}\\p{M}]/gu counts them', () => {
    for (const sample of samples)
      assert.equal(
        countOfKept(sample, /[^\p{L}\p{M}]+/gu),
        sample.match(/[\p{L}\p{M}]/gu)?.length ?? 0,
        JSON.stringify(sample),
      );
  });
});
