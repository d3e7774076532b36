import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvChunks, csvLine } from '../../src/artifacts/csv.js';

describe('RFC 4180 CSV lines', () => {
  const cases: [string[], string][] = [
    [['a', 'b'], 'a,b\r\n'],
    [['', ''], ',\r\n'],
    [['has,comma'], '"has,comma"\r\n'],
    [['say "hi"'], '"say ""hi"""\r\n'],
    [['two\nlines'], '"two\nlines"\r\n'],
    [['cr\rhere'], '"cr\rhere"\r\n'],
    [['日本語', 'text/html; charset=Shift_JIS'], '日本語,text/html; charset=Shift_JIS\r\n'],
  ];
  for (const [fields, expected] of cases) {
    it(`writes ${JSON.stringify(fields)}`, () => assert.equal(csvLine(fields), expected));
  }

  it('puts the header first and keeps every record across chunk boundaries', () => {
    const records = Array.from({ length: 5000 }, (_, i) => [`http://example.com/${i}`, String(i)]);
    const text = [...csvChunks(['url', 'n'], records)].join('');
    const lines = text.split('\r\n');
    assert.equal(lines[0], 'url,n');
    assert.equal(lines.length, 5002);
    assert.equal(lines[5000], 'http://example.com/4999,4999');
    assert.equal(lines[5001], '');
  });
});
