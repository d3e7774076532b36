/**
 * `kumo crawl` runs its crawl in a thread whose heap KUMO_RUN_HEAP_MB bounds, as the service's runs
 * (docs/design/crawl.md, `kumo crawl` runs in a thread of its own): a page that needs more ends
 * the command with a message naming the limit, and the same command with a larger limit resumes.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { readCsvGz, recordsOf } from '../support/artifact-readers.js';
import { runCli } from '../support/cli-runner.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';

/** Links on the huge page: far more memory than the heap limit below allows. */
const HUGE_LINKS = 600_000;
const SMALL_HEAP_MB = '96';

let site: LocalServer;
let hugePage: string;
const tempDirs: string[] = [];

before(async () => {
  const links: string[] = [];
  for (let i = 0; i < HUGE_LINKS; i++) links.push(`<a href="/p/${i}">page number ${i}</a>`);
  hugePage = `<!doctype html><html><head><title>many links</title></head><body>${links.join('\n')}</body></html>`;
  site = await listenLocally(
    createServer((req, res) => {
      const body = req.url === '/huge' ? hugePage : `<title>leaf</title><p>leaf</p><a href="/leaf2">next</a>`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    }),
  );
});

after(async () => {
  await site?.close();
  for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
});

async function outFolder(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-cli-memory-'));
  tempDirs.push(dir);
  return path.join(dir, 'out');
}

test('a page that needs more than KUMO_RUN_HEAP_MB ends kumo crawl with exit 1; a larger limit resumes it', async () => {
  const out = await outFolder();
  const args = ['crawl', `${site.baseUrl}/huge`, '--depth', '0', '--no-robots', '--out', out];
  const failed = await runCli(args, 120_000, { KUMO_RUN_HEAP_MB: SMALL_HEAP_MB });
  assert.equal(failed.code, 1, failed.stderr);
  assert.match(failed.stderr, /^kumo: the run ran out of memory \(limit 96 MB\)$/m);
  // Nothing was packaged, and the work folder stays for a run with a larger limit to resume.
  assert.equal(existsSync(path.join(out, 'url_list.csv.gz')), false);
  assert.equal(existsSync(path.join(out, '.kumo-work')), true);

  const resumed = await runCli(args, 120_000);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /^resuming: 0 pages done, 1 queued$/m);
  const rows = recordsOf(readCsvGz(path.join(out, 'url_list.csv.gz')));
  assert.deepEqual(
    rows.map((row) => [row.crawl_url, row.is_crawl_ok]),
    [[`${site.baseUrl}/huge`, 'true']],
  );
});

test('ordinary pages crawl under the same small limit', async () => {
  const out = await outFolder();
  const result = await runCli(['crawl', `${site.baseUrl}/leaf`, '--no-robots', '--out', out], 60_000, {
    KUMO_RUN_HEAP_MB: SMALL_HEAP_MB,
  });
  assert.equal(result.code, 0, result.stderr);
  const rows = recordsOf(readCsvGz(path.join(out, 'url_list.csv.gz')));
  assert.deepEqual(rows.map((row) => row.crawl_url).sort(), [
    `${site.baseUrl}/leaf`,
    `${site.baseUrl}/leaf2`,
  ]);
  assert.ok(rows.every((row) => row.is_crawl_ok === 'true'));
});
