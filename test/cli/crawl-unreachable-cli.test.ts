/**
 * `kumo crawl` of a site it cannot reach (docs/operations.md, Logs and progress): the reason of every seed
 * without answer on stderr, exit status 3 when none answered, 0 when some did; the URL list has
 * the failed rows either way. The compiled CLI in a child process, loopback only.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { readCsvGz, recordsOf } from '../support/artifact-readers.js';
import { runCli } from '../support/cli-runner.js';
import { freePort } from '../support/service-harness.js';
import { startTrapServer, type TrapServer } from '../support/trap-server.js';

let trap: TrapServer;
let closedPort: number;
const dirs: string[] = [];

before(async () => {
  trap = await startTrapServer();
  closedPort = await freePort();
});

after(async () => {
  await trap.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function outFolder(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-cli-unreachable-'));
  dirs.push(dir);
  return path.join(dir, 'out');
}

test('no seed answers: the reasons on stderr and exit status 3', async () => {
  const out = await outFolder();
  const closed = `http://127.0.0.1:${closedPort}/`;
  const unresolvable = 'http://no-such-host.invalid/';
  const result = await runCli(['crawl', closed, unresolvable, '--out', out]);
  assert.equal(result.code, 3, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(
      `^seed not fetched: ${escape(closed)}: robots\\.txt unreachable: connection refused \\(127\\.0\\.0\\.1:${closedPort}\\)$`,
      'm',
    ),
  );
  assert.match(
    result.stderr,
    /^seed not fetched: http:\/\/no-such-host\.invalid\/: robots\.txt unreachable: DNS lookup failed for no-such-host\.invalid$/m,
  );
  assert.match(result.stderr, /^kumo crawl: no seed could be fetched$/m);
  assert.match(result.stderr, /2 errors/, 'the progress line counts the failed seeds');
  const rows = recordsOf(readCsvGz(path.join(out, 'url_list.csv.gz')));
  assert.deepEqual(rows.map((row) => [row.crawl_url, row.is_crawl_ok, row.http_status]).sort(), [
    [closed, 'false', ''],
    [unresolvable, 'false', ''],
  ]);
});

test('one seed answers, one does not: the reason on stderr and exit status 0', async () => {
  const out = await outFolder();
  const closed = `http://127.0.0.1:${closedPort}/`;
  const result = await runCli([
    'crawl',
    `${trap.baseUrl}/a.html`,
    closed,
    '--no-robots',
    '--depth',
    '0',
    '--out',
    out,
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(
      `^seed not fetched: ${escape(closed)}: connection refused \\(127\\.0\\.0\\.1:${closedPort}\\)$`,
      'm',
    ),
  );
  assert.doesNotMatch(result.stderr, /no seed could be fetched/);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
