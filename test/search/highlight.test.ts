/** Highlights of search hits: matched on normalized text, cut from the text as written. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normalizeText } from '../../src/search/analyzer.js';
import { normalizeWithOffsets, STABLE_CANDIDATES } from '../../src/search/highlight/normalized-text.js';
import { QueryHighlighter, type HighlightPart } from '../../src/search/highlight/query-highlighter.js';
import { queryTreeOf } from '../../src/search/query-tree.js';

const plain = (text: string): HighlightPart => ({ is_highlighted: false, text });
const marked = (text: string): HighlightPart => ({ is_highlighted: true, text });

/** The parts of `text` for `query`, after checking they join back into `text` with none empty. */
function partsFor(query: string, text: string): HighlightPart[] {
  const parts = QueryHighlighter.of(queryTreeOf(query)).parts(text);
  assertWellFormed(parts);
  assert.equal(parts.map((part) => part.text).join(''), text);
  return parts;
}

function assertWellFormed(parts: readonly HighlightPart[]): void {
  for (const [index, part] of parts.entries()) {
    assert.notEqual(part.text, '', 'no empty part');
    const previous = parts[index - 1];
    if (previous !== undefined)
      assert.notEqual(previous.is_highlighted, part.is_highlighted, 'neighbours merged');
  }
}

describe('QueryHighlighter.parts', () => {
  test('English words: any case, whole words only', () => {
    assert.deepEqual(partsFor('Python', 'Python, PYTHON and pythonic python3'), [
      marked('Python'),
      plain(', '),
      marked('PYTHON'),
      plain(' and pythonic python3'),
    ]);
    assert.deepEqual(partsFor('form', 'format form forms Form.'), [
      plain('format '),
      marked('form'),
      plain(' forms '),
      marked('Form'),
      plain('.'),
    ]);
  });

  test('a Japanese word inside a compound', () => {
    assert.deepEqual(partsFor('京都', '東京都庁と京都'), [
      plain('東'),
      marked('京都'),
      plain('庁と'),
      marked('京都'),
    ]);
  });

  test('a lone Japanese character matches inside a run too', () => {
    assert.deepEqual(partsFor('猫', '子猫と猫'), [plain('子'), marked('猫'), plain('と'), marked('猫')]);
  });

  test('half-width katakana is highlighted as written, a sound mark kept with its character', () => {
    assert.deepEqual(partsFor('テスト', 'ﾃｽﾄ結果'), [marked('ﾃｽﾄ'), plain('結果')]);
    assert.deepEqual(partsFor('データ', 'ﾃｽﾄのﾃﾞｰﾀ'), [plain('ﾃｽﾄの'), marked('ﾃﾞｰﾀ')]);
    assert.deepEqual(partsFor('が', 'か\u3099き'), [marked('か\u3099'), plain('き')]);
  });

  test('full-width Latin matches its ASCII query', () => {
    assert.deepEqual(partsFor('Python', 'ｐｙｔｈｏｎ入門'), [marked('ｐｙｔｈｏｎ'), plain('入門')]);
    assert.deepEqual(partsFor('ＰＹＴＨＯＮ', 'learn python'), [plain('learn '), marked('python')]);
  });

  test('a character NFKC expands is highlighted whole', () => {
    assert.deepEqual(partsFor('平成', '㍻元年'), [marked('㍻'), plain('元年')]);
    assert.deepEqual(partsFor('成', '㍻元年'), [marked('㍻'), plain('元年')]);
    assert.deepEqual(partsFor('file', 'a ﬁle'), [plain('a '), marked('ﬁle')]);
  });

  test('a phrase is one part, the space inside it included', () => {
    assert.deepEqual(partsFor('"search engine"', 'A search engine, search-engine; search engines.'), [
      plain('A '),
      marked('search engine'),
      plain(', '),
      marked('search-engine'),
      plain('; search engines.'),
    ]);
  });

  test('Japanese runs of a phrase may be written together or apart', () => {
    assert.deepEqual(partsFor('"検索 エンジン"', '全文検索エンジン、検索 エンジン、検索用エンジン'), [
      plain('全文'),
      marked('検索エンジン'),
      plain('、'),
      marked('検索 エンジン'),
      plain('、検索用エンジン'),
    ]);
  });

  test('a word of several runs needs them adjacent and in order', () => {
    assert.deepEqual(partsFor('node.js', 'Node.js, nodejs, js node'), [
      marked('Node.js'),
      plain(', nodejs, js node'),
    ]);
    assert.deepEqual(partsFor('Python入門', 'Python入門書と超入門'), [
      marked('Python入門'),
      plain('書と超入門'),
    ]);
  });

  test('excluded words are never highlighted', () => {
    assert.deepEqual(partsFor('python -java', 'python and java'), [marked('python'), plain(' and java')]);
    assert.deepEqual(partsFor('python -"java script"', 'java script'), [plain('java script')]);
    const onlyExcluded = QueryHighlighter.of(queryTreeOf('-java'));
    assert.equal(onlyExcluded.empty, true);
    assert.deepEqual(onlyExcluded.parts('java'), [plain('java')]);
    assert.equal(QueryHighlighter.of(queryTreeOf('python')).empty, false);
  });

  test('OR alternatives are both highlighted', () => {
    assert.deepEqual(partsFor('rust OR go', 'go and rust'), [marked('go'), plain(' and '), marked('rust')]);
  });

  test('emoji and other surrogate pairs around matches stay whole', () => {
    assert.deepEqual(partsFor('猫', '😺猫😺'), [plain('😺'), marked('猫'), plain('😺')]);
    assert.deepEqual(partsFor('python', 'I🐍python🐍𠮷'), [plain('I🐍'), marked('python'), plain('🐍𠮷')]);
    assert.deepEqual(partsFor('𠮷野家', '𠮷野家の牛丼'), [marked('𠮷野家'), plain('の牛丼')]);
  });

  test('matches that overlap or touch make one part; apart they stay apart', () => {
    assert.deepEqual(partsFor('東京 京都', '東京都'), [marked('東京都')]);
    assert.deepEqual(partsFor('東京 都庁', '東京都庁'), [marked('東京都庁')]);
    assert.deepEqual(partsFor('a b', 'a b'), [marked('a'), plain(' '), marked('b')]);
  });

  test('no empty parts: an empty text has none, a text without matches is one', () => {
    assert.deepEqual(partsFor('python', ''), []);
    assert.deepEqual(partsFor('python', 'nothing here'), [plain('nothing here')]);
    assert.deepEqual(partsFor('', 'nothing here'), [plain('nothing here')]);
  });

  test('mixed text: every part boundary falls between whole characters', () => {
    const next = sequence(11);
    const alphabet = [
      'a',
      'B',
      'ｶ',
      'ﾞ',
      'か',
      '\u3099',
      '㍻',
      'ﬁ',
      'Ａ',
      '😺',
      '東',
      '京',
      ' ',
      '.',
      'é',
      'e',
      '\u0301',
      '¶',
      '—',
      '“',
      'Ω',
      'Ǆ',
      '→',
      '\u200b',
    ];
    const queries = ['a', 'b', 'カ', 'ガ', 'が', '平成', 'fi', '東京', 'e', 'é', '"a b"', 'ab'];
    for (let round = 0; round < 300; round += 1) {
      const text = Array.from({ length: 12 }, () => alphabet[Math.floor(next() * alphabet.length)]!).join('');
      assert.equal(normalizeWithOffsets(text).text, normalizeText(text), text);
      for (const query of queries) {
        let offset = 0;
        for (const part of partsFor(query, text)) {
          offset += part.text.length;
          const following = text.slice(offset, offset + 2);
          assert.ok(
            !/^[\udc00-\udfff\p{M}\uff9e\uff9f]/u.test(following),
            `${query} cuts ${JSON.stringify(text)}`,
          );
        }
      }
    }
  });
});

describe('normalizeWithOffsets', () => {
  test('symbols, punctuation and Greek, Cyrillic and extended Latin letters normalize as the analyzer does, next to marks and other letters', () => {
    for (const [first, last] of STABLE_CANDIDATES) {
      for (let code = first; code <= last; code += 1) {
        const character = String.fromCharCode(code);
        for (const text of [
          `Ab${character}${character}x`,
          `${character}\u0301x ${character}Ωx ΑΩ${character}x`,
          `ｶ${character}ﾞ${character}x㍻`,
          // Each followed by a letter: a sigma at the end of a word reads ς in context but σ alone.
        ]) {
          const normalized = normalizeWithOffsets(text);
          assert.equal(
            normalized.text,
            normalizeText(text),
            `U+${code.toString(16)} in ${JSON.stringify(text)}`,
          );
          // Offsets go forward and stay within the original.
          let previous = 0;
          for (let index = 0; index <= normalized.text.length; index += 1) {
            const start = normalized.originalStart(index);
            assert.ok(start >= previous && start <= text.length, `U+${code.toString(16)} at ${index}`);
            previous = start;
          }
        }
      }
    }
  });

  test('a page of documentation symbols maps its offsets one for one', () => {
    const text = 'See § 5.4 — “Constraints” → ¶ Ω-free • π';
    const normalized = normalizeWithOffsets(text);
    assert.equal(normalized.text, normalizeText(text));
    for (let index = 0; index <= text.length; index += 1) {
      assert.equal(normalized.originalStart(index), index);
      assert.equal(normalized.originalEnd(index), index);
    }
  });
});

describe('QueryHighlighter.snippet', () => {
  const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. ';

  function snippetFor(query: string, text: string, maxChars?: number) {
    const snippet = QueryHighlighter.of(queryTreeOf(query)).snippet(text, maxChars);
    assertWellFormed(snippet.parts);
    const shown = snippet.parts.map((part) => part.text).join('');
    const start = text.indexOf(shown);
    assert.ok(start >= 0, 'the snippet is a piece of the text');
    assert.ok([...shown].length <= (maxChars ?? 160));
    return { ...snippet, shown };
  }

  test('picks the passage with both words over an earlier one with one, from its sentence start', () => {
    const text = `${filler.repeat(3)}Here python is alone. ${filler.repeat(4)}Now python meets rust. ${filler.repeat(4)}`;
    const snippet = snippetFor('python rust', text, 80);
    assert.deepEqual(snippet.parts, [
      plain('Now '),
      marked('python'),
      plain(' meets '),
      marked('rust'),
      plain('. Lorem ipsum dolor sit amet, consectetur adipiscing elit.'),
    ]);
    assert.equal(snippet.truncatedStart, true);
    assert.equal(snippet.truncatedEnd, true);
  });

  test('about twenty characters of context before the match, no word cut at either end', () => {
    const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike ';
    const snippet = snippetFor('target', `${words.repeat(3)}target ${words.repeat(3)}`, 60);
    assert.deepEqual(snippet.parts, [
      plain('kilo lima mike '),
      marked('target'),
      plain(' alpha bravo charlie delta echo foxtrot'),
    ]);
  });

  test('Japanese text is cut anywhere, at most maxChars code points', () => {
    const text =
      '吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所で' +
      'ニャーニャー泣いていた事だけは記憶している。吾輩はここで始めて人間というものを見た。';
    const snippet = snippetFor('記憶', text, 30);
    assert.deepEqual(snippet.parts, [
      plain('ていた事だけは'),
      marked('記憶'),
      plain('している。吾輩はここで始めて人間というもの'),
    ]);
    assert.equal(snippet.truncatedEnd, true);
  });

  test('without a match, the start of the text', () => {
    const snippet = snippetFor('zebra', `  ${filler.repeat(5)}`, 60);
    assert.deepEqual(snippet.parts, [plain('Lorem ipsum dolor sit amet, consectetur adipiscing elit.')]);
    assert.equal(snippet.truncatedStart, false);
    assert.equal(snippet.truncatedEnd, true);
  });

  test('a short text is whole, not truncated', () => {
    const snippet = snippetFor('python', 'python is here');
    assert.deepEqual(snippet.parts, [marked('python'), plain(' is here')]);
    assert.equal(snippet.truncatedStart, false);
    assert.equal(snippet.truncatedEnd, false);
  });

  test('a match near the end: the window is filled with what comes before', () => {
    const snippet = snippetFor('python', `${filler.repeat(10)}The end with python`, 80);
    assert.deepEqual(snippet.parts, [
      plain('Lorem ipsum dolor sit amet, consectetur adipiscing elit. The end with '),
      marked('python'),
    ]);
    assert.equal(snippet.truncatedEnd, false);
  });

  test('never longer than maxChars code points, emoji and marks kept whole', () => {
    const text = `${'😀ｶﾞ'.repeat(100)}python${'か\u3099😀'.repeat(100)}`;
    for (const maxChars of [1, 2, 5, 10, 33, 160]) {
      const snippet = snippetFor('python', text, maxChars);
      assert.ok(!startsInsideUnit(snippet.shown), snippet.shown);
      assert.ok(
        !startsInsideUnit(text.slice(text.indexOf(snippet.shown) + snippet.shown.length)),
        snippet.shown,
      );
      assert.ok(!/[\ud800-\udbff]$/.test(snippet.shown), snippet.shown);
      if (maxChars >= 10)
        assert.ok(snippet.parts.some((part) => part.is_highlighted && part.text === 'python'));
    }
  });

  test('a match at the end of a long body is found', () => {
    const snippet = snippetFor('needle', `${'hay '.repeat(250_000)}needle`);
    assert.deepEqual(snippet.parts.at(-1), marked('needle'));
    assert.equal(snippet.truncatedStart, true);
  });

  test('maxChars must be a positive integer', () => {
    assert.throws(() => QueryHighlighter.of(queryTreeOf('a')).snippet('a', 0), RangeError);
  });
});

/** Whether `text` starts with the second half of a surrogate pair or a mark joining what precedes. */
function startsInsideUnit(text: string): boolean {
  const code = text.charCodeAt(0);
  return (code >= 0xdc00 && code <= 0xdfff) || /^[\p{M}\uff9e\uff9f]/u.test(text);
}

/** A fixed pseudo-random sequence, so the mixed-text case is the same every run. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}
