/**
 * The scanner that locates a malformed JSON body (docs/api.md, Common rules, Error messages):
 * it finds an error exactly when JSON.parse refuses the text, at the right line and column, and a
 * deeply nested body does not exhaust the call stack.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { findJsonSyntaxError } from '../../src/api/json-syntax-error.js';

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const PIECES = ['{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '1', '-', '.', 'e', '+', ' ', '\n', '\t'];
const TOKENS = ['true', 'null', 'false', 'tru', '"a"', '1e5', '00', '\u0001', 'é', '😀'];

describe('findJsonSyntaxError', () => {
  test('reports an error exactly when JSON.parse refuses the text', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES, ...TOKENS), { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        assert.equal(findJsonSyntaxError(text) === undefined, parses(text), JSON.stringify(text));
      }),
      { numRuns: 20_000 },
    );
  });

  test('valid JSON with one character inserted or removed is judged like JSON.parse judges it', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom(...PIECES, ...TOKENS), (json, at, piece) => {
        const i = at % (json.length + 1);
        assert.equal(findJsonSyntaxError(json), undefined, json);
        for (const text of [json.slice(0, i) + piece + json.slice(i), json.slice(0, i) + json.slice(i + 1)]) {
          assert.equal(findJsonSyntaxError(text) === undefined, parses(text), JSON.stringify(text));
        }
      }),
      { numRuns: 5_000 },
    );
  });

  test('lines count "\\n" (a CRLF once); columns count characters, not UTF-16 units', () => {
    assert.deepEqual(findJsonSyntaxError('{\r\n  "a": 1\r\n  "b": 2\r\n}'), {
      line: 3,
      column: 3,
      problem:
        "expected ',' or '}' after a property value, found '\"' (the value before it ends at line 2, column 8)",
    });
    assert.deepEqual(findJsonSyntaxError('["😀😀", x]'), {
      line: 1,
      column: 8,
      problem:
        "expected a value (object, array, string in double quotes, number, true, false or null), found 'x'",
    });
  });

  test('a million nested brackets are scanned without recursion', () => {
    assert.deepEqual(findJsonSyntaxError('['.repeat(1_000_000)), {
      line: 1,
      column: 1_000_001,
      problem: 'the JSON ends early: expected a value',
    });
    assert.equal(findJsonSyntaxError(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), undefined);
  });
});
