/**
 * Category and drill-down rules are matched against each document's URL in facet threads, not on
 * the thread answering the API (docs/design/url-patterns.md, URL patterns): a search service whose
 * rules cost minutes on its URLs leaves the health check and other services' searches answering at
 * once, and its own searches answer after the job limit with their documents and no facets.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { validateSearchServiceConfig, type SearchServiceConfig } from '../../src/domain/schemas.js';
import type { IndexedDocument } from '../../src/search/index.js';
import { FACET_JOB_LIMIT_MS } from '../../src/search/site/index.js';
import { systemClock } from '../../src/util/index.js';
import {
  docPath,
  FINDER_BASE,
  HttpClient,
  queryOf,
  type SearchAnswer,
  seedSearchIndex,
} from '../support/search-fixtures.js';
import { craftedPath, SLOW_URL_PATTERN } from '../support/crafted-urls.js';
import { DEMO_TENANT, sleep, startTestService, type TestService } from '../support/service-harness.js';

/** Long crafted URLs: a few hundred, each near the longest a crawl follows (8 KB). */
const HOSTILE_PAGES = 200;
const HOSTILE_PATH_CHARS = 8000;
const HOSTILE_HOST = 'hostile.example';
/**
 * Rules at the instruction limit whose automaton outgrows RE2's memory on such URLs, forcing the
 * slow simulation: each costs about 0.1 s per URL, so 3 rules × 200 URLs take about a minute.
 */
const HOSTILE_CONFIG: SearchServiceConfig = {
  categories: [
    { name: 'A', url_pattern: SLOW_URL_PATTERN },
    { name: 'B', url_pattern: '[x0]*0[x0]{600}[x0]{590}q' },
    { name: 'C', url_pattern: '[0x]*x[x0]{590}[x0]{600}q' },
  ],
};
/** The other service: ordinary rules over an ordinary corpus. */
const OTHER_CONFIG: SearchServiceConfig = {
  categories: [
    { name: 'Docs', url_pattern: '/docs/' },
    { name: 'News', url_pattern: '/news/' },
  ],
};
/**
 * What the health check and another service's search may take while the hostile job runs: tens
 * of milliseconds alone, more on a machine busy with other work; blocked, they waited a minute.
 */
const FAST_MS = 500;
/** A search that starts a facet job in a thread that was idle (started first if need be). */
const FRESH_JOB_MS = 1000;

const HEALTH = `${FINDER_BASE}/health_check`;
/** Between two rounds of probes. */
const PROBE_PAUSE_MS = 50;
const WARNING = 'categories and drill-down are unavailable';

let kumo: TestService;
let otherServiceId: number;
const logLines: string[] = [];

function hostilePages(): IndexedDocument[] {
  return Array.from({ length: HOSTILE_PAGES }, (_, page) => ({
    url: `https://${HOSTILE_HOST}/${craftedPath(page + 1, HOSTILE_PATH_CHARS)}`,
    title: `Crafted page ${page}`,
    description: '',
    body: `marmalade page number ${page}`,
  }));
}

async function configure(serviceId: number, config: SearchServiceConfig): Promise<void> {
  assert.ok(await kumo.service.store.searchServices.updateConfig(serviceId, config, systemClock.nowMicros()));
  // Written to the store directly: told to the service as its management API would.
  kumo.service.searchServices.forget(serviceId);
}

/** The warnings naming search service 1 that its facets are unavailable. */
function unavailableWarnings(): { level: number; search_service_id: number; msg: string }[] {
  return logLines
    .map((line) => JSON.parse(line) as { level: number; search_service_id?: number; msg: string })
    .filter((entry) => entry.msg.includes(WARNING))
    .map((entry) => ({
      level: entry.level,
      search_service_id: entry.search_service_id ?? -1,
      msg: entry.msg,
    }));
}

async function timedGet(client: HttpClient, pathAndQuery: string): Promise<{ ms: number; body: string }> {
  const started = performance.now();
  const answer = await client.get(pathAndQuery);
  assert.equal(answer.status, 200, answer.text);
  return { ms: performance.now() - started, body: answer.text };
}

before(async () => {
  kumo = await startTestService({
    overrides: { logLevel: 'warn' },
    logStream: { write: (line: string) => void logLines.push(line) },
  });
  assert.deepEqual(
    validateSearchServiceConfig(HOSTILE_CONFIG),
    [],
    'the hostile rules are within the limits',
  );
  seedSearchIndex(kumo.dataDir, 1, hostilePages());
  await configure(1, HOSTILE_CONFIG);
  const other = await kumo.service.store.searchServices.create(
    DEMO_TENANT,
    'other',
    OTHER_CONFIG,
    systemClock.nowMicros(),
  );
  otherServiceId = other.id;
  seedSearchIndex(kumo.dataDir, otherServiceId);
});

after(async () => {
  await kumo?.close();
});

test('rules costing a minute on one service leave the health check and other services answering at once', async (t) => {
  const probe = new HttpClient(kumo.url);
  const hostileClient = new HttpClient(kumo.url);
  try {
    const otherSearch = `${docPath(otherServiceId)}/search?${queryOf({ q: 'python' })}`;
    // Warm: routes compiled, connections open, the other service's facets computed.
    await timedGet(probe, HEALTH);
    const warm = JSON.parse((await timedGet(probe, otherSearch)).body) as SearchAnswer;
    assert.deepEqual(warm.category.items, ['Docs', 'News']);

    // The service runs in this process: a blocked event loop delays this loop too, so besides
    // each request's latency the time between answers is measured.
    const started = performance.now();
    let hostileDone = false;
    const hostile = hostileClient
      .get(`${docPath(1)}/search?${queryOf({ q: 'marmalade' })}`)
      .finally(() => (hostileDone = true));
    const healthMs: number[] = [];
    const healthWaitMs: number[] = [];
    const otherMs: number[] = [];
    let freshJob: { ms: number; answer: SearchAnswer } | undefined;
    let lastAnswered = started;
    while (!hostileDone) {
      await sleep(PROBE_PAUSE_MS);
      healthMs.push((await timedGet(probe, HEALTH)).ms);
      healthWaitMs.push(performance.now() - lastAnswered - PROBE_PAUSE_MS);
      otherMs.push((await timedGet(probe, otherSearch)).ms);
      if (freshJob === undefined && performance.now() - started > 2000) {
        // New rules for the other service: a facet job of its own while the hostile one runs.
        await configure(otherServiceId, {
          categories: [{ name: 'Python docs', url_pattern: '/docs/python/' }],
        });
        const { ms, body } = await timedGet(probe, otherSearch);
        freshJob = { ms, answer: JSON.parse(body) as SearchAnswer };
      }
      lastAnswered = performance.now();
    }
    const hostileAnswer = await hostile;
    const hostileMs = performance.now() - started;
    t.diagnostic(
      `hostile search ${Math.round(hostileMs)} ms; health max ${Math.round(Math.max(...healthMs))} ms, ` +
        `longest wait for an answer ${Math.round(Math.max(...healthWaitMs))} ms ` +
        `over ${healthMs.length}; other search max ${Math.round(Math.max(...otherMs))} ms; ` +
        `other search with a fresh facet job ${Math.round(freshJob?.ms ?? -1)} ms`,
    );

    const longestWaitMs = Math.round(Math.max(...healthWaitMs));
    assert.ok(longestWaitMs < FAST_MS, `the health check went unanswered for up to ${longestWaitMs} ms`);
    assert.ok(healthMs.length >= 10, `only ${healthMs.length} health checks while the hostile search ran`);
    assert.ok(
      Math.max(...healthMs) < FAST_MS,
      `health check took up to ${Math.round(Math.max(...healthMs))} ms`,
    );
    assert.ok(
      Math.max(...otherMs) < FAST_MS,
      `the other service's search took up to ${Math.round(Math.max(...otherMs))} ms`,
    );
    assert.ok(freshJob !== undefined);
    assert.ok(
      freshJob.ms < FRESH_JOB_MS,
      `the other service's new facets took ${Math.round(freshJob.ms)} ms`,
    );
    assert.deepEqual(freshJob.answer.category.items, ['Python docs']);

    // The hostile search answered after the job limit, with its documents and no facets.
    assert.equal(hostileAnswer.status, 200, hostileAnswer.text);
    assert.ok(hostileMs >= FACET_JOB_LIMIT_MS - 500, `answered after ${Math.round(hostileMs)} ms`);
    assert.ok(hostileMs < FACET_JOB_LIMIT_MS + 15_000, `answered after ${Math.round(hostileMs)} ms`);
    const answer = JSON.parse(hostileAnswer.text) as SearchAnswer;
    assert.equal(answer.organic.hits, HOSTILE_PAGES);
    assert.equal(answer.organic.docs.length, 10);
    assert.ok(answer.organic.docs.every((doc) => doc.url.startsWith(`https://${HOSTILE_HOST}/`)));
    assert.ok(answer.organic.docs.every((doc) => doc.drilldown.length === 0));
    assert.deepEqual(answer.category, { items: [], selected: [] });
    assert.deepEqual(answer.facet_drilldown_roots, []);

    const warnings = unavailableWarnings();
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.equal(warnings[0]!.level, 40);
    assert.equal(warnings[0]!.search_service_id, 1);
    assert.match(warnings[0]!.msg, /^search service 1: /);
  } finally {
    await probe.close();
    await hostileClient.close();
  }
});

test('unavailable facets answer at once, without a new warning, until the rules change', async () => {
  const client = new HttpClient(kumo.url);
  try {
    const search = (parameters: Record<string, string>) =>
      timedGet(client, `${docPath(1)}/search?${queryOf({ q: 'marmalade', ...parameters })}`);
    const again = await search({});
    assert.ok(again.ms < FAST_MS, `took ${Math.round(again.ms)} ms`);
    const answer = JSON.parse(again.body) as SearchAnswer;
    assert.equal(answer.organic.hits, HOSTILE_PAGES);
    assert.deepEqual(answer.category.items, []);
    assert.deepEqual(answer.facet_drilldown_roots, []);
    // No document is known to be in a category: the filter keeps none.
    const filtered = JSON.parse((await search({ category: 'A' })).body) as SearchAnswer;
    assert.equal(filtered.organic.hits, 0);
    assert.equal(unavailableWarnings().length, 1);

    // Ordinary rules: facets again.
    await configure(1, { categories: [{ name: 'Crafted', url_pattern: `^https://${HOSTILE_HOST}/` }] });
    const ordinary = JSON.parse((await search({})).body) as SearchAnswer;
    assert.deepEqual(ordinary.category.items, ['Crafted']);
    assert.deepEqual(
      ordinary.facet_drilldown_roots.map((root) => [
        root.facet_drilldowns[0]!.path,
        root.facet_drilldowns[0]!.count,
      ]),
      [[HOSTILE_HOST, HOSTILE_PAGES]],
    );
    assert.equal(unavailableWarnings().length, 1);
  } finally {
    await client.close();
  }
});
