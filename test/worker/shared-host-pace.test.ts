/**
 * The per-host pace shared by processes (docs/design/scale-out.md, Shared host pace): two pacers, as
 * two processes would have, each with its own tenures on one PostgreSQL database. Requests to one
 * host keep its gap across both, the host passes from one to the other when it is idle or wanted,
 * and a holder that died keeps it only until its hold lapses.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HostPacer } from '../../src/crawler/index.js';
import {
  connectPostgres,
  type PgSql,
  PgHostTenures,
  migratePostgres,
} from '../../src/store/postgres/index.js';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server.js';

const GAP_MS = 150;
/** Timers on a loaded machine fire a little late, never early; the slack is for rounding. */
const SLACK_MS = 5;

let server: PostgresServer;
let sql: PgSql;
const closers: (() => Promise<unknown>)[] = [];
before(async () => {
  server = await startPostgresServer();
  sql = connectPostgres(await server.createDatabase());
  await migratePostgres(sql);
});
after(async () => {
  for (const close of closers.splice(0)) await close();
  await sql.end();
  await server.stop();
});

/** A process's pacer: its own tenures under `owner`, with short holds so the test runs fast. */
function processPacer(owner: string, options: { holdMs?: number; idleTenureMs?: number } = {}) {
  const tenures = new PgHostTenures(sql, { owner, holdMs: options.holdMs ?? 1000, retryMs: 50 });
  closers.push(() => tenures.close());
  const pacer = new HostPacer(8, undefined, {
    tenures,
    minTenureMs: 500,
    idleTenureMs: options.idleTenureMs ?? 200,
  });
  return { pacer, tenures };
}

/** Starts `count` requests to `host` one after another; the wall-clock time of each start. */
async function crawl(pacer: HostPacer, host: string, count: number, starts: number[]): Promise<void> {
  for (let index = 0; index < count; index++) {
    const permit = await pacer.acquire(host, GAP_MS, new AbortController().signal);
    permit.started();
    starts.push(Date.now());
    permit.release();
  }
}

function assertGaps(starts: number[]): void {
  const sorted = [...starts].sort((a, b) => a - b);
  for (let index = 1; index < sorted.length; index++)
    assert.ok(
      sorted[index]! - sorted[index - 1]! >= GAP_MS - SLACK_MS,
      `starts ${index - 1} and ${index} are ${sorted[index]! - sorted[index - 1]!} ms apart`,
    );
}

test('two processes crawling one host keep its gap between all their requests, and both finish', async () => {
  const first = processPacer('process-a');
  const second = processPacer('process-b');
  const startsA: number[] = [];
  const startsB: number[] = [];
  await Promise.all([
    crawl(first.pacer, 'site.test:80', 8, startsA),
    crawl(second.pacer, 'site.test:80', 8, startsB),
  ]);
  assert.equal(startsA.length + startsB.length, 16);
  assertGaps([...startsA, ...startsB]);
  // The host changed hands while both were busy: the second did not wait for the first to end.
  const [firstDone, secondDone] = [Math.max(...startsA), Math.max(...startsB)];
  const [firstBegan, secondBegan] = [Math.min(...startsA), Math.min(...startsB)];
  assert.ok(
    secondBegan < firstDone && firstBegan < secondDone,
    'the requests of the two processes interleave',
  );
});

test('other hosts are not held up by a host another process holds', async () => {
  const first = processPacer('process-c');
  const second = processPacer('process-d');
  const held: number[] = [];
  await crawl(first.pacer, 'busy.test:80', 1, held);
  const began = Date.now();
  await crawl(second.pacer, 'other.test:80', 1, []);
  assert.ok(Date.now() - began < 1000, `another host started after ${Date.now() - began} ms`);
});

test('a holder that died keeps its host only until the hold lapses', async () => {
  // It would give the host back after a minute idle: it dies well before.
  const dying = processPacer('process-e', { holdMs: 600, idleTenureMs: 60_000 });
  const starts: number[] = [];
  // Taken, then the process stops renewing without giving the host back (a crash).
  await crawl(dying.pacer, 'crashed.test:80', 1, starts);
  await dying.tenures.close();
  const survivor = processPacer('process-f');
  await crawl(survivor.pacer, 'crashed.test:80', 1, starts);
  const waited = starts[1]! - starts[0]!;
  assert.ok(waited >= 400, `the host was taken ${waited} ms after the last start of the dead holder`);
  assert.ok(waited < 5000, `the host was taken only after ${waited} ms`);
});
