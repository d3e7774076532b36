/**
 * Data files are the service user's only (docs/operations.md, Data directory): what `kumo serve`,
 * a crawl run, `kumo index` and `kumo crawl` create is mode 0600 (files) and 0700 (folders), and
 * a data directory an older version left readable to others is tightened at start.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runCli } from '../support/cli-runner.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';
import { startServeProcess } from '../support/serve-process.js';
import { freePort } from '../support/service-harness.js';

let site: LocalServer;
let parent: string;
const cleanups: (() => Promise<unknown>)[] = [];

before(async () => {
  // The usual umask, so that a file made without an explicit mode would be 0644.
  process.umask(0o022);
  parent = await mkdtemp(path.join(os.tmpdir(), 'kumo-modes-'));
  site = await listenLocally(
    createServer((request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      if (request.url === '/') response.end('<title>home</title><a href="/a.html">a</a> installer');
      else response.end('<title>a</title><p>installer guide</p>');
    }),
  );
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await site.close();
  await rm(parent, { recursive: true, force: true });
});

/** Every entry below `root` (itself included) with its permission bits, symbolic links left out. */
function modesBelow(root: string): Map<string, number> {
  const modes = new Map<string, number>();
  const visit = (entry: string): void => {
    const stats = lstatSync(entry);
    if (stats.isSymbolicLink()) return;
    modes.set(path.relative(root, entry) || '.', stats.mode & 0o777);
    if (stats.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return modes;
}

function assertPrivate(root: string, { except = [] }: { except?: string[] } = {}): Map<string, number> {
  const modes = modesBelow(root);
  const wrong: string[] = [];
  for (const [entry, mode] of modes) {
    if (except.includes(entry)) continue;
    const wanted = lstatSync(path.join(root, entry)).isDirectory() ? 0o700 : 0o600;
    if (mode !== wanted) wrong.push(`${entry} ${mode.toString(8)} (wanted ${wanted.toString(8)})`);
  }
  assert.deepEqual(wrong, [], `entries not private in ${root}`);
  return modes;
}

test('kumo serve, a crawl run and kumo index create data files 0600 and folders 0700', async () => {
  const dataDir = path.join(parent, 'fresh', 'data');
  const serve = await startServeProcess({ dataDir, port: await freePort(), cleanups });
  const requestId = await serve.requestCrawl({
    seed_urls: [`${site.baseUrl}/`],
    crawl_result_collection: { crawl_object: 0, url_list: 0, link_url_list: 0 },
    robots_txt: false,
  });
  const run = await serve.waitForFinished(requestId);
  assert.equal(run.crawl_execution_status_dtype_id, 2030);

  const indexed = await runCli(['index', '--service', '1', '--run', String(requestId)], 60_000, {
    KUMO_DATA_DIR: dataDir,
  });
  assert.equal(indexed.code, 0, indexed.stderr);

  // While the service runs: kumo.db with its WAL and shared-memory files.
  const modes = assertPrivate(dataDir, { except: ['serve.pid', 'serve.lock'] });
  for (const file of ['kumo.db', 'kumo.db-wal', 'kumo.db-shm', 'search/service-1.db', 'artifacts', 'work']) {
    assert.ok(modes.has(file), `${file} exists (${[...modes.keys()].join(', ')})`);
  }
  const artifacts = [...modes.keys()].filter((entry) => entry.startsWith(`artifacts${path.sep}`));
  assert.ok(
    artifacts.some((entry) => entry.endsWith('crawl_objects.tar.gz')),
    artifacts.join(', '),
  );
  assert.ok(
    artifacts.some((entry) => entry.endsWith('url_list.csv.gz')),
    artifacts.join(', '),
  );
  assert.ok(
    artifacts.some((entry) => entry.endsWith('link_list.csv.gz')),
    artifacts.join(', '),
  );
  // The folders above the data directory keep the usual mode.
  assert.equal(lstatSync(path.dirname(dataDir)).mode & 0o777, 0o755);

  await serve.stop();
  assertPrivate(dataDir, { except: ['serve.pid', 'serve.lock'] });
});

test('a data directory readable by others is tightened when kumo serve starts', async () => {
  const dataDir = path.join(parent, 'older');
  const first = await startServeProcess({ dataDir, port: await freePort(), cleanups });
  await first.stop();
  // As an older version left it: everything readable by group and others.
  for (const [entry] of modesBelow(dataDir)) {
    const file = path.join(dataDir, entry);
    chmodSync(file, lstatSync(file).isDirectory() ? 0o755 : 0o644);
  }
  writeFileSync(path.join(dataDir, 'artifacts', 'left-over.csv.gz'), 'x', { mode: 0o644 });

  const again = await startServeProcess({ dataDir, port: await freePort(), cleanups });
  try {
    const modes = assertPrivate(dataDir, { except: ['serve.pid', 'serve.lock'] });
    assert.equal(modes.get(path.join('artifacts', 'left-over.csv.gz')), 0o600);
    assert.equal(modes.get('kumo.db'), 0o600);
  } finally {
    await again.stop();
  }
});

test('kumo crawl makes --out and its files private when it creates them', async () => {
  const out = path.join(parent, 'cli', 'out');
  const result = await runCli(['crawl', `${site.baseUrl}/`, '--depth', '1', '--out', out]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(existsSync(path.join(out, '.kumo-work')), false);
  const modes = assertPrivate(out);
  assert.deepEqual([...modes.keys()].sort(), ['.', 'crawl_objects.tar.gz', 'url_list.csv.gz']);
  assert.equal(lstatSync(path.dirname(out)).mode & 0o777, 0o755);
});

test('an interrupted kumo crawl leaves a private work folder', async () => {
  const out = path.join(parent, 'cli-stopped', 'out');
  // A delay of 5 s between pages keeps the crawl running until it is interrupted.
  const crawl = runCli(['crawl', `${site.baseUrl}/`, '--depth', '1', '--delay', '5', '--out', out]);
  const workFolder = path.join(out, '.kumo-work');
  for (let waited = 0; waited < 10_000 && !existsSync(path.join(workFolder, 'crawl.db')); waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  crawl.child.kill('SIGINT');
  await crawl;
  assert.ok(existsSync(workFolder), 'the work folder is kept for a resume');
  assertPrivate(out);
});
