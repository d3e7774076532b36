/**
 * The start of a hit's main text read from the start of its body (src/search/main-text-head.ts)
 * is what the whole body gives (mainTextOf, lines joined by spaces, cut by code points), or
 * undefined when that start is too short to tell: a result page never depends on how much of a
 * body was read.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mainTextHead } from '../../src/search/main-text-head.js';
import { templateLineLengths } from '../../src/domain/index.js';
import {
  blockHashOf,
  type HitTemplates,
  mainTextOf,
  type TemplateBlocks,
} from '../../src/search/template-blocks.js';
import { firstCodePoints } from '../../src/util/index.js';
import { seededRandom } from '../support/seeded-random.js';

const URL_OF_PAGE = 'https://docs.example/guide/page.html';
const TEMPLATE_LINES = ['Home', 'Guide › Install', 'Copyright 2026 Example', ''];
const CONTENT_LINES = [
  'Install the package.',
  '検索エンジンの設定',
  'An emoji 🍣 and 𠮷野家 take two code units each.',
  'x'.repeat(350),
  'Home page of the guide',
  '',
];
const BLOCKS: TemplateBlocks = new Map([['docs.example', new Set(TEMPLATE_LINES.map(blockHashOf))]]);
/** The template without the lengths of its lines: every short line is hashed. */
const HASHED: HitTemplates = { blocks: BLOCKS, lineLengths: new Map() };
/** Template lines as an index counts them: never the empty line. */
const COUNTED_LINES = new Set(TEMPLATE_LINES.filter((line) => line !== '').map(blockHashOf));
/** The template with the lengths of its lines, as a search finds them in the host's pages. */
const MEASURED: HitTemplates = {
  blocks: new Map([['docs.example', COUNTED_LINES]]),
  lineLengths: new Map([
    [
      'docs.example',
      templateLineLengths(COUNTED_LINES, [
        { title: '', body: `Intro\n${TEMPLATE_LINES.join('\n')}`, template: '' },
      ])!,
    ],
  ]),
};
const NO_TEMPLATE: HitTemplates = { blocks: new Map(), lineLengths: new Map() };

function bodyOf(random: () => number, lines: number): string {
  const pool = random() < 0.2 ? TEMPLATE_LINES : [...TEMPLATE_LINES, ...CONTENT_LINES];
  return Array.from({ length: lines }, () => pool[Math.floor(random() * pool.length)]!).join('\n');
}

function expected(body: string, blocks: TemplateBlocks, max: number): { text: string; more: boolean } {
  const main = mainTextOf(body, URL_OF_PAGE, blocks).replaceAll('\n', ' ');
  const text = firstCodePoints(main, max);
  return { text, more: text.length < main.length };
}

describe('the start of the main text', () => {
  test('from any start of the body: the whole body’s answer, or undefined', () => {
    const random = seededRandom(7);
    let told = 0;
    let untold = 0;
    for (let round = 0; round < 400; round += 1) {
      const body = bodyOf(random, 1 + Math.floor(random() * 40));
      const max = 1 + Math.floor(random() * 300);
      const draw = random();
      const templates = draw < 0.4 ? HASHED : draw < 0.8 ? MEASURED : NO_TEMPLATE;
      const want = expected(body, templates.blocks, max);
      assert.deepEqual(
        mainTextHead(body, true, URL_OF_PAGE, templates, max),
        want,
        `whole body, round ${round}`,
      );
      const points = [...body];
      const cut = Math.floor(random() * points.length);
      const head = points.slice(0, cut).join('');
      const fromHead = mainTextHead(head, false, URL_OF_PAGE, templates, max);
      if (fromHead === undefined) untold += 1;
      else {
        told += 1;
        assert.deepEqual(fromHead, want, `start of ${cut} code points, round ${round}`);
      }
    }
    // Both paths ran: the generator is not degenerate.
    assert.ok(told > 50 && untold > 50, `told ${told}, untold ${untold}`);
  });

  test('a page that is all template shows its whole body', () => {
    const body = 'Home\nGuide › Install';
    assert.deepEqual(mainTextHead(body, true, URL_OF_PAGE, MEASURED, 100), {
      text: 'Home Guide › Install',
      more: false,
    });
  });

  test('a body cut inside a short last line is not judged; inside a long one it is main text', () => {
    assert.equal(mainTextHead('Install it.\nHom', false, URL_OF_PAGE, HASHED, 100), undefined);
    const long = `Home\n${'y'.repeat(400)}`;
    assert.deepEqual(mainTextHead(long, false, URL_OF_PAGE, MEASURED, 20), {
      text: 'y'.repeat(20),
      more: true,
    });
  });

  test('the lengths of a host’s template lines are known only when every line was found', () => {
    assert.deepEqual(
      [...MEASURED.lineLengths.get('docs.example')!].sort((a, b) => a - b),
      ['Home'.length, 'Guide › Install'.length, 'Copyright 2026 Example'.length].sort((a, b) => a - b),
    );
    const template = COUNTED_LINES;
    // The copyright line is on none of these pages: an incomplete set would keep it as main text.
    const pages = [
      { title: '', body: 'Home\nGuide › Install\nIntro', template: '' },
      { title: 'Install - Guide', body: 'Home\nSteps', template: '' },
    ];
    assert.equal(templateLineLengths(template, pages), undefined);
    // Found in the template text of a page, as the counts find it there too.
    const withFooter = [...pages, { title: '', body: 'Body', template: 'Copyright 2026 Example' }];
    assert.equal(templateLineLengths(template, withFooter)?.size, 3);
  });
});
