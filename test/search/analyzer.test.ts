/** The search analyzer: normalization, bigrams over Japanese runs, segmenter words. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bigramsOf, bigramTokens, normalizeText, runsOf, segmentTokens } from '../../src/search/analyzer.js';

describe('normalizeText', () => {
  test('full-width Latin and digits become ASCII, half-width katakana full-width, all lower case', () => {
    assert.equal(normalizeText('ＡＢＣ１２３'), 'abc123');
    assert.equal(normalizeText('ﾃｽﾄ'), 'テスト');
    assert.equal(normalizeText('Kumo CRAWLER'), 'kumo crawler');
  });
});

describe('runsOf', () => {
  test('splits Japanese runs from words of other letters, dropping punctuation and spaces', () => {
    assert.deepEqual(runsOf(normalizeText('Node.jsで東京タワー、ｅ－ｍａｉｌ')), [
      { text: 'node', japanese: false },
      { text: 'js', japanese: false },
      { text: 'で東京タワー', japanese: true },
      { text: 'e', japanese: false },
      { text: 'mail', japanese: false },
    ]);
  });
});

describe('bigramsOf', () => {
  test('overlapping pairs; a lone character stays as it is', () => {
    assert.deepEqual(bigramsOf('東京都'), ['東京', '京都']);
    assert.deepEqual(bigramsOf('京'), ['京']);
    assert.deepEqual(bigramsOf('ラーメン'), ['ラー', 'ーメ', 'メン']);
  });

  test('never splits a character outside the BMP', () => {
    assert.deepEqual(bigramsOf('𠮷野家'), ['𠮷野', '野家']);
  });
});

describe('bigramTokens', () => {
  test('a word inside a compound is found as its bigrams, in order', () => {
    const text = bigramTokens('キャプチャツールの使い方');
    const word = bigramTokens('キャプチャ');
    const at = text.indexOf(word[0]!);
    assert.ok(at >= 0);
    assert.deepEqual(text.slice(at, at + word.length), word);
  });

  test('Latin words stay whole, full-width and half-width forms tokenize alike', () => {
    assert.deepEqual(bigramTokens('Ｗｉｎｄｏｗｓ１０ ﾃｽﾄ'), ['windows10', 'テス', 'スト']);
    assert.deepEqual(bigramTokens('windows10 テスト'), bigramTokens('Ｗｉｎｄｏｗｓ１０ ﾃｽﾄ'));
  });
});

describe('segmentTokens', () => {
  test('keeps 京都 apart from 東京都', () => {
    assert.ok(segmentTokens('京都の観光').includes('京都'));
    assert.ok(!segmentTokens('東京都の天気').includes('京都'));
  });

  test('drops punctuation and spaces, normalizes like the bigrams', () => {
    assert.deepEqual(segmentTokens('Hello, ＷＯＲＬＤ!'), ['hello', 'world']);
  });
});
