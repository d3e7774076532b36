/**
 * SSRF hardening through whole crawls (executeCrawl with a real undici fetcher and live fixture
 * servers): a seed, a redirect target or a robots.txt on a refused address is never fetched, and
 * a refused seed is a failed URL row, never retried. Loopback only: 127.0.0.2 is allowed through
 * the CIDR list where a test needs an allowed host, 127.0.0.1 stays refused.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import type { FetchFailure } from '../../src/crawler/fetch-errors.js';
import { createUndiciFetcher, type HttpFetcher } from '../../src/crawler/http-fetcher.js';
import { type FetchLimits, fetchPage } from '../../src/crawler/page-fetch.js';
import type { InstantCrawlerSetting } from '../../src/domain/schemas.js';
import { resolveCrawlSettings } from '../../src/domain/index.js';
import { AddressPolicy } from '../../src/net/index.js';
import { systemClock } from '../../src/util/index.js';
import { type CrawlExecution, executeCrawl } from '../../src/worker/execute-crawl.js';
import { readCsvGz, recordsOf } from '../support/artifact-readers.js';
import { fakeLookup } from '../net/support/fake-lookup.js';
import { type RecordingServer, type Route, startRecordingServer } from '../net/support/recording-server.js';

const LIMITS: FetchLimits = {
  timeoutMs: 5000,
  maxRedirects: 10,
  maxBodyBytes: 1024 * 1024,
  retryCount: 2,
  retryBaseDelayMs: 20,
};

const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(host: string, route?: Route): Promise<RecordingServer> {
  const started = await startRecordingServer(host, route);
  cleanups.push(() => started.close());
  return started;
}

/** The fetcher of the service, guarded by `policy`, recording every hop and how it failed. */
function guardedFetcher(policy: AddressPolicy): HttpFetcher & { hops: string[]; failures: FetchFailure[] } {
  const inner = createUndiciFetcher({ addresses: policy });
  cleanups.push(() => inner.close());
  const hops: string[] = [];
  const failures: FetchFailure[] = [];
  return {
    hops,
    failures,
    async fetchHop(hop) {
      hops.push(hop.url);
      try {
        return await inner.fetchHop(hop);
      } catch (error) {
        failures.push(error as FetchFailure);
        throw error;
      }
    },
    close: () => inner.close(),
  };
}

async function crawl(
  fetcher: HttpFetcher,
  setting: InstantCrawlerSetting,
): Promise<{ execution: CrawlExecution; rows: Record<string, string>[] }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-ssrf-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const artifactFolder = path.join(dir, 'out');
  const execution = await executeCrawl(
    resolveCrawlSettings(setting),
    { workFolder: path.join(dir, 'work'), artifactFolder },
    { fetcher, clock: systemClock, limits: LIMITS, defaultUserAgent: 'KumoTest/1.0', timezone: 'UTC' },
    {
      cancelSignal: new AbortController().signal,
      deadlineMicros: systemClock.nowMicros() + 60_000_000,
    },
    new Set(['completed', 'limit_reached']),
  );
  const rows = recordsOf(readCsvGz(path.join(artifactFolder, 'url_list.csv.gz')));
  return { execution, rows };
}

const LOOPBACK_REFUSAL =
  'address refused: 127.0.0.1 is a loopback address and private networks are not allowed';

describe('crawls under the default address policy', () => {
  test('a loopback seed is a failed row, and the server gets no request, robots.txt included', async () => {
    const site = await server('127.0.0.1');
    const fetcher = guardedFetcher(new AddressPolicy(false));
    const seed = `${site.origin}/`;
    const { execution, rows } = await crawl(fetcher, { seed_urls: [seed] });

    assert.equal(execution.outcome, 'completed');
    assert.deepEqual(rows.length, 1, JSON.stringify(rows));
    const [row] = rows;
    assert.equal(row?.crawl_url, seed);
    assert.equal(row.is_crawl_ok, 'false');
    assert.equal(row.http_status, '');
    assert.equal(row.last_url, '');
    assert.equal(row.content_type, '');

    // robots.txt and the page were each tried once: a refusal is not retried (retryCount 2).
    assert.deepEqual(fetcher.hops, [`${site.origin}/robots.txt`, seed]);
    assert.deepEqual(
      fetcher.failures.map((failure) => [failure.kind, failure.retryable, failure.message]),
      [
        ['address_refused', false, LOOPBACK_REFUSAL],
        ['address_refused', false, LOOPBACK_REFUSAL],
      ],
    );
    assert.equal(site.connections, 0);
    assert.deepEqual(site.requests, []);
  });

  test('a name resolving to loopback is refused on its resolved address', async () => {
    const site = await server('127.0.0.1');
    const lookup = fakeLookup([['127.0.0.1']]);
    const fetcher = guardedFetcher(new AddressPolicy(false, { lookup }));
    const seed = `http://intranet.test:${site.port}/`;
    const { rows } = await crawl(fetcher, { seed_urls: [seed], robots_txt: false });

    assert.deepEqual(
      rows.map((row) => [row.crawl_url, row.is_crawl_ok, row.http_status]),
      [[seed, 'false', '']],
    );
    assert.deepEqual(
      fetcher.failures.map((failure) => failure.message),
      [
        'address refused: intranet.test resolves to a refused address: ' +
          '127.0.0.1 is a loopback address and private networks are not allowed',
      ],
    );
    assert.deepEqual(site.requests, []);
  });

  test('a redirect (and a robots.txt redirect) from an allowed host to a refused address is not followed', async () => {
    const refused = await server('127.0.0.1');
    const allowed = await server('127.0.0.2', (requestPath) => {
      if (requestPath === '/robots.txt')
        return { status: 302, headers: { location: `${refused.origin}/robots.txt` } };
      if (requestPath === '/start') return { status: 302, headers: { location: `${refused.origin}/target` } };
      return { status: 404 };
    });
    const fetcher = guardedFetcher(new AddressPolicy(['127.0.0.2/32']));
    const seed = `${allowed.origin}/start`;
    const { rows } = await crawl(fetcher, {
      seed_urls: [seed],
      // Both hosts in scope: only the address policy stands between the redirect and its target.
      allow_urls_patterns: ['^http://127\\.0\\.0\\.[12]:'],
    });

    assert.equal(rows.length, 1, JSON.stringify(rows));
    const [row] = rows;
    assert.equal(row?.crawl_url, seed);
    assert.equal(row.is_crawl_ok, 'false');
    assert.equal(row.http_status, '302');
    assert.equal(row.last_url, `${refused.origin}/target`);
    assert.deepEqual(allowed.requests.sort(), ['/robots.txt', '/start']);
    assert.equal(refused.connections, 0);
    assert.deepEqual(refused.requests, []);
    // The robots.txt redirect, the target's own robots.txt and the target: each refused once.
    assert.deepEqual(fetcher.hops.sort(), [
      `${refused.origin}/robots.txt`,
      `${refused.origin}/robots.txt`,
      `${refused.origin}/target`,
      `${allowed.origin}/robots.txt`,
      seed,
    ]);
    assert.deepEqual(
      fetcher.failures.map((failure) => failure.message),
      [LOOPBACK_REFUSAL, LOOPBACK_REFUSAL, LOOPBACK_REFUSAL],
    );
  });

  test('the allow list opens its ranges: an allowed loopback host is crawled', async () => {
    const allowed = await server('127.0.0.2', (requestPath) =>
      requestPath === '/' ? { status: 200, body: '<a href="/next">next</a>' } : { status: 200, body: 'next' },
    );
    const fetcher = guardedFetcher(new AddressPolicy(['127.0.0.2/32']));
    const { rows } = await crawl(fetcher, { seed_urls: [`${allowed.origin}/`] });
    assert.deepEqual(rows.map((row) => [row.crawl_url, row.is_crawl_ok, row.http_status]).sort(), [
      [`${allowed.origin}/`, 'true', '200'],
      [`${allowed.origin}/next`, 'true', '200'],
    ]);
    assert.deepEqual(fetcher.failures, []);
  });
});

describe('fetchPage with a refused address', () => {
  const policy = {
    headersFor: () => ({}),
    refuseRedirect: () => Promise.resolve(undefined),
    acceptsContentType: () => true,
  };

  test('a refused page is a failed result naming the reason, fetched once', async () => {
    const site = await server('127.0.0.1');
    const fetcher = guardedFetcher(new AddressPolicy(false));
    const result = await fetchPage(fetcher, `${site.origin}/x`, policy, LIMITS, new AbortController().signal);
    assert.ok(result.kind === 'failed', JSON.stringify(result));
    assert.equal(result.failure.kind, 'address_refused');
    assert.equal(result.failure.message, LOOPBACK_REFUSAL);
    assert.equal(result.status, undefined);
    assert.equal(fetcher.hops.length, 1);
    assert.equal(site.connections, 0);
  });

  test('a redirect to a refused address is a redirect not followed, with the reason', async () => {
    const refused = await server('127.0.0.1');
    const allowed = await server('127.0.0.2', () => ({
      status: 301,
      headers: { location: `http://[::ffff:127.0.0.1]:${refused.port}/admin` },
    }));
    const fetcher = guardedFetcher(new AddressPolicy(['127.0.0.2/32']));
    const result = await fetchPage(
      fetcher,
      `${allowed.origin}/`,
      policy,
      LIMITS,
      new AbortController().signal,
    );
    assert.ok(result.kind === 'response', JSON.stringify(result));
    assert.equal(result.status, 301);
    assert.equal(result.body, undefined);
    assert.equal(result.finalUrl, `http://[::ffff:7f00:1]:${refused.port}/admin`);
    assert.match(
      result.refusedRedirect ?? '',
      /^redirect target refused: address refused: ::ffff:7f00:1 is an IPv4-mapped address of 127\.0\.0\.1, a loopback address, and private networks are not allowed$/,
    );
    assert.equal(refused.connections, 0);
  });
});
