/**
 * `kumo search` answers as the site search API does: the did-you-mean correction of a misspelt
 * query and the related keywords of a query, on an index written in the test (the corpus of the
 * API's own site search tests).
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { dataPaths } from '../../src/config/index.js';
import { prepareDataDir } from '../support/prepared-data-dir.js';
import { runCli } from '../support/cli-runner.js';
import { COMMON_WORD, PYTHON_DOCS, seedSearchIndex, urlOf } from '../support/search-fixtures.js';

let folder: string;
const env = () => ({ KUMO_DATA_DIR: path.join(folder, 'data') });

before(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-search-cli-'));
  await prepareDataDir(path.join(folder, 'data'), { demoTenant: true });
  await mkdir(dataPaths(path.join(folder, 'data')).search, { recursive: true });
  seedSearchIndex(path.join(folder, 'data'), 1);
});
after(async () => rm(folder, { recursive: true, force: true }));

describe('kumo search: did-you-mean and related keywords', () => {
  test('a misspelt query: no page, and the correction the API would give', async () => {
    const result = await runCli(['search', '--service', '1', 'pyhton'], 30_000, env());
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.stdout.trim().split('\n'), ['0 pages match', 'did you mean: python']);
    const twoWords = await runCli(['search', '--service', '1', 'pyhton', 'tutorial'], 30_000, env());
    assert.match(twoWords.stdout, /^did you mean: python tutorial$/m);
  });

  test('a query with matches: the pages, then the related keywords; no correction', async () => {
    const result = await runCli(['search', '--service', '1', 'python'], 30_000, env());
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines[0], `${PYTHON_DOCS.length} pages match`);
    assert.doesNotMatch(result.stdout, /did you mean/);
    const pages = lines.filter((line) => /^\d+\t/.test(line));
    assert.deepEqual(
      pages.map((line) => line.split('\t')[0]),
      PYTHON_DOCS.map((_, rank) => String(rank + 1)),
    );
    assert.deepEqual(
      pages.map((line) => line.split('\t')[2]).sort(),
      PYTHON_DOCS.map((name) => urlOf(name)).sort(),
    );
    const related = /^related keywords: (.+)$/m.exec(result.stdout);
    assert.ok(related, result.stdout);
    assert.equal(lines.at(-1), related[0], 'the related keywords come last');
    const words = related[1]!.split(', ');
    assert.ok(words.includes('typing'), related[1]);
    assert.ok(!words.includes(COMMON_WORD) && !words.includes('python'), related[1]);
  });

  test('--limit prints fewer pages but counts them all', async () => {
    const result = await runCli(['search', '--service', '1', '--limit', '2', 'python'], 30_000, env());
    assert.equal(result.code, 0, result.stderr);
    const pages = result.stdout.split('\n').filter((line) => /^\d+\t/.test(line));
    assert.equal(pages.length, 2);
    assert.match(result.stdout, new RegExp(`^${PYTHON_DOCS.length} pages match$`, 'm'));
  });
});
