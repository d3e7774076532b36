/**
 * Analyzed pages as the analysis threads send them (src/search/analyzed-pages-wire.ts): packed
 * and unpacked, every field of every page holds the same tokens in the same order, and the
 * occurrences of one token share one string.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { packPages, unpackPages } from '../../src/search/analyzed-pages-wire.js';
import { analyzePage } from '../../src/search/document-fields.js';

const PAGES = [
  {
    url: 'https://docs.example/guide/install.html',
    title: 'Install - Guide',
    description: 'How to install the package',
    headings: 'Install\nRequirements',
    body: 'Install the package with npm.\n検索エンジンの設定をします。\nThe package needs Node.js 20.',
  },
  { url: 'https://docs.example/empty', title: '', description: '', headings: '', body: '' },
  {
    url: 'https://docs.example/ja/東京.html?q=天気',
    title: '東京都の天気予報',
    description: '',
    headings: '',
    body: '東京都の天気予報と週間の気温をお知らせします。\n東京都 天気 東京都',
    template: 'Home\nGuide › Install',
  },
];

describe('analyzed pages on the wire', () => {
  test('unpacked pages equal the analyzed pages, tokens shared', () => {
    const analyzed = PAGES.map((page) => analyzePage(page));
    const packed = packPages(analyzed);
    // Each distinct token once.
    assert.equal(new Set(packed.tokens).size, packed.tokens.length);
    const unpacked = unpackPages(structuredClone(packed));
    // Phrases cross threads as plain Uint8Arrays; their bytes are what is stored.
    const bytesOf = (pages: typeof analyzed) =>
      pages.map((page) => ({ ...page, phrases: Buffer.from(page.phrases).toString('hex') }));
    assert.deepEqual(bytesOf(unpacked), bytesOf(analyzed));
    assert.ok(
      'lines' in unpacked[0]!.fields[3]! && 'lines' in unpacked[2]!.fields[3]!,
      'the body keeps its line record',
    );
    const tokyo = unpacked[2]!.fields.flatMap((field) => field.stream).filter((token) => token === '東京');
    assert.ok(tokyo.length >= 3, `東京 occurs ${tokyo.length} times`);
  });

  test('no pages', () => {
    assert.deepEqual(unpackPages(packPages([])), []);
  });
});
