/** Text of PDF and office documents for the search index, read from small real files in every format. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import {
  DocumentTextError,
  extractDocumentText,
  extractableKindOf,
} from '../../src/search/extract/document-text.js';
import type { ExtractableKind } from '../../src/search/extract/document-text.js';
import { sharedStrings } from '../../src/search/extract/biff-strings.js';
import { TextSink } from '../../src/search/extract/text-sink.js';

/** Compiled tests run from dist/test/search; the fixtures stay in the source tree. */
const FIXTURES = new URL('../../../test/fixtures/documents/', import.meta.url);
const fixture = (name: string): Buffer => readFileSync(new URL(name, FIXTURES));

const WRITER_TITLE = 'Kumo sample document 検索テスト';
const WRITER_LINES = [
  'Quarterly crawler report',
  'The quick brown fox jumps over the lazy dog.',
  '日本語の全文検索を確認します。東京都の天気は晴れです。',
  'Footer line with zebra and 漢字かなカナ.',
];
const CALC_TITLE = 'Kumo sample workbook 売上表';
const CALC_LINES = ['Products', 'Name Price', 'Apple 120', 'りんご 98.5', '配送', 'Shipping notes 配送メモ'];
const IMPRESS_TITLE = 'Kumo sample slides スライド';
const IMPRESS_LINES = [
  'Welcome to Kumo',
  'スライドの日本語テキスト',
  'Second slide about penguins',
  '検索エンジン',
];

const EXPECTED: Record<ExtractableKind, { title: string; lines: string[] }> = {
  pdf: { title: WRITER_TITLE, lines: WRITER_LINES },
  doc: { title: WRITER_TITLE, lines: WRITER_LINES },
  docx: { title: WRITER_TITLE, lines: WRITER_LINES },
  xls: { title: CALC_TITLE, lines: CALC_LINES },
  xlsx: { title: CALC_TITLE, lines: CALC_LINES },
  ppt: { title: IMPRESS_TITLE, lines: IMPRESS_LINES },
  pptx: { title: IMPRESS_TITLE, lines: IMPRESS_LINES },
};
const KINDS = Object.keys(EXPECTED) as ExtractableKind[];

describe('extractDocumentText', () => {
  for (const kind of KINDS) {
    test(`${kind}: metadata title and body text, English and Japanese`, async () => {
      const text = await extractDocumentText(fixture(`sample.${kind}`), kind);
      assert.equal(text.title, EXPECTED[kind].title);
      assert.deepEqual(text.body.split('\n'), EXPECTED[kind].lines);
    });
  }

  test('pdf: Japanese in a font that is not embedded is read through the predefined CMaps', async () => {
    const text = await extractDocumentText(fixture('cid-font.pdf'), 'pdf');
    assert.equal(text.title, 'CIDフォントの見本');
    assert.equal(text.body, '日本語のPDF文書\nPredefined CMap sample');
  });

  test('ppt: master slide template text is left out', async () => {
    const text = await extractDocumentText(fixture('sample.ppt'), 'ppt');
    assert.doesNotMatch(text.body, /Click to edit|\*/u);
  });

  test('documents asked for at once are all answered', async () => {
    const texts = await Promise.all(
      KINDS.map((kind) => extractDocumentText(fixture(`sample.${kind}`), kind)),
    );
    assert.deepEqual(
      texts.map((text) => text.title),
      KINDS.map((kind) => EXPECTED[kind].title),
    );
  });

  test('maxChars cuts the body and stops reading', async () => {
    const pdf = await extractDocumentText(fixture('sample.pdf'), 'pdf', { maxChars: 30 });
    assert.equal(pdf.body, 'Quarterly crawler report\nThe q');
    const docx = await extractDocumentText(fixture('sample.docx'), 'docx', { maxChars: 75 });
    assert.equal(docx.body, `${WRITER_LINES[0]}\n${WRITER_LINES[1]}\n日本語の全`);
    const xls = await extractDocumentText(fixture('sample.xls'), 'xls', { maxChars: 5 });
    assert.equal(xls.body, 'Produ');
    const none = await extractDocumentText(fixture('sample.pptx'), 'pptx', { maxChars: 0 });
    assert.equal(none.body, '');
  });

  for (const kind of KINDS) {
    test(`${kind}: a corrupt file rejects with DocumentTextError`, async () => {
      const garbage = new Uint8Array(4096).map((_, index) => (index * 131 + 7) % 251);
      await assert.rejects(extractDocumentText(garbage, kind), (error: unknown) => {
        assert.ok(error instanceof DocumentTextError);
        assert.equal(error.kind, kind);
        assert.match(error.message, new RegExp(`^cannot extract text from ${kind}: .+`, 'u'));
        return true;
      });
    });
  }

  test('a truncated docx rejects', async () => {
    const bytes = fixture('sample.docx');
    await assert.rejects(extractDocumentText(bytes.subarray(0, bytes.length / 2), 'docx'), DocumentTextError);
  });

  test('a package part that declares a huge size is refused before it is inflated', async () => {
    const zip = Buffer.from(
      zipSync({
        '_rels/.rels': strToU8('<Relationships/>'),
        'word/document.xml': strToU8('<w:document/>'),
      }),
    );
    // Central directory headers carry each entry's uncompressed size at offset 24.
    for (let at = zip.indexOf('PK\u0001\u0002'); at >= 0; at = zip.indexOf('PK\u0001\u0002', at + 4)) {
      zip.writeUInt32LE(0xfffffff0, at + 24);
    }
    await assert.rejects(extractDocumentText(zip, 'docx'), /over the limit/u);
  });

  test('a document over its time limit is killed, and the next one still gets an answer', async () => {
    // Megabytes of shared strings take far longer than the limit to inflate and parse.
    const strings = Array.from({ length: 200_000 }, (_, index) => `<si><t>word ${index}</t></si>`).join('');
    const xlsx = zipSync({
      '_rels/.rels': strToU8(
        '<Relationships><Relationship Id="r1" Type="x/officeDocument" Target="xl/workbook.xml"/></Relationships>',
      ),
      'xl/workbook.xml': strToU8('<workbook/>'),
      'xl/_rels/workbook.xml.rels': strToU8(
        '<Relationships><Relationship Id="r1" Type="x/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
      ),
      'xl/sharedStrings.xml': strToU8(`<sst>${strings}</sst>`),
    });
    await assert.rejects(extractDocumentText(xlsx, 'xlsx', { timeoutMs: 5 }), /timed out after 5 ms/u);
    const text = await extractDocumentText(fixture('sample.docx'), 'docx');
    assert.equal(text.title, WRITER_TITLE);
  });
});

describe('extractableKindOf', () => {
  test('bundle source files by extension, any case; other files are not extractable', () => {
    assert.equal(extractableKindOf('source.pdf'), 'pdf');
    assert.equal(extractableKindOf('pages/0001/source.DOCX'), 'docx');
    assert.equal(extractableKindOf('source.ppt'), 'ppt');
    assert.equal(extractableKindOf('source.html'), undefined);
    assert.equal(extractableKindOf('pdf'), undefined);
    assert.equal(extractableKindOf('a.pdf/source'), undefined);
  });
});

describe('TextSink', () => {
  test('collapses whitespace, keeps line breaks between paragraphs, drops control characters', () => {
    const sink = new TextSink(100);
    sink.text('  Hello \t world\u0007');
    sink.lineBreak();
    sink.lineBreak();
    sink.text('\r\n次の 行 ');
    assert.equal(sink.toString(), 'Hello world\n次の 行');
  });

  test('a cut never splits a character made of two UTF-16 units', () => {
    const sink = new TextSink(3);
    sink.text('ab😀c');
    assert.equal(sink.toString(), 'ab');
    assert.equal(sink.exhausted, true);
  });
});

describe('xls shared strings', () => {
  test('a string broken across CONTINUE records may change its character width there', () => {
    const header = [2, 0, 0, 0, 2, 0, 0, 0];
    const hello = [5, 0, 0, ...Buffer.from('Hello', 'latin1')];
    // '日本語abc': 6 characters, two bytes each in the SST record, then one byte each after the break.
    const japanese = [6, 0, 1, ...Buffer.from('日本語', 'utf16le')];
    const continued = [0, ...Buffer.from('abc', 'latin1')];
    const strings = sharedStrings([
      Uint8Array.from([...header, ...hello, ...japanese]),
      Uint8Array.from(continued),
    ]);
    assert.deepEqual(strings, ['Hello', '日本語abc']);
  });
});
