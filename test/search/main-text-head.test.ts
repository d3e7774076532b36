/**
 * The start of a hit's main text read from the start of its body (src/search/main-text-head.ts)
 * is what the whole body gives (mainTextOf, lines joined by spaces, cut by code points), or
 * undefined when that start is too short to tell: a result page never depends on how much of a
 * body was read.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mainTextHead } from '../../src/search/main-text-head.js';
import { blockHashOf, mainTextOf, type TemplateBlocks } from '../../src/search/template-blocks.js';
import { firstCodePoints } from '../../src/util/code-points.js';

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

/** A small deterministic generator: the same bodies on every run. */
function randomOf(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
}

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
    const random = randomOf(7);
    let told = 0;
    let untold = 0;
    for (let round = 0; round < 400; round += 1) {
      const body = bodyOf(random, 1 + Math.floor(random() * 40));
      const max = 1 + Math.floor(random() * 300);
      const blocks = random() < 0.8 ? BLOCKS : new Map();
      const want = expected(body, blocks, max);
      assert.deepEqual(
        mainTextHead(body, true, URL_OF_PAGE, blocks, max),
        want,
        `whole body, round ${round}`,
      );
      const points = [...body];
      const cut = Math.floor(random() * points.length);
      const head = points.slice(0, cut).join('');
      const fromHead = mainTextHead(head, false, URL_OF_PAGE, blocks, max);
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
    assert.deepEqual(mainTextHead(body, true, URL_OF_PAGE, BLOCKS, 100), {
      text: 'Home Guide › Install',
      more: false,
    });
  });

  test('a body cut inside a short last line is not judged; inside a long one it is main text', () => {
    assert.equal(mainTextHead('Install it.\nHom', false, URL_OF_PAGE, BLOCKS, 100), undefined);
    const long = `Home\n${'y'.repeat(400)}`;
    assert.deepEqual(mainTextHead(long, false, URL_OF_PAGE, BLOCKS, 20), {
      text: 'y'.repeat(20),
      more: true,
    });
  });
});
