/**
 * `kumo index` within its memory budget (docs/design/search-engine.md, Memory of indexing): a
 * page whose analysis needs more than the budget is skipped with the reason, and every other
 * page of the bundle is indexed and found.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../support/cli-runner.js';
import { writeBundle } from '../support/crawl-bundle.js';
import { prepareDataDir } from '../support/prepared-data-dir.js';

const SITE = 'http://127.0.0.1:9';
const SMALLEST_BUDGET_MB = '128';

let folder: string;
const env = (budget: string) => ({ KUMO_DATA_DIR: path.join(folder, 'data'), KUMO_INDEX_MEMORY_MB: budget });

function article(title: string, words: string): string {
  return `<html><head><title>${title}</title></head><body><main><p>${words}</p></main></body></html>`;
}

before(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-index-budget-'));
  await prepareDataDir(path.join(folder, 'data'), { demoTenant: true });
});

after(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('kumo index within KUMO_INDEX_MEMORY_MB', () => {
  test('a page beyond the budget is skipped with the reason; the rest is indexed', async () => {
    // 24 MB of text: its analysis needs several times the smallest budget.
    const huge = Array.from({ length: 3_000_000 }, (_, at) => `w${(at * 7919) % 100_003}x`).join(' ');
    const bundle = path.join(folder, 'bundle.tar.gz');
    writeBundle(bundle, [
      {
        url: `${SITE}/capybara.html`,
        status: 200,
        html: article('Capybara', 'the capybara grazes by the river'),
      },
      { url: `${SITE}/huge.html`, status: 200, html: article('Huge', huge) },
      { url: `${SITE}/tapir.html`, status: 200, html: article('Tapir', 'the tapir wanders in the forest') },
    ]);

    const indexed = await runCli(['index', '--service', '1', bundle], 120_000, env(SMALLEST_BUDGET_MB));
    assert.equal(indexed.code, 0, indexed.stderr);
    assert.match(
      indexed.stderr,
      new RegExp(
        `^skipped ${SITE}/huge\\.html: its analysis needs more than the 40 MB a large page's analysis may use \\(the analysis threads' share of KUMO_INDEX_MEMORY_MB\\)$`,
        'm',
      ),
    );
    assert.match(
      indexed.stdout,
      /^search service 1: 2 pages indexed from .*\(2 new, 0 changed, 0 unchanged, 1 skipped\)$/m,
    );

    for (const [word, page] of [
      ['capybara', 'capybara'],
      ['tapir', 'tapir'],
    ] as const) {
      const found = await runCli(['search', '--service', '1', word], 30_000, env(SMALLEST_BUDGET_MB));
      assert.equal(found.code, 0, found.stderr);
      assert.match(found.stdout, /^1 pages? match/);
      assert.match(found.stdout, new RegExp(`\\t${SITE}/${page}\\.html$`, 'm'));
    }
  });

  test('a budget below the smallest is refused, naming the setting', async () => {
    const refused = await runCli(
      ['index', '--service', '1', path.join(folder, 'bundle.tar.gz')],
      30_000,
      env('100'),
    );
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /KUMO_INDEX_MEMORY_MB/);
  });
});
