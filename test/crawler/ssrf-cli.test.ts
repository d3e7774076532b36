/**
 * `kumo crawl` runs on the user's own machine, where intranet and localhost sites are the point:
 * unlike the service, it allows private networks by default (the compiled CLI in a child process).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { readCsvGz, recordsOf } from '../support/artifact-readers.js';
import { runCli } from '../support/cli-runner.js';
import { startRecordingServer } from '../net/support/recording-server.js';

const cleanups: (() => Promise<unknown>)[] = [];

after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

test('kumo crawl fetches a loopback site by default', async () => {
  const site = await startRecordingServer('127.0.0.1', (requestPath) =>
    requestPath === '/' ? { status: 200, body: '<a href="/next">next</a>' } : { status: 200, body: 'next' },
  );
  cleanups.push(() => site.close());
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-ssrf-cli-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const out = path.join(dir, 'out');
  // Nothing in the environment allows private networks: the CLI's own default does.
  const env = { KUMO_ALLOW_PRIVATE_NETWORKS: undefined, KUMO_CONFIG_FILE: undefined };
  const result = await runCli(['crawl', `${site.origin}/`, '--out', out], 30_000, env);
  assert.equal(result.code, 0, result.stderr);
  const rows = recordsOf(readCsvGz(path.join(out, 'url_list.csv.gz')));
  assert.deepEqual(rows.map((row) => [row.crawl_url, row.is_crawl_ok, row.http_status]).sort(), [
    [`${site.origin}/`, 'true', '200'],
    [`${site.origin}/next`, 'true', '200'],
  ]);
  assert.deepEqual([...site.requests].sort(), ['/', '/next', '/robots.txt']);
});
