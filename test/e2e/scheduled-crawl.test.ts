/**
 * A site configured once stays searchable and fresh: a crawl service setting with a daily
 * schedule runs when the (test-controlled) clock reaches its slot, its pages become searchable,
 * the next slot's run follows an edited, a removed and an added page, and a webhook receiver
 * that fails twice gets each event exactly once after retries.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { type Clock, systemClock } from '../../src/util/index.js';
import { parseCsvText } from '../support/artifact-readers.js';
import { docPath, type SearchAnswer } from '../support/search-fixtures.js';
import {
  pollUntil,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
} from '../support/service-harness.js';

/** The service's clock, moved by the test; it keeps running in between so runs take real time. */
class MovableClock implements Clock {
  private offsetMicros = 0;
  nowMicros(): number {
    return systemClock.nowMicros() + this.offsetMicros;
  }
  setTo(iso: string): void {
    this.offsetMicros = Date.parse(iso) * 1000 - systemClock.nowMicros();
  }
}

/** A small site whose pages the test edits between runs. */
function startSite(pages: Map<string, string>, outage: { down: boolean }): Promise<Server> {
  const server = createServer((request, response) => {
    if (outage.down) {
      response.writeHead(503, { 'content-type': 'text/html' }).end('<title>maintenance</title>');
      return;
    }
    const body = pages.get(request.url ?? '/');
    if (body === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<title>not found</title>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function page(title: string, body: string, links: string[] = []): string {
  const anchors = links.map((href) => `<a href="${href}">${href}</a>`).join(' ');
  return `<!doctype html><html><head><title>${title}</title></head><body><p>${body}</p>${anchors}</body></html>`;
}

interface ReceivedEvent {
  event: string;
  eventId: string;
  status: number;
  body: Record<string, unknown>;
}

const SECRET = 'whsec_scheduled_e2e_0123456789';

/** Verifies every signature; answers 500 to the first two attempts of each event, then 200. */
function startReceiver(received: ReceivedEvent[]): Promise<Server> {
  const attempts = new Map<string, number>();
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const signature = String(request.headers['x-mf-signature'] ?? '');
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
      const expected = match && createHmac('sha256', SECRET).update(`${match[1]}.${raw}`).digest('hex');
      if (!match || expected !== match[2]) {
        response.writeHead(401).end();
        received.push({ event: 'bad-signature', eventId: '', status: 401, body: {} });
        return;
      }
      const eventId = String(request.headers['x-mf-delivery']);
      const attempt = (attempts.get(eventId) ?? 0) + 1;
      attempts.set(eventId, attempt);
      const status = attempt <= 2 ? 500 : 200;
      received.push({
        event: String(request.headers['x-mf-event']),
        eventId,
        status,
        body: JSON.parse(raw) as Record<string, unknown>,
      });
      response.writeHead(status).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const clock = new MovableClock();
const pages = new Map<string, string>();
const outage = { down: false };
const received: ReceivedEvent[] = [];
let site: Server;
let receiver: Server;
let kumo: TestService;
let siteUrl: string;

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
const GROUP = '/admin/v1/contracts/1/servicegroups/1';

before(async () => {
  site = await startSite(pages, outage);
  receiver = await startReceiver(received);
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  pages.set('/', page('Home', 'welcome to the riverside bakery', ['/bread.html', '/cakes.html']));
  pages.set('/bread.html', page('Bread', 'sourdough loaves baked every morning'));
  pages.set('/cakes.html', page('Cakes', 'strawberry shortcake for birthdays'));
  // 09:58 UTC is 18:58 in Tokyo: two minutes before the daily 19:00 slot.
  clock.setTo('2026-11-23T09:58:00Z');
  kumo = await startTestService({
    clock,
    overrides: {
      timezone: 'Asia/Tokyo',
      schedulerIntervalSeconds: 0.05,
      webhookBackoffSeconds: [0.05, 0.05, 0.05],
    },
  });
});

after(async () => {
  await kumo?.close();
  site?.close();
  receiver?.close();
});

async function search(q: string): Promise<string[]> {
  const response = await kumo.inject({
    method: 'GET',
    url: `${docPath()}/search?q=${encodeURIComponent(q)}`,
  });
  assert.equal(response.statusCode, 200, response.body);
  return (response.json as SearchAnswer).organic.docs.map((doc) => new URL(doc.url).pathname);
}

interface ScheduledHistory {
  id: number;
  crawl_execution_status_dtype_id: number;
  start_datetime: string;
  crawl_url_list_path: string;
}

async function histories(settingId: number): Promise<ScheduledHistory[]> {
  const range = 'from_datetime=2026-11-01T00:00:00%2B09:00&to_datetime=2026-12-31T00:00:00%2B09:00';
  const response = await kumo.inject({
    method: 'GET',
    url: `/api/v1.0/crawler_service/contracts/1/servicegroups/1/service_settings/${settingId}/histories?${range}`,
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json.contents as ScheduledHistory[];
}

test('a scheduled setting crawls at its slot, feeds search, follows site changes and signals webhooks', async () => {
  const webhook = await kumo.inject({
    method: 'POST',
    url: `${GROUP}/webhooks`,
    headers: ADMIN,
    payload: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, secret: SECRET },
  });
  assert.equal(webhook.statusCode, 200, webhook.body);

  const created = await kumo.inject({
    method: 'POST',
    url: `${GROUP}/service_settings`,
    headers: ADMIN,
    payload: {
      setting: { seed_urls: [`${siteUrl}/`] },
      schedule: { interval: 2, hour: 19, min: 0 },
      service_id: 1,
    },
  });
  assert.equal(created.statusCode, 200, created.body);
  const settingId = created.json.service_setting_id as number;

  // Before the slot nothing runs, however often the scheduler looks.
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.deepEqual(await histories(settingId), []);
  assert.equal(await kumo.service.store.runs.activeRunOfSetting(settingId), undefined);

  clock.setTo('2026-11-23T10:00:30Z');
  const [first] = await pollUntil('the first scheduled run to finish', async () => {
    const list = await histories(settingId);
    return list.length === 1 ? list : undefined;
  });
  assert.equal(first!.crawl_execution_status_dtype_id, 2030);
  assert.match(first!.start_datetime, /^2026-11-23T19:00:\d\d\.\d{6}\+09:00$/);
  assert.match(first!.crawl_url_list_path, /^\/crawler\/[A-Za-z0-9_-]{32}\/url_list\.csv\.gz$/);

  assert.deepEqual(await search('sourdough'), ['/bread.html']);
  assert.deepEqual(await search('strawberry'), ['/cakes.html']);

  // The URL list is served without a key at the path the history gives.
  const csv = await fetch(`${kumo.url}${first!.crawl_url_list_path}`);
  assert.equal(csv.status, 200);
  const rows = parseCsvText(gunzipSync(Buffer.from(await csv.arrayBuffer())).toString('utf8'));
  assert.deepEqual(
    rows
      .slice(1)
      .map((row) => new URL(row[0]!).pathname)
      .sort(),
    ['/', '/bread.html', '/cakes.html'],
  );
  const objects = await fetch(
    `${kumo.url}${first!.crawl_url_list_path.replace('url_list.csv.gz', 'crawl_objects.tar.gz')}`,
  );
  assert.equal(objects.status, 200);
  await objects.arrayBuffer();
  const unknown = await fetch(`${kumo.url}/crawler/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/url_list.csv.gz`);
  assert.equal(unknown.status, 404);
  await unknown.arrayBuffer();
  // A file name that is none of the artifacts: 404 naming the valid ones.
  const misnamed = await fetch(
    `${kumo.url}${first!.crawl_url_list_path.replace('url_list.csv.gz', 'urls.csv')}`,
  );
  assert.equal(misnamed.status, 404);
  assert.deepEqual(((await misnamed.json()) as { errors: unknown }).errors, [
    {
      field: 'path.file',
      reason: 'must be one of "url_list.csv.gz", "crawl_objects.tar.gz", "link_list.csv.gz"',
    },
  ]);

  // The site changes: bread edited, cakes removed, pies added.
  pages.set(
    '/',
    page('Home', 'welcome to the riverside bakery', ['/bread.html', '/cakes.html', '/pies.html']),
  );
  pages.set('/bread.html', page('Bread', 'rye loaves baked every morning'));
  pages.delete('/cakes.html');
  pages.set('/pies.html', page('Pies', 'apple pie with cinnamon'));

  clock.setTo('2026-11-24T10:00:30Z');
  const second = await pollUntil('the second scheduled run to finish', async () => {
    const list = await histories(settingId);
    return list.length === 2 ? list : undefined;
  });
  assert.equal(second[0]!.crawl_execution_status_dtype_id, 2030);
  assert.match(second[0]!.start_datetime, /^2026-11-24T19:00:/);
  assert.ok(second[0]!.id > second[1]!.id, 'newest first');

  assert.deepEqual(await search('rye'), ['/bread.html']);
  assert.deepEqual(await search('sourdough'), []);
  assert.deepEqual(await search('strawberry'), []);
  assert.deepEqual(await search('cinnamon'), ['/pies.html']);
  assert.deepEqual(await search('riverside'), ['/']);

  // Two runs, two events each: every event got two 500s and then exactly one 200.
  const delivered = await pollUntil('four delivered webhook events', () => {
    const ok = received.filter((event) => event.status === 200);
    return ok.length === 4 ? ok : undefined;
  });
  assert.equal(received.filter((event) => event.event === 'bad-signature').length, 0);
  // Retries of one event may overlap the next event's: compare as sets, not in order.
  assert.deepEqual(delivered.map((event) => event.event).sort(), [
    'crawl.finished',
    'crawl.finished',
    'crawl.started',
    'crawl.started',
  ]);
  for (const event of delivered) {
    assert.equal(received.filter((other) => other.eventId === event.eventId).length, 3);
    assert.equal(event.body.service_setting_id, settingId);
    assert.equal(event.body.contract_id, 1);
    assert.equal(event.body.servicegroup_id, 1);
  }
  const finished = delivered
    .filter((event) => event.event === 'crawl.finished')
    .map((event) => event.body.crawl_history as ScheduledHistory)
    .find((history) => history.id === second[0]!.id);
  assert.equal(finished?.crawl_execution_status_dtype_id, 2030);
  assert.equal(finished.crawl_url_list_path, second[0]!.crawl_url_list_path);

  // The receiver answers before the dispatcher records the attempt: wait for the records.
  const listed = await pollUntil('four deliveries recorded as delivered', async () => {
    const deliveries = await kumo.inject({
      method: 'GET',
      url: `${GROUP}/webhooks/${webhook.json.webhook_id as number}/deliveries`,
      headers: ADMIN,
    });
    assert.equal(deliveries.statusCode, 200, deliveries.body);
    const rows = deliveries.json.deliveries as {
      state: string;
      attempts: number;
      last_status_code: number;
    }[];
    return rows.length === 4 && rows.every((row) => row.state === 'delivered') ? rows : undefined;
  });
  for (const delivery of listed) {
    assert.equal(delivery.attempts, 3);
    assert.equal(delivery.last_status_code, 200);
  }

  // The site is down for a run (started now by the operator): the run ends normally, but having
  // reached none of its pages it removes none of them.
  outage.down = true;
  const runNow = await kumo.inject({
    method: 'POST',
    url: `${GROUP}/service_settings/${settingId}/run`,
    headers: { authorization: ADMIN.authorization },
  });
  assert.equal(runNow.statusCode, 200, runNow.body);
  await pollUntil('the run during the outage to finish', async () => {
    const list = await histories(settingId);
    return list.length === 3 ? list : undefined;
  });
  outage.down = false;
  assert.deepEqual(await search('riverside'), ['/']);
  assert.deepEqual(await search('rye'), ['/bread.html']);
  assert.deepEqual(await search('cinnamon'), ['/pies.html']);
});

test('an instant crawl signals crawl.started and crawl.finished with its request id', async () => {
  const requestId = await kumo.requestCrawl({ seed_urls: [`${siteUrl}/pies.html`], depth_limit: 0 });
  await kumo.waitForFinished(requestId);
  const events = await pollUntil('both events of the instant crawl delivered', () => {
    const ok = received.filter(
      (event) => event.status === 200 && event.body.instant_crawl_request_id === requestId,
    );
    return ok.length === 2 ? ok : undefined;
  });
  assert.deepEqual(events.map((event) => event.event).sort(), ['crawl.finished', 'crawl.started']);
  const finished = events.find((event) => event.event === 'crawl.finished')!;
  assert.equal(finished.body.service_setting_id, undefined);
  const history = finished.body.crawl_history as {
    instant_crawl_request_id: number;
    crawl_execution_status_dtype_id: number;
  };
  assert.equal(history.instant_crawl_request_id, requestId);
  assert.equal(history.crawl_execution_status_dtype_id, 2030);
});
