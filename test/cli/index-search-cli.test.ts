/**
 * `kumo index` and `kumo search` as a user runs them: a bundle crawled by `kumo crawl` from the
 * trap server (Shift_JIS and EUC-JP pages among others) loaded into a search service, then
 * searched in Japanese and English.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { runCli } from '../support/cli-runner.js';
import { prepareDataDir } from '../support/prepared-data-dir.js';
import { startTrapServer, type TrapServer } from '../support/trap-server.js';

let trap: TrapServer;
let folder: string;
let bundle: string;
const env = () => ({ KUMO_DATA_DIR: path.join(folder, 'data') });

before(async () => {
  trap = await startTrapServer();
  folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-index-cli-'));
  // The data directory of a kumo serve that has started once: the demo tenant's search service 1.
  await prepareDataDir(path.join(folder, 'data'), { demoTenant: true });
  const out = path.join(folder, 'crawl');
  const crawl = await runCli(['crawl', `${trap.baseUrl}/`, '--depth', '1', '--out', out]);
  assert.equal(crawl.code, 0, crawl.stderr);
  bundle = path.join(out, 'crawl_objects.tar.gz');
});

after(async () => {
  await trap.close();
  await rm(folder, { recursive: true, force: true });
});

describe('kumo index and kumo search', () => {
  test('indexes a crawl bundle with progress, then finds Japanese pages whatever their charset', async () => {
    const indexed = await runCli(['index', '--service', '1', bundle], 30_000, env());
    assert.equal(indexed.code, 0, indexed.stderr);
    assert.match(indexed.stdout, /^search service 1: \d+ pages indexed from /m);
    assert.match(indexed.stderr, /indexed \d+ pages/);
    // Every segment's facets are kept for the service's first search (docs/design/search-engine.md).
    assert.match(indexed.stderr, /computing categories and drill-down/);
    // The pages the pass freed went back to the file system (docs/design/search-engine.md, Free pages).
    assert.match(indexed.stderr, /index file \d+\.\d MB smaller/);
    const file = new Database(path.join(folder, 'data', 'search', 'service-1.db'), { readonly: true });
    try {
      assert.equal(file.pragma('auto_vacuum', { simple: true }), 2);
      assert.equal(file.pragma('freelist_count', { simple: true }), 0);
      const segments = file.prepare('SELECT id FROM segments ORDER BY id').pluck().all();
      assert.ok(segments.length > 0);
      assert.deepEqual(
        file.prepare('SELECT segment_id FROM segment_facets ORDER BY segment_id').pluck().all(),
        segments,
      );
    } finally {
      file.close();
    }
    // On a shared database the result is published for the search nodes (docs/operations.md, Roles).
    if (process.env.KUMO_TEST_POSTGRES_URL) assert.match(indexed.stdout, /, published as generation 1$/m);
    else assert.doesNotMatch(indexed.stdout, /published/);

    // 検索 is in the body of both the Shift_JIS and the EUC-JP page, and nowhere else.
    const found = await runCli(['search', '--service', '1', '検索'], 30_000, env());
    assert.equal(found.code, 0, found.stderr);
    const lines = found.stdout.trim().split('\n');
    assert.equal(lines[0], '2 pages match');
    // The ranked pages: rank, title and URL separated by tabs.
    const pages = lines.filter((line) => /^\d+\t/.test(line));
    const urls = pages.map((line) => line.split('\t')[2]).sort();
    assert.deepEqual(urls, [`${trap.baseUrl}/eucjp.html`, `${trap.baseUrl}/sjis.html`]);
    assert.ok(pages.every((line) => line.split('\t')[1] === '日本語のページ'));
  });

  test('indexing the same bundle again replaces pages instead of adding them', async () => {
    const before = await runCli(['search', '--service', '1', '検索'], 30_000, env());
    // The folder kumo crawl wrote is taken for the bundle inside it.
    const again = await runCli(['index', '--service', '1', path.dirname(bundle)], 30_000, env());
    assert.equal(again.code, 0, again.stderr);
    if (process.env.KUMO_TEST_POSTGRES_URL) assert.match(again.stdout, /, published as generation 2$/m);
    const after = await runCli(['search', '--service', '1', '検索'], 30_000, env());
    assert.equal(after.stdout, before.stdout);
  });

  test('usage mistakes: exit 2 naming the problem', async () => {
    const noService = await runCli(['index', bundle], 30_000, env());
    assert.equal(noService.code, 2);
    assert.match(noService.stderr, /--service N is required/);
    const badService = await runCli(['search', '--service', 'x', 'q'], 30_000, env());
    assert.equal(badService.code, 2);
    assert.match(badService.stderr, /--service: expected a positive whole number/);
    const missing = await runCli(
      ['index', '--service', '1', path.join(folder, 'nope.tar.gz')],
      30_000,
      env(),
    );
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no such file/);
    const notBundle = path.join(folder, 'not-a-bundle.tar.gz');
    await writeFile(notBundle, 'plain text, not gzip');
    const unreadable = await runCli(['index', '--service', '1', notBundle], 30_000, env());
    assert.equal(unreadable.code, 2);
    assert.match(
      unreadable.stderr,
      /not-a-bundle\.tar\.gz is not a readable crawl bundle \(tar\.gz\): incorrect header check/,
    );
    const emptyFolder = await runCli(['index', '--service', '1', folder], 30_000, env());
    assert.equal(emptyFolder.code, 2);
    assert.match(emptyFolder.stderr, /holds no crawl_objects\.tar\.gz/);
    const created = await runCli(
      ['admin', 'searchservice', 'create', '--contract', '1', '--servicegroup', '1', '--name', 'empty'],
      30_000,
      env(),
    );
    assert.equal(created.code, 0, created.stderr);
    const noIndex = await runCli(['search', '--service', '2', 'q'], 30_000, env());
    assert.equal(noIndex.code, 2);
    assert.match(noIndex.stderr, /search service 2 has no index yet/);
  });

  test('an unknown search service is refused with the list of existing ones, and no index is made', async () => {
    const orphan = path.join(folder, 'data', 'search', 'service-9.db');
    for (const args of [
      ['index', '--service', '9', bundle],
      ['search', '--service', '9', '検索'],
    ]) {
      const refused = await runCli(args, 30_000, env());
      assert.equal(refused.code, 2, `kumo ${args[0]}: ${refused.stderr}`);
      assert.match(refused.stderr, /--service: no search service 9; the search services in .* are:/);
      assert.match(refused.stderr, /^ {2}1 {2}demo \(contract 1, service group 1\)$/m);
      assert.equal(existsSync(orphan), false, `kumo ${args[0]} made no index for service 9`);
    }
  });
});
