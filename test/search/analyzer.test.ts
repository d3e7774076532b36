/** The search analyzer: normalization, bigrams over Japanese runs, segmenter words. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  analyzeText,
  bigramsOf,
  IDENTIFIER_MARK,
  normalizeText,
  runsOf,
  WORD_MARK,
} from '../../src/search/analyzer.js';

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

describe('analyzeText', () => {
  const stream = (text: string) => analyzeText(text).stream;
  const words = (text: string) => analyzeText(text).words.map((word) => word.slice(WORD_MARK.length));

  test('a word inside a compound is found as its bigrams, in order', () => {
    const text = stream('キャプチャツールの使い方');
    const word = stream('キャプチャ');
    const at = text.indexOf(word[0]!);
    assert.ok(at >= 0);
    assert.deepEqual(text.slice(at, at + word.length), word);
  });

  test('Latin words stay whole in the stream only; full-width and half-width forms analyze alike', () => {
    assert.deepEqual(stream('Ｗｉｎｄｏｗｓ１０ ﾃｽﾄ'), ['windows10', 'テス', 'スト']);
    assert.deepEqual(analyzeText('windows10 テスト'), analyzeText('Ｗｉｎｄｏｗｓ１０ ﾃｽﾄ'));
    assert.deepEqual(words('Hello, ＷＯＲＬＤ!'), []);
  });

  test('the word view keeps 京都 apart from 東京都, under a mark that sets it apart from bigrams', () => {
    assert.ok(words('京都の観光').includes('京都'));
    assert.ok(!words('東京都の天気').includes('京都'));
    assert.ok(analyzeText('京都').words.every((word) => word.startsWith(WORD_MARK)));
  });

  test('a code identifier is its words in the stream and whole in the word view, under its own mark', () => {
    const analyzed = analyzeText('FORMAT_VALUE(flags) and object.__bool__(self), not format(value)');
    assert.deepEqual(analyzed.stream.slice(0, 3), ['format', 'value', 'flags']);
    assert.deepEqual(analyzed.words, [`${IDENTIFIER_MARK}format_value`, `${IDENTIFIER_MARK}__bool__`]);
    assert.deepEqual(analyzeText('pg_stat_activity 京都').words, [
      `${IDENTIFIER_MARK}pg_stat_activity`,
      `${WORD_MARK}京都`,
    ]);
  });
});
