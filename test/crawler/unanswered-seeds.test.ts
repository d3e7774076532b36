/**
 * Seeds that get no HTTP answer (docs/api.md, Artifact contents): each is a failed row without
 * status, its meta.json says why in `fetch_error`, and the run's seed outcomes list it. Real
 * sockets on loopback only: a closed port, a name under `.invalid` (which never resolves), TLS
 * spoken to a plain HTTP server, a server that never answers, and the private-network rule.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createUndiciFetcher, type HttpFetcher } from '../../src/crawler/http-fetcher.js';
import type { FetchLimits } from '../../src/crawler/page-fetch.js';
import type { InstantCrawlerSetting } from '../../src/domain/schemas.js';
import { resolveCrawlSettings } from '../../src/domain/index.js';
import { AddressPolicy } from '../../src/net/index.js';
import { systemClock } from '../../src/util/index.js';
import { type CrawlExecution, executeCrawl } from '../../src/worker/execute-crawl.js';
import { metaOf, readCsvGz, readTarGz, recordsOf } from '../support/artifact-readers.js';
import { type RecordingServer, startRecordingServer } from '../net/support/recording-server.js';
import { freePort } from '../support/service-harness.js';

const LIMITS: FetchLimits = {
  timeoutMs: 400,
  maxRedirects: 10,
  maxBodyBytes: 1024 * 1024,
  retryCount: 0,
  retryBaseDelayMs: 10,
};

let closedPort: number;
let site: RecordingServer;
/** Accepts connections and never answers. */
let silent: Server;
let silentPort: number;
const cleanups: (() => Promise<unknown>)[] = [];

before(async () => {
  // A port that was bound a moment ago and is closed now: connecting to it is refused.
  closedPort = await freePort();
  site = await startRecordingServer('127.0.0.1', (requestPath) =>
    requestPath === '/missing'
      ? { status: 404, body: 'not here' }
      : { status: 200, body: '<title>page</title>' },
  );
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentPort = (silent.address() as { port: number }).port;
});

after(async () => {
  silent.close();
  await site.close();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Crawled {
  execution: CrawlExecution;
  rows: Record<string, string>[];
  bundle: Map<string, Buffer>;
}

async function crawl(setting: InstantCrawlerSetting, fetcher?: HttpFetcher): Promise<Crawled> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-unanswered-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const ownFetcher = fetcher ?? createUndiciFetcher();
  try {
    const out = path.join(dir, 'out');
    const execution = await executeCrawl(
      resolveCrawlSettings(setting),
      { workFolder: path.join(dir, 'work'), artifactFolder: out },
      {
        fetcher: ownFetcher,
        clock: systemClock,
        limits: LIMITS,
        defaultUserAgent: 'KumoTest/1.0',
        timezone: 'UTC',
      },
      { cancelSignal: new AbortController().signal, deadlineMicros: systemClock.nowMicros() + 60_000_000 },
      new Set(['completed', 'limit_reached']),
    );
    const rows = recordsOf(readCsvGz(path.join(out, 'url_list.csv.gz')));
    const bundle = await readTarGz(path.join(out, 'crawl_objects.tar.gz'));
    return { execution, rows, bundle };
  } finally {
    if (fetcher === undefined) await ownFetcher.close();
  }
}

/** The one row of `seed`: failed, no status, no header values. */
function assertUnansweredRow(crawled: Crawled, seed: string): void {
  const rows = crawled.rows.filter((row) => row.crawl_url === seed);
  assert.equal(rows.length, 1, JSON.stringify(crawled.rows));
  const [row] = rows;
  assert.equal(row?.is_crawl_ok, 'false');
  assert.equal(row.http_status, '');
  assert.equal(row.content_type, '');
  assert.equal(row.last_url, '');
}

function folderOf(seed: string): string {
  const url = new URL(seed);
  return `${url.protocol.slice(0, -1)}/${url.host}${url.pathname}-/-/`;
}

describe('a seed that gets no answer is a row whose meta.json says why', () => {
  const cases: { name: string; seed: () => string; reason: () => string; robotsReason?: () => string }[] = [
    {
      name: 'a closed port',
      seed: () => `http://127.0.0.1:${closedPort}/`,
      reason: () => `connection refused (127.0.0.1:${closedPort})`,
    },
    {
      name: 'a host name that does not resolve',
      seed: () => 'http://no-such-host.invalid/start.html',
      reason: () => 'DNS lookup failed for no-such-host.invalid',
    },
    {
      name: 'TLS spoken to a plain HTTP server',
      seed: () => `https://127.0.0.1:${site.port}/`,
      reason: () => 'TLS error: ERR_SSL_WRONG_VERSION_NUMBER',
    },
    {
      name: 'a server that never answers',
      seed: () => `http://127.0.0.1:${silentPort}/`,
      reason: () => 'timed out after 0.4 s',
    },
  ];
  for (const { name, seed, reason } of cases) {
    for (const robots of [false, true]) {
      test(`${name} (robots_txt ${robots})`, async () => {
        const crawled = await crawl({ seed_urls: [seed()], robots_txt: robots });
        const expected = robots ? `robots.txt unreachable: ${reason()}` : reason();
        assert.equal(crawled.execution.outcome, 'completed');
        assertUnansweredRow(crawled, seed());
        const meta = metaOf(crawled.bundle, folderOf(seed()));
        assert.equal(meta.fetch_error, expected);
        assert.equal(meta.url, seed());
        assert.equal(meta.http_status, null);
        assert.deepEqual([...crawled.bundle.keys()], [`${folderOf(seed())}meta.json`], 'no source file');
        assert.deepEqual(crawled.execution.seeds, {
          seeds: 1,
          unanswered: [{ url: seed(), reason: expected }],
        });
      });
    }
  }

  test('an address the private-network rule refuses', async () => {
    const fetcher = createUndiciFetcher({ addresses: new AddressPolicy(false) });
    cleanups.push(() => fetcher.close());
    const seed = `${site.origin}/`;
    const crawled = await crawl({ seed_urls: [seed] }, fetcher);
    const expected =
      'address refused: 127.0.0.1 is a loopback address and private networks are not allowed ' +
      '(KUMO_ALLOW_PRIVATE_NETWORKS)';
    assertUnansweredRow(crawled, seed);
    assert.equal(metaOf(crawled.bundle, folderOf(seed)).fetch_error, expected);
    assert.deepEqual(crawled.execution.seeds.unanswered, [{ url: seed, reason: expected }]);
  });

  test('a seed that answered, even 404, is not among them; the failing one is', async () => {
    const failing = `http://127.0.0.1:${closedPort}/`;
    const crawled = await crawl({
      seed_urls: [`${site.origin}/missing`, failing],
      robots_txt: false,
      depth_limit: 0,
    });
    const statuses = new Map(crawled.rows.map((row) => [row.crawl_url, row.http_status]));
    assert.deepEqual(
      statuses,
      new Map([
        [`${site.origin}/missing`, '404'],
        [failing, ''],
      ]),
    );
    assert.deepEqual(crawled.execution.seeds, {
      seeds: 2,
      unanswered: [{ url: failing, reason: `connection refused (127.0.0.1:${closedPort})` }],
    });
  });
});
