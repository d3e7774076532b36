/**
 * A site that cannot be reached is not a successful empty crawl (docs/reference/crawl-rules.md,
 * Seeds that cannot be fetched): on a real service, a run none of whose seeds got an answer ends 2040 with a message naming the first
 * seed and why; a run with some seeds failing ends 2030, its URL list has their rows, their
 * meta.json says why, and the history message lists them. The same message reaches the scheduled
 * histories and the crawl.finished webhook, and a scheduled run ending 2040 leaves its search
 * index as it was. Loopback only: a closed port and a name under `.invalid`, which never resolves.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { metaOf, readTar, recordsOf, parseCsvText } from '../support/artifact-readers.js';
import { docPath, type SearchAnswer } from '../support/search-fixtures.js';
import {
  downloadArtifact,
  freePort,
  pollUntil,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
} from '../support/service-harness.js';

interface History {
  crawl_execution_status_dtype_id: number;
  crawl_execution_status_dtype_name: string;
  crawl_url_list_path: string;
  message?: string;
}

interface WebhookEvent {
  event: string;
  body: { instant_crawl_request_id?: number; crawl_history: History };
}

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
const GROUP = '/admin/v1/contracts/1/servicegroups/1';
const DNS_FAILURE = 'DNS lookup failed for no-such-host.invalid';

let kumo: TestService;
let site: Server;
let siteUrl: string;
let receiver: Server;
const events: WebhookEvent[] = [];
/** Nothing listens there: connecting is refused. */
let closedPort: number;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

before(async () => {
  closedPort = await freePort();
  site = createServer((request, response) => {
    if (request.url === '/robots.txt') return response.writeHead(404).end();
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Harbour</title><p>lighthouse keepers welcome</p>');
  });
  siteUrl = await listen(site);
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as WebhookEvent['body'];
      events.push({ event: String(request.headers['x-mf-event']), body });
      response.writeHead(200).end();
    });
  });
  const receiverUrl = await listen(receiver);
  kumo = await startTestService();
  const webhook = await kumo.inject({
    method: 'POST',
    url: `${GROUP}/webhooks`,
    headers: ADMIN,
    payload: { url: `${receiverUrl}/hook`, secret: 'whsec_unreachable_0123456789' },
  });
  assert.equal(webhook.statusCode, 200, webhook.body);
});

after(async () => {
  await kumo?.close();
  site?.close();
  receiver?.close();
});

async function historyOf(requestId: number): Promise<History> {
  return (await kumo.waitForFinished(requestId, { timeoutMs: 30_000 })) as unknown as History;
}

describe('an instant crawl none of whose seeds answers ends 2040 with the reason', () => {
  const cases = [
    {
      name: 'a closed port',
      seed: () => `http://127.0.0.1:${closedPort}/`,
      reason: () => `connection refused (127.0.0.1:${closedPort})`,
    },
    { name: 'an unresolvable host', seed: () => 'http://no-such-host.invalid/', reason: () => DNS_FAILURE },
  ];
  for (const { name, seed, reason } of cases) {
    for (const robots of [true, false]) {
      test(`${name}, robots_txt ${robots}`, async () => {
        const requestId = await kumo.requestCrawl({ seed_urls: [seed()], robots_txt: robots });
        const history = await historyOf(requestId);
        assert.equal(history.crawl_execution_status_dtype_id, 2040);
        assert.equal(history.crawl_execution_status_dtype_name, 'fault');
        assert.equal(history.crawl_url_list_path, '-', 'a troubled run has no artifact');
        const why = robots ? `robots.txt unreachable: ${reason()}` : reason();
        assert.equal(history.message, `no seed could be fetched: ${seed()}: ${why}`);

        // crawl.finished carries the same history record, message included.
        const finished = await pollUntil('the crawl.finished event', () =>
          events.find(
            (event) => event.event === 'crawl.finished' && event.body.instant_crawl_request_id === requestId,
          ),
        );
        assert.equal(finished.body.crawl_history.crawl_execution_status_dtype_id, 2040);
        assert.equal(finished.body.crawl_history.message, history.message);
      });
    }
  }
});

describe('an instant crawl with one seed failing and one fine ends 2030 listing the failed one', () => {
  for (const robots of [true, false]) {
    test(`robots_txt ${robots}`, async () => {
      const good = `${siteUrl}/`;
      const bad = `http://127.0.0.1:${closedPort}/`;
      const requestId = await kumo.requestCrawl({ seed_urls: [good, bad], robots_txt: robots });
      const history = await historyOf(requestId);
      assert.equal(history.crawl_execution_status_dtype_id, 2030);
      const why = `${robots ? 'robots.txt unreachable: ' : ''}connection refused (127.0.0.1:${closedPort})`;
      assert.equal(history.message, `1 of 2 seeds not fetched: ${bad}: ${why}`);

      const download = (file: string) =>
        downloadArtifact(kumo.url, kumo.apiKey, kumo.tenant, requestId, file);
      const [header = [], ...rows] = parseCsvText((await download('url_list.csv.gz')).toString('utf8'));
      const byUrl = new Map(recordsOf({ header, rows, text: '' }).map((row) => [row.crawl_url, row]));
      assert.equal(byUrl.get(good)?.is_crawl_ok, 'true');
      assert.equal(byUrl.get(bad)?.is_crawl_ok, 'false');
      assert.equal(byUrl.get(bad)?.http_status, '');
      const bundle = await readTar(await download('crawl_objects.tar.gz'));
      const meta = metaOf(bundle, `http/127.0.0.1:${closedPort}/-/-/`);
      assert.equal(meta.fetch_error, why);
      assert.equal(meta.url, bad);
    });
  }

  test('a run whose seeds all answered carries no message', async () => {
    const requestId = await kumo.requestCrawl({ seed_urls: [`${siteUrl}/`] });
    const history = await historyOf(requestId);
    assert.equal(history.crawl_execution_status_dtype_id, 2030);
    assert.equal(history.message, undefined);
  });
});

test('a scheduled run that reaches no seed ends 2040 with the reason and leaves the index as it was', async (t) => {
  // A site of its own, closed after the first run.
  const own = createServer((request, response) => {
    if (request.url === '/robots.txt') return response.writeHead(404).end();
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Orchard</title><p>quince jelly for sale</p>');
  });
  const ownUrl = await listen(own);
  t.after(() => {
    own.closeAllConnections();
    own.close();
  });
  const created = await kumo.inject({
    method: 'POST',
    url: `${GROUP}/service_settings`,
    headers: ADMIN,
    payload: {
      setting: { seed_urls: [`${ownUrl}/`] },
      schedule: { interval: 0 },
      service_id: 1,
    },
  });
  assert.equal(created.statusCode, 200, created.body);
  const settingId = created.json.service_setting_id as number;
  const historiesPath =
    `/api/v1.0/crawler_service/contracts/1/servicegroups/1/service_settings/${settingId}/histories` +
    '?from_datetime=2000-01-01T00:00:00%2B00:00&to_datetime=2100-01-01T00:00:00%2B00:00';
  const runAndWait = async (count: number): Promise<History[]> => {
    const run = await kumo.inject({
      method: 'POST',
      url: `${GROUP}/service_settings/${settingId}/run`,
      headers: { authorization: ADMIN.authorization },
    });
    assert.equal(run.statusCode, 200, run.body);
    return pollUntil(
      `scheduled run ${count}`,
      async () => {
        const response = await kumo.inject({ method: 'GET', url: historiesPath });
        assert.equal(response.statusCode, 200, response.body);
        const contents = response.json.contents as History[];
        return contents.length === count ? contents : undefined;
      },
      30_000,
    );
  };
  const search = async (q: string): Promise<string[]> => {
    const response = await kumo.inject({ method: 'GET', url: `${docPath()}/search?q=${q}` });
    assert.equal(response.statusCode, 200, response.body);
    return (response.json as SearchAnswer).organic.docs.map((doc) => doc.url);
  };

  const [first] = await runAndWait(1);
  assert.equal(first?.crawl_execution_status_dtype_id, 2030);
  // A fine run's message is what it did to the index (docs/api.md, Search feeding).
  assert.equal(first.message, 'search service 1: 1 new, 0 changed, 0 unchanged, 0 removed, 0 skipped');
  assert.deepEqual(await search('quince'), [`${ownUrl}/`]);

  own.closeAllConnections();
  await new Promise((resolve) => own.close(resolve));
  const [second] = await runAndWait(2);
  assert.equal(second?.crawl_execution_status_dtype_id, 2040);
  assert.equal(second.crawl_url_list_path, '-');
  const port = new URL(ownUrl).port;
  assert.equal(
    second.message,
    `no seed could be fetched: ${ownUrl}/: robots.txt unreachable: connection refused (127.0.0.1:${port})`,
  );
  assert.deepEqual(await search('quince'), [`${ownUrl}/`], 'the index is as it was');
});
