/**
 * Tenant isolation (docs/reference/conventions.md, Authentication and Status codes;
 * docs/reference/downloads.md, Instant crawl downloads): a table of requests over every documented
 * endpoint proves that the key, path or ids of one tenant never read, change or download anything
 * of another, and that signed download URLs cannot be reused for another file, request or tenant,
 * nor after 30 s.
 *
 * Tenants: A is the demo tenant (contract 1, service group 1); B is another contract; C is another
 * service group of B's contract (isolation is per service group, not only per contract). A and B
 * each own a finished instant crawl of their own fixture site, a search service fed by a crawl
 * service setting's run, a webhook with a delivery, and an API key; A also owns a second finished
 * crawl (for signature reuse) and a running crawl (held open by download_delay) so that status and
 * cancel are tested on a live run.
 *
 * Every refused answer is also searched for the victim's data (its site origin, page titles, words,
 * generated download string, names, secrets, key). The last test of the table checks that every
 * path template of /docs/json has a row, so a new route without an isolation row fails here.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { apiKeyPrefix, hashApiKey } from '../../src/usecases/index.js';
import { type Clock, systemClock } from '../../src/util/index.js';
import {
  crawlerPathOf,
  downloadPathOf,
  type InjectResult,
  pollUntil,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
  type TestTenant,
} from '../support/service-harness.js';

/** The service's clock: real time plus an offset the expiry test moves forward. */
class MovableClock implements Clock {
  private offsetMicros = 0;
  nowMicros(): number {
    return systemClock.nowMicros() + this.offsetMicros;
  }
  advanceSeconds(seconds: number): void {
    this.offsetMicros += seconds * 1_000_000;
  }
}

interface Site {
  server: Server;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Webhook events POSTed to the site (its tenant's receiver). */
  hooks: Record<string, unknown>[];
}

/** The words by which a tenant's data is recognised in an answer that must not contain it. */
interface Label {
  name: string;
  titles: [string, string];
  /** On every page. */
  word: string;
  /** On the first page only. */
  rare: string;
}

const LABEL_A: Label = {
  name: 'aardvark',
  titles: ['Aardvark Almanac', 'Aardvark Burrow'],
  word: 'zanzibarite',
  rare: 'marmalade',
};
const LABEL_B: Label = {
  name: 'bumblebee',
  titles: ['Bumblebee Bulletin', 'Bumblebee Hive'],
  word: 'quokkaberry',
  rare: 'xylophone',
};

/**
 * Two linked pages with the label's titles and word, a pair of pages for a long crawl (its
 * download_delay keeps it running), and a webhook receiver answering 204.
 */
function startSite(label: Label): Promise<Site> {
  const page = (title: string, link?: string, extra = '') =>
    `<!doctype html><html><head><title>${title}</title></head><body><p>${title} tells about ${label.word} ` +
    `and other ${label.name} things${extra}.</p>${link ? `<a href="${link}">next</a>` : ''}</body></html>`;
  const pages = new Map<string, string>([
    ['/', page(label.titles[0], '/second.html', ` with ${label.rare}`)],
    ['/second.html', page(label.titles[1])],
    ['/slow/start.html', page(`${label.titles[0]} slow`, '/slow/next.html')],
    ['/slow/next.html', page(`${label.titles[1]} slow`)],
  ]);
  const hooks: Record<string, unknown>[] = [];
  const server = createServer((request, response) => {
    if (request.method === 'POST') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        hooks.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
        response.writeHead(204).end();
      });
      return;
    }
    const body = pages.get(request.url ?? '/');
    if (body === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, hooks, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

/** A tenant with everything the table addresses. */
interface World extends TestTenant {
  label: Label;
  site?: Site;
  apiKeyId: number;
  /** Finished instant crawl of the site. */
  requestId: number;
  /** A second finished crawl (A only). */
  requestId2: number;
  /** A crawl kept running by download_delay (A only). */
  activeRequestId: number;
  /** The run of the finished instant crawl `requestId`, as the management API numbers runs. */
  runId: number;
  searchServiceId: number;
  settingId: number;
  /** The generated string of the setting's finished run (its download path). */
  downloadString: string;
  webhookId: number;
  deliveryId: number;
  webhookSecret: string;
}

const clock = new MovableClock();
let kumo: TestService;
let siteA: Site;
let siteB: Site;
let A: World;
let B: World;
let C: World;
/** A search service configuration before the table ran (to prove no row changed it). */
let configOfA: unknown;
/** A's delivery before the table ran. */
let deliveryOfA: { state: string; attempts: number };
/** A key of B's service group that was revoked. */
let revokedKeyOfB: string;

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } as const;
const key = (apiKey: string) => ({ 'x-mf-apikey': apiKey });
const UNKNOWN_KEY = 'kumo_unknown_key_00000000000000000000';

const groupPath = (t: { contractId: number; servicegroupId: number }) =>
  `/contracts/${t.contractId}/servicegroups/${t.servicegroupId}`;
const adminGroup = (t: { contractId: number; servicegroupId: number }) => `/admin/v1${groupPath(t)}`;
const scheduledPath = (t: { contractId: number; servicegroupId: number }, settingId: number, leaf: string) =>
  `/api/v1.0/crawler_service${groupPath(t)}/service_settings/${settingId}/${leaf}${
    leaf === 'histories' ? `?${historyRange()}` : ''
  }`;
const finderPath = (t: { contractId: number; servicegroupId: number }, serviceId: number, leaf: string) =>
  `/api/v1.0/finder_service/documents/${t.contractId}/${t.servicegroupId}/${serviceId}/${leaf}`;

/** A from/to range of one day either side of the service's now, as the scheduled API takes it. */
function historyRange(): string {
  const at = (micros: number) => `${new Date(micros / 1000).toISOString().slice(0, 19)}%2B00:00`;
  const now = clock.nowMicros();
  return `from_datetime=${at(now - 86_400e6)}&to_datetime=${at(now + 86_400e6)}`;
}

async function admin(method: 'GET' | 'POST', url: string, payload?: object): Promise<InjectResult> {
  const response = await kumo.inject({ method, url, headers: ADMIN, ...(payload ? { payload } : {}) });
  assert.equal(response.statusCode, 200, `${method} ${url}: ${response.body}`);
  return response;
}

/** Search service, webhook, crawl service setting with a finished run, finished instant crawl. */
async function provision(tenant: TestTenant, label: Label, site: Site): Promise<World> {
  const group = adminGroup(tenant);
  const webhookSecret = `${label.name}-webhook-secret-0123456789`;
  const webhookId = (
    await admin('POST', `${group}/webhooks`, { url: `${site.origin}/hook`, secret: webhookSecret })
  ).json.webhook_id as number;
  const searchServiceId = (await admin('POST', `${group}/search_services`, { name: `${label.name}-search` }))
    .json.service_id as number;
  const settingId = (
    await admin('POST', `${group}/service_settings`, {
      name: `${label.name}-setting`,
      setting: { seed_urls: [`${site.origin}/`], depth_limit: 1 },
      schedule: { interval: 0 },
      service_id: searchServiceId,
    })
  ).json.service_setting_id as number;
  await admin('POST', `${group}/service_settings/${settingId}/run`);
  const requestId = await kumo.requestCrawl({ seed_urls: [`${site.origin}/`], depth_limit: 1 }, tenant);
  const history = await kumo.waitForFinished(requestId, { tenant });
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  const scheduled = await pollUntil(`the run of setting ${settingId}`, async () => {
    const response = await kumo.inject({ method: 'GET', url: scheduledPath(tenant, settingId, 'histories') });
    assert.equal(response.statusCode, 200, response.body);
    return (
      response.json.contents as { crawl_execution_status_dtype_id: number; crawl_url_list_path: string }[]
    )[0];
  });
  assert.equal(scheduled.crawl_execution_status_dtype_id, 2030, JSON.stringify(scheduled));
  const downloadString = /^\/crawler\/([A-Za-z0-9_-]+)\/url_list\.csv\.gz$/.exec(
    scheduled.crawl_url_list_path,
  )?.[1];
  assert.ok(downloadString, scheduled.crawl_url_list_path);
  const delivery = await pollUntil(`a delivery of webhook ${webhookId}`, async () => {
    const list = (await admin('GET', `${group}/webhooks/${webhookId}/deliveries`)).json.deliveries as {
      id: number;
      state: string;
    }[];
    return list.find((one) => one.state !== 'pending');
  });
  const keys = (await admin('GET', `${group}/api_keys`)).json.api_keys as { id: number }[];
  assert.equal(keys.length, 1);
  const runs = (await admin('GET', `${group}/runs?kind=instant`)).json.runs as {
    id: number;
    instant_crawl_request_id: number;
  }[];
  const runId = runs.find((run) => run.instant_crawl_request_id === requestId)!.id;
  return {
    ...tenant,
    label,
    site,
    apiKeyId: keys[0]!.id,
    runId,
    requestId,
    requestId2: 0,
    activeRequestId: 0,
    searchServiceId,
    settingId,
    downloadString,
    webhookId,
    deliveryId: delivery.id,
    webhookSecret,
  };
}

before(async () => {
  [siteA, siteB] = await Promise.all([startSite(LABEL_A), startSite(LABEL_B)]);
  kumo = await startTestService({ clock });
  const tenantB = await kumo.createTenant('tenant-b');
  [A, B] = await Promise.all([provision(kumo.tenant, LABEL_A, siteA), provision(tenantB, LABEL_B, siteB)]);

  // C: a second service group of B's contract, with its own key and nothing else.
  const store = kumo.service.store;
  const now = systemClock.nowMicros();
  const groupC = await store.tenants.createServiceGroup(B.contractId, 'tenant-c', now);
  const refC = { contractId: B.contractId, servicegroupId: groupC.id };
  const keyC = `kumo_test_c_${'c'.repeat(24)}`;
  const keyRecord = await store.apiKeys.insert(refC, hashApiKey(keyC), apiKeyPrefix(keyC), 'c key', now);
  C = {
    ...refC,
    apiKey: keyC,
    crawlerPath: crawlerPathOf(refC),
    label: { name: 'cassowary', titles: ['-', '-'], word: '-', rare: '-' },
    apiKeyId: keyRecord.id,
    runId: 0,
    requestId: 0,
    requestId2: 0,
    activeRequestId: 0,
    searchServiceId: 0,
    settingId: 0,
    downloadString: '',
    webhookId: 0,
    deliveryId: 0,
    webhookSecret: '',
  };

  const extra = await admin('POST', `${adminGroup(B)}/api_keys`, { label: 'revoked' });
  revokedKeyOfB = extra.json.api_key as string;
  const revoked = await kumo.inject({
    method: 'DELETE',
    url: `${adminGroup(B)}/api_keys/${extra.json.api_key_id as number}`,
    headers: ADMIN,
  });
  assert.equal(revoked.statusCode, 200, revoked.body);

  A.requestId2 = await kumo.requestCrawl({ seed_urls: [`${siteA.origin}/second.html`], depth_limit: 0 });
  await kumo.waitForFinished(A.requestId2);
  // Running for a minute: the second page waits for the download_delay.
  A.activeRequestId = await kumo.requestCrawl({
    seed_urls: [`${siteA.origin}/slow/start.html`],
    depth_limit: 1,
    download_delay: 60,
  });
  await kumo.waitForStatus(A.activeRequestId, (status) => status.crawl_execution_status_dtype_id === 2020);

  configOfA = (await admin('GET', `${adminGroup(A)}/search_services/${A.searchServiceId}`)).json
    .search_service.config;
  const deliveries = (await admin('GET', `${adminGroup(A)}/webhooks/${A.webhookId}/deliveries`)).json
    .deliveries as { id: number; state: string; attempts: number }[];
  deliveryOfA = deliveries.find((one) => one.id === A.deliveryId)!;
});

after(async () => {
  await kumo?.close();
  siteA?.server.close();
  siteB?.server.close();
});

// ---------------------------------------------------------------- the table

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface Row {
  name: string;
  method: Method;
  url: string;
  headers?: Record<string, string>;
  payload?: object;
  expectStatus: number | readonly number[];
  /** Tenants whose data the answer must not contain; empty for a control row (the owner asking). */
  victims: readonly World[];
  /** Further checks of the answer. */
  check?: (response: InjectResult) => void;
  /**
   * The same request with a never-issued id in place of the foreign one: the answers must be the
   * same (status and body, the id aside), so a foreign id cannot be told from an unknown one.
   */
  twin?: { url: string; foreignId: number; payload?: object };
}

/** An id no resource has. */
const UNKNOWN_ID = 999_999;

/** Strings by which a tenant's data would show in an answer. */
function markersOf(world: World): string[] {
  const markers = [
    ...world.label.titles,
    world.label.word,
    world.label.rare,
    `${world.label.name}-search`,
    `${world.label.name}-setting`,
    world.apiKey,
  ];
  if (world.site) markers.push(world.site.origin.replace('http://', ''));
  if (world.downloadString) markers.push(world.downloadString);
  if (world.webhookSecret) markers.push(world.webhookSecret);
  return markers.filter((marker) => marker !== '-');
}

function statusOk(row: Row, response: InjectResult): void {
  const expected = typeof row.expectStatus === 'number' ? [row.expectStatus] : row.expectStatus;
  assert.ok(
    expected.includes(response.statusCode),
    `${row.method} ${row.url}: expected ${expected.join(' or ')}, got ${response.statusCode}: ${response.body}`,
  );
  if (response.statusCode >= 400 && response.statusCode !== 405) {
    assert.equal(response.json?.status, 'NG', `failure body: ${response.body}`);
  }
}

function assertNoLeak(row: Row, response: InjectResult): void {
  const asked = `${row.url} ${JSON.stringify(row.payload ?? {})} ${JSON.stringify(row.headers ?? {})}`;
  const answered = `${JSON.stringify(response.headers)}\n${response.body}`;
  for (const victim of row.victims) {
    for (const marker of markersOf(victim)) {
      if (asked.includes(marker)) continue;
      assert.ok(
        !answered.includes(marker),
        `${row.name}: the answer reveals ${JSON.stringify(marker)}: ${answered}`,
      );
    }
  }
}

/** A list answer of B's (or C's) must not name a resource id of the victim. */
const listWithout =
  (member: string, ...ids: number[]) =>
  (response: InjectResult): void => {
    const listed = (response.json[member] as { id: number }[]).map((one) => one.id);
    for (const id of ids)
      assert.ok(!listed.includes(id), `${member} lists foreign id ${id}: ${response.body}`);
  };

const emptyStatuses = (response: InjectResult): void => {
  assert.deepEqual(response.json.crawl_status, {}, response.body);
  assert.deepEqual(response.json.crawl_statuses, [], response.body);
};
const emptyHistories = (response: InjectResult): void => {
  assert.deepEqual(response.json.crawl_histories, [], response.body);
};
const noRedirect = (response: InjectResult): void => {
  assert.equal(response.headers.location, undefined, 'no Location');
};

/** The instant crawl API, by path tenant and request id. */
const INSTANT_ENDPOINTS: {
  name: string;
  method: Method;
  url: (t: TestTenant | World, requestId: number) => string;
  payload?: () => object;
  /** What the owner's path with a foreign id answers: not found, or the empty answer of an unknown id. */
  foreign: { status: number; check?: (response: InjectResult) => void };
}[] = [
  {
    name: 'request',
    method: 'POST',
    url: (t) => `${crawlerPathOf(t)}/request`,
    payload: () => ({ setting: { seed_urls: [`${siteB.origin}/`], depth_limit: 0 } }),
    foreign: { status: 0 },
  },
  {
    name: 'statuses',
    method: 'GET',
    url: (t, id) => `${crawlerPathOf(t)}/statuses?instant_crawl_request_ids=${id}`,
    foreign: { status: 200, check: emptyStatuses },
  },
  {
    name: 'cancel',
    method: 'PUT',
    url: (t, id) => `${crawlerPathOf(t)}/statuses/requests/${id}/cancel`,
    foreign: { status: 404 },
  },
  {
    name: 'histories',
    method: 'GET',
    url: (t, id) => `${crawlerPathOf(t)}/histories?instant_crawl_request_id=${id}`,
    foreign: { status: 200, check: emptyHistories },
  },
  {
    name: 'download',
    method: 'GET',
    url: (t, id) => downloadPathOf(t, id, 'url_list.csv.gz'),
    foreign: { status: 404 },
  },
];

/** Rows that refuse a key on a path that is not its tenant's, or no key at all. */
function keyedRows(): Row[] {
  const rows: Row[] = [];
  const mixed = [
    {
      name: "B's contract with A's service group",
      path: { contractId: B.contractId, servicegroupId: A.servicegroupId },
    },
    {
      name: "A's contract with B's service group",
      path: { contractId: A.contractId, servicegroupId: B.servicegroupId },
    },
  ];
  for (const endpoint of INSTANT_ENDPOINTS) {
    const base = (name: string) => `instant ${endpoint.name}: ${name}`;
    const of = (t: TestTenant | World, id: number, headers: Record<string, string>) => ({
      method: endpoint.method,
      url: endpoint.url(t, id),
      headers,
      ...(endpoint.payload ? { payload: endpoint.payload() } : {}),
    });
    rows.push(
      { name: base('no key on A'), ...of(A, A.requestId, {}), expectStatus: 401, victims: [A] },
      { name: base('empty key on A'), ...of(A, A.requestId, key('')), expectStatus: 401, victims: [A] },
      {
        name: base('unknown key on A'),
        ...of(A, A.requestId, key(UNKNOWN_KEY)),
        expectStatus: 401,
        victims: [A],
      },
      {
        name: base('admin token instead of a key on A'),
        ...of(A, A.requestId, { ...ADMIN }),
        expectStatus: 401,
        victims: [A],
      },
      {
        name: base("B's key on A's path"),
        ...of(A, A.requestId, key(B.apiKey)),
        expectStatus: 403,
        victims: [A],
      },
      {
        name: base("B's key on A's path, A's running request"),
        ...of(A, A.activeRequestId, key(B.apiKey)),
        expectStatus: 403,
        victims: [A],
      },
      {
        name: base("A's key on B's path"),
        ...of(B, B.requestId, key(A.apiKey)),
        expectStatus: 403,
        victims: [B],
      },
      {
        name: base("C's key on B's path (same contract)"),
        ...of(B, B.requestId, key(C.apiKey)),
        expectStatus: 403,
        victims: [B],
      },
      {
        name: base("B's key on C's path (same contract)"),
        ...of(C, B.requestId, key(B.apiKey)),
        expectStatus: 403,
        victims: [B],
      },
      ...mixed.map(({ name, path }) => ({
        name: base(`B's key on ${name}`),
        ...of({ ...B, ...path }, A.requestId, key(B.apiKey)),
        expectStatus: 403,
        victims: [A],
      })),
      ...['01', '1.0', '1e0'].map((spelling) => ({
        name: base(`B's key on A's path with ids spelled ${spelling}`),
        ...of(A, A.requestId, key(B.apiKey)),
        url: endpoint
          .url(A, A.requestId)
          .replace('/contracts/1/servicegroups/1/', `/contracts/${spelling}/servicegroups/${spelling}/`),
        expectStatus: [400, 403],
        victims: [A],
      })),
      {
        name: base("B's revoked key on B's path"),
        ...of(B, B.requestId, key(revokedKeyOfB)),
        expectStatus: 401,
        victims: [B],
      },
    );
    if (endpoint.foreign.status !== 0) {
      const { status, check } = endpoint.foreign;
      rows.push(
        {
          name: base("B's key on B's path with A's request id"),
          ...of(B, A.requestId, key(B.apiKey)),
          expectStatus: status,
          victims: [A],
          check,
          twin: { url: endpoint.url(B, UNKNOWN_ID), foreignId: A.requestId },
        },
        {
          name: base("B's key on B's path with A's running request id"),
          ...of(B, A.activeRequestId, key(B.apiKey)),
          expectStatus: status,
          victims: [A],
          check,
          twin: { url: endpoint.url(B, UNKNOWN_ID), foreignId: A.activeRequestId },
        },
        {
          name: base("C's key on C's path with B's request id (same contract)"),
          ...of(C, B.requestId, key(C.apiKey)),
          expectStatus: status,
          victims: [B],
          check,
          twin: { url: endpoint.url(C, UNKNOWN_ID), foreignId: B.requestId },
        },
      );
      rows.push({
        name: base("control: A's key on A's path"),
        ...of(A, A.requestId, key(A.apiKey)),
        expectStatus: endpoint.name === 'download' ? 302 : 200,
        victims: [],
      });
    }
  }
  rows.push(
    {
      name: "instant statuses: B's list without ids does not show A's running request",
      method: 'GET',
      url: `${crawlerPathOf(B)}/statuses`,
      headers: key(B.apiKey),
      expectStatus: 200,
      victims: [A],
      check: emptyStatuses,
    },
    {
      name: "instant histories: B's list without filter shows none of A's requests",
      method: 'GET',
      url: `${crawlerPathOf(B)}/histories`,
      headers: key(B.apiKey),
      expectStatus: 200,
      victims: [A],
      check: (response) => {
        const ids = (response.json.crawl_histories as { instant_crawl_request_id: number }[]).map(
          (one) => one.instant_crawl_request_id,
        );
        assert.deepEqual(ids, [B.requestId], response.body);
      },
    },
  );
  return rows;
}

/** Signed download URLs: one signature of A's url_list, reused elsewhere. */
async function signedRows(): Promise<Row[]> {
  const first = await kumo.inject({
    method: 'GET',
    url: downloadPathOf(A, A.requestId, 'url_list.csv.gz'),
    headers: key(A.apiKey),
  });
  assert.equal(first.statusCode, 302, first.body);
  const signed = new URL(String(first.headers.location));
  const query = signed.search;
  const expires = signed.searchParams.get('expires')!;
  const signature = signed.searchParams.get('signature')!;
  const row = (
    name: string,
    url: string,
    expectStatus: number,
    headers: Record<string, string> = {},
  ): Row => ({
    name: `signed download: ${name}`,
    method: 'GET',
    url,
    headers,
    expectStatus,
    victims: expectStatus === 200 ? [] : [A],
  });
  return [
    row('control: the signed URL serves the file', `${signed.pathname}${query}`, 200),
    row('reused for another file', `${downloadPathOf(A, A.requestId, 'crawl_objects.tar.gz')}${query}`, 403),
    row("reused for A's other request", `${downloadPathOf(A, A.requestId2, 'url_list.csv.gz')}${query}`, 403),
    row(
      "reused on B's path with B's request",
      `${downloadPathOf(B, B.requestId, 'url_list.csv.gz')}${query}`,
      403,
    ),
    row(
      "reused on B's path with A's request",
      `${downloadPathOf(B, A.requestId, 'url_list.csv.gz')}${query}`,
      403,
    ),
    row(
      "reused on C's path with B's request",
      `${downloadPathOf(C, B.requestId, 'url_list.csv.gz')}${query}`,
      403,
    ),
    row(
      "reused for B's request with B's key",
      `${downloadPathOf(B, B.requestId, 'crawl_objects.tar.gz')}${query}`,
      403,
      key(B.apiKey),
    ),
    row(
      'with a later expires',
      `${signed.pathname}?expires=${Number(expires) + 3600}&signature=${signature}`,
      403,
    ),
    row('signature without expires', `${signed.pathname}?signature=${signature}`, 403),
    row('expires without signature', `${signed.pathname}?expires=${expires}`, 403),
    row(
      'with a flipped signature digit',
      `${signed.pathname}?expires=${expires}&signature=${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`,
      403,
    ),
  ];
}

/** The scheduled crawler API and its downloads: no key, the path and the generated string decide. */
function scheduledRows(): Row[] {
  const rows: Row[] = [];
  type Path = { contractId: number; servicegroupId: number };
  const mixedBA: Path = { contractId: B.contractId, servicegroupId: A.servicegroupId };
  const mixedAB: Path = { contractId: A.contractId, servicegroupId: B.servicegroupId };
  for (const leaf of ['histories', 'settings', 'schedule']) {
    const get = (name: string, path: Path, owner: World, headers: Record<string, string> = {}): Row => ({
      name: `scheduled ${leaf}: ${name}`,
      method: 'GET',
      url: scheduledPath(path, owner.settingId, leaf),
      headers,
      expectStatus: 404,
      victims: [owner],
      twin: { url: scheduledPath(path, UNKNOWN_ID, leaf), foreignId: owner.settingId },
    });
    rows.push(
      {
        name: `scheduled ${leaf}: control: A's setting on A's path`,
        method: 'GET',
        url: scheduledPath(A, A.settingId, leaf),
        expectStatus: 200,
        victims: [],
      },
      get("A's setting on B's path", B, A),
      get("A's setting on B's path with B's key", B, A, key(B.apiKey)),
      get("B's setting on C's path (same contract)", C, B),
      get("B's setting on A's path", A, B),
      get("A's setting on B's contract with A's service group", mixedBA, A),
      get("A's setting on A's contract with B's service group", mixedAB, A),
    );
  }
  const flipped = `${A.downloadString.slice(0, -1)}${A.downloadString.endsWith('A') ? 'B' : 'A'}`;
  const download = (name: string, url: string, expectStatus: number, victims: World[]): Row => ({
    name: `scheduled download: ${name}`,
    method: 'GET',
    url,
    expectStatus,
    victims,
  });
  rows.push(
    download("control: A's generated string", `/crawler/${A.downloadString}/url_list.csv.gz`, 200, []),
    download('a guessed string', `/crawler/${'x'.repeat(A.downloadString.length)}/url_list.csv.gz`, 404, [
      A,
      B,
    ]),
    download("A's string with one character changed", `/crawler/${flipped}/url_list.csv.gz`, 404, [A]),
    download("A's string cut short", `/crawler/${A.downloadString.slice(0, 16)}/url_list.csv.gz`, 404, [A]),
  );
  return rows;
}

/** Site search: the path's contract and service group must own the search service. */
function searchRows(): Row[] {
  const rows: Row[] = [];
  const pageA = `${siteA.origin}/second.html`;
  const queryOf = (leaf: string, world: World) =>
    leaf === 'click'
      ? `?url=${encodeURIComponent(world === A ? pageA : `${siteB.origin}/second.html`)}&q=${world.label.word}`
      : leaf === 'related_keywords'
        ? `?q=${world.label.titles[0].split(' ')[1]!.toLowerCase()}`
        : `?q=${leaf === 'suggest' ? world.label.word.slice(0, 4) : world.label.word}`;
  type Path = { contractId: number; servicegroupId: number };
  const mixedBA: Path = { contractId: B.contractId, servicegroupId: A.servicegroupId };
  const mixedAB: Path = { contractId: A.contractId, servicegroupId: B.servicegroupId };
  for (const leaf of ['search', 'suggest', 'related_keywords', 'click']) {
    const get = (name: string, path: Path, owner: World): Row => ({
      name: `site ${leaf}: ${name}`,
      method: 'GET',
      url: `${finderPath(path, owner.searchServiceId, leaf)}${queryOf(leaf, owner)}`,
      expectStatus: 404,
      victims: [owner],
      check: noRedirect,
      twin: {
        url: `${finderPath(path, UNKNOWN_ID, leaf)}${queryOf(leaf, owner)}`,
        foreignId: owner.searchServiceId,
      },
    });
    rows.push(
      {
        name: `site ${leaf}: control: A's service on A's path`,
        method: 'GET',
        url: `${finderPath(A, A.searchServiceId, leaf)}${queryOf(leaf, A)}`,
        expectStatus: leaf === 'click' ? 302 : 200,
        victims: [],
        check: (response) => {
          if (leaf === 'click') assert.equal(response.headers.location, pageA);
          if (leaf === 'search') assert.ok(response.json.organic.hits >= 1, response.body);
          if (leaf === 'suggest') assert.ok(response.body.includes(A.label.word), response.body);
          if (leaf === 'related_keywords') assert.ok(response.body.includes(A.label.rare), response.body);
        },
      },
      get("A's service on B's path", B, A),
      get("B's service on C's path (same contract)", C, B),
      get("B's service on A's path", A, B),
      get("A's service on B's contract with A's service group", mixedBA, A),
      get("A's service on A's contract with B's service group", mixedAB, A),
    );
  }
  // B's own service knows nothing of A's pages.
  rows.push(
    {
      name: "site click: B's service never redirects to A's page",
      method: 'GET',
      url: `${finderPath(B, B.searchServiceId, 'click')}?url=${encodeURIComponent(pageA)}&q=${A.label.word}`,
      expectStatus: 404,
      victims: [A],
      check: noRedirect,
    },
    {
      name: "site search: B's service does not find A's word",
      method: 'GET',
      url: `${finderPath(B, B.searchServiceId, 'search')}?q=${A.label.word}`,
      expectStatus: 200,
      victims: [A],
      check: (response) => assert.equal(response.json.organic.hits, 0, response.body),
    },
    {
      name: "site suggest: B's service does not complete A's word",
      method: 'GET',
      url: `${finderPath(B, B.searchServiceId, 'suggest')}?q=${A.label.word.slice(0, 4)}`,
      expectStatus: 200,
      victims: [A],
    },
    {
      name: "site related_keywords: B's service does not offer A's words",
      method: 'GET',
      url: `${finderPath(B, B.searchServiceId, 'related_keywords')}?q=${B.label.word}&prefix=${A.label.rare.slice(0, 3)}`,
      expectStatus: 200,
      victims: [A],
    },
    {
      name: 'site health_check: public, tells nothing of any tenant',
      method: 'GET',
      url: '/api/v1.0/finder_service/health_check',
      expectStatus: 200,
      victims: [A, B],
    },
  );
  return rows;
}

/** Every management route, addressed at A's resources (payloads valid, so only auth decides). */
function adminRoutesOn(t: World): { method: Method; url: string; payload?: object; read: boolean }[] {
  const g = adminGroup(t);
  const settingBody = {
    name: 'replaced',
    setting: { seed_urls: [`${siteB.origin}/`] },
    schedule: { interval: 0 },
  };
  return [
    { method: 'GET', url: '/admin/v1/contracts', read: true },
    { method: 'POST', url: '/admin/v1/contracts', payload: { name: 'intruder' }, read: false },
    { method: 'GET', url: `/admin/v1/contracts/${t.contractId}`, read: true },
    { method: 'GET', url: `/admin/v1/contracts/${t.contractId}/servicegroups`, read: true },
    {
      method: 'POST',
      url: `/admin/v1/contracts/${t.contractId}/servicegroups`,
      payload: { name: 'intruder' },
      read: false,
    },
    { method: 'GET', url: g, read: true },
    { method: 'GET', url: `${g}/api_keys`, read: true },
    { method: 'POST', url: `${g}/api_keys`, payload: { label: 'intruder' }, read: false },
    { method: 'DELETE', url: `${g}/api_keys/${t.apiKeyId}`, read: false },
    { method: 'GET', url: `${g}/service_settings`, read: true },
    { method: 'POST', url: `${g}/service_settings`, payload: settingBody, read: false },
    { method: 'GET', url: `${g}/service_settings/${t.settingId}`, read: true },
    { method: 'PUT', url: `${g}/service_settings/${t.settingId}`, payload: settingBody, read: false },
    { method: 'DELETE', url: `${g}/service_settings/${t.settingId}`, read: false },
    { method: 'POST', url: `${g}/service_settings/${t.settingId}/run`, read: false },
    { method: 'POST', url: `${g}/service_settings/check`, payload: settingBody, read: false },
    { method: 'POST', url: `${g}/service_settings/${t.settingId}/check`, payload: settingBody, read: false },
    { method: 'POST', url: `${g}/service_settings/${t.settingId}/pause`, read: false },
    { method: 'POST', url: `${g}/service_settings/${t.settingId}/resume`, read: false },
    { method: 'GET', url: `${g}/runs`, read: true },
    { method: 'POST', url: `${g}/runs`, payload: { setting: settingBody.setting }, read: false },
    { method: 'GET', url: `${g}/runs/${t.runId}`, read: true },
    { method: 'POST', url: `${g}/runs/${t.runId}/cancel`, read: false },
    { method: 'GET', url: `${g}/runs/${t.runId}/events`, read: true },
    { method: 'GET', url: `${g}/runs/${t.runId}/urls`, read: true },
    { method: 'GET', url: `${g}/runs/${t.runId}/urls/1`, read: true },
    { method: 'GET', url: `${g}/runs/${t.runId}/report`, read: true },
    { method: 'GET', url: `${g}/runs/${t.runId}/screenshots`, read: true },
    { method: 'GET', url: `${g}/runs/${t.runId}/screenshots/1`, read: false },
    { method: 'GET', url: `${g}/runs/${t.runId}/files/url_list.csv.gz`, read: true },
    { method: 'GET', url: `${g}/search_services`, read: true },
    { method: 'POST', url: `${g}/search_services`, payload: { name: 'intruder' }, read: false },
    { method: 'GET', url: `${g}/search_services/${t.searchServiceId}`, read: true },
    { method: 'GET', url: `${g}/search_services/${t.searchServiceId}/status`, read: true },
    { method: 'GET', url: `${g}/search_services/${t.searchServiceId}/analytics`, read: true },
    { method: 'GET', url: `${g}/search_services/${t.searchServiceId}/analytics.csv`, read: true },
    {
      method: 'POST',
      url: `${g}/search_services/${t.searchServiceId}/facet_preview`,
      payload: { config: {} },
      read: false,
    },
    {
      method: 'PUT',
      url: `${g}/search_services/${t.searchServiceId}`,
      payload: { config: { allowed_origins: ['https://intruder.example'] } },
      read: false,
    },
    { method: 'GET', url: `${g}/webhooks`, read: true },
    {
      method: 'POST',
      url: `${g}/webhooks`,
      payload: { url: 'https://intruder.example/hook', secret: 'intruder-secret-0123456789' },
      read: false,
    },
    { method: 'GET', url: `${g}/webhooks/${t.webhookId}`, read: true },
    { method: 'DELETE', url: `${g}/webhooks/${t.webhookId}`, read: false },
    { method: 'GET', url: `${g}/webhooks/${t.webhookId}/deliveries`, read: true },
    { method: 'POST', url: `${g}/webhooks/${t.webhookId}/ping`, read: false },
    { method: 'POST', url: `${g}/webhooks/${t.webhookId}/deliveries/${t.deliveryId}/replay`, read: false },
    // The console's accounts of the contract, and a session's own resources (no session here).
    { method: 'GET', url: `/admin/v1/contracts/${t.contractId}/users`, read: true },
    {
      method: 'POST',
      url: `/admin/v1/contracts/${t.contractId}/invitations`,
      payload: { email: 'intruder@example.com', role: 'owner' },
      read: false,
    },
    { method: 'DELETE', url: `/admin/v1/contracts/${t.contractId}/users/1/sessions`, read: false },
    {
      method: 'PUT',
      url: `/admin/v1/contracts/${t.contractId}/users/1/role`,
      payload: { role: 'viewer' },
      read: false,
    },
    { method: 'DELETE', url: `/admin/v1/contracts/${t.contractId}/users/1`, read: false },
    { method: 'GET', url: `/admin/v1/contracts/${t.contractId}/users/1/sessions`, read: false },
    { method: 'DELETE', url: `/admin/v1/contracts/${t.contractId}/users/1/sessions/1`, read: false },
    { method: 'GET', url: `/admin/v1/contracts/${t.contractId}/audit_log`, read: true },
    { method: 'GET', url: '/admin/v1/session', read: false },
    { method: 'GET', url: '/admin/v1/operator_session', read: false },
    { method: 'DELETE', url: '/admin/v1/operator_session', read: false },
    { method: 'GET', url: '/admin/v1/operator_session/sessions', read: true },
    { method: 'DELETE', url: '/admin/v1/operator_session/sessions/1', read: false },
    { method: 'GET', url: '/admin/v1/contracts/usage', read: true },
    { method: 'DELETE', url: '/admin/v1/session', read: false },
    {
      method: 'PUT',
      url: '/admin/v1/session/password',
      payload: { current_password: 'intruder-password', new_password: 'intruder-password-2' },
      read: false,
    },
    { method: 'GET', url: '/admin/v1/session/sessions', read: false },
    { method: 'DELETE', url: '/admin/v1/session/sessions/1', read: false },
  ];
}

/** The management API: the bearer token only (no tenant key), and ids only under their own path. */
function adminRows(): Row[] {
  const rows: Row[] = [];
  for (const route of adminRoutesOn(A)) {
    const base = (name: string) => `admin ${route.method} ${route.url.replace(/\/\d+/g, '/{id}')}: ${name}`;
    const of = { method: route.method, url: route.url, ...(route.payload ? { payload: route.payload } : {}) };
    rows.push(
      { name: base('no token'), ...of, headers: {}, expectStatus: 401, victims: [A] },
      {
        name: base("A's API key in x-mf-apikey"),
        ...of,
        headers: key(A.apiKey),
        expectStatus: 401,
        victims: [A],
      },
      {
        name: base("B's API key as bearer"),
        ...of,
        headers: { authorization: `Bearer ${B.apiKey}` },
        expectStatus: 401,
        victims: [A],
      },
      {
        name: base('a wrong bearer'),
        ...of,
        headers: { authorization: 'Bearer kumo_wrong_token' },
        expectStatus: 401,
        victims: [A],
      },
    );
    if (route.read)
      rows.push({
        name: base("control: admin on A's path"),
        ...of,
        headers: ADMIN,
        expectStatus: 200,
        victims: [],
      });
  }

  // Signing in and accepting an invitation take no credentials: a guess is refused.
  rows.push(
    {
      name: 'admin POST /admin/v1/session: a guessed password',
      method: 'POST',
      url: '/admin/v1/session',
      payload: { email: 'owner@example.com', password: 'a guessed password' },
      expectStatus: 401,
      victims: [A],
    },
    {
      name: 'admin POST /admin/v1/operator_session: a guessed admin token',
      method: 'POST',
      url: '/admin/v1/operator_session',
      payload: { admin_token: 'a guessed admin token' },
      expectStatus: 401,
      victims: [A],
    },
    {
      name: 'admin POST /admin/v1/invitations/accept: a guessed token',
      method: 'POST',
      url: '/admin/v1/invitations/accept',
      payload: { token: 'a'.repeat(43), password: 'a long enough password' },
      expectStatus: 400,
      victims: [A],
    },
  );

  // A's resources (and B's, from C) under another service group's path.
  const foreign = (
    name: string,
    method: Method,
    url: string,
    victims: World[],
    payload?: object,
    expectStatus: number | readonly number[] = 404,
    check?: Row['check'],
  ): Row => ({
    name: `admin foreign id: ${name}`,
    method,
    url,
    headers: ADMIN,
    ...(payload ? { payload } : {}),
    expectStatus,
    victims,
    check,
  });
  const settingBody = (serviceId?: number) => ({
    name: 'replaced',
    setting: { seed_urls: [`${siteB.origin}/`] },
    schedule: { interval: 0 },
    ...(serviceId === undefined ? {} : { service_id: serviceId }),
  });
  const pairs: { owner: World; path: { contractId: number; servicegroupId: number }; pathName: string }[] = [
    { owner: A, path: B, pathName: "A's on B's path" },
    { owner: B, path: C, pathName: "B's on C's path (same contract)" },
    {
      owner: A,
      path: { contractId: B.contractId, servicegroupId: A.servicegroupId },
      pathName: "A's on B's contract with A's group",
    },
    {
      owner: A,
      path: { contractId: A.contractId, servicegroupId: B.servicegroupId },
      pathName: "A's on A's contract with B's group",
    },
  ];
  const reads: Row[] = [];
  const writes: Row[] = [];
  /** A row on the resource `id` of `owner`, with its twin on a never-issued id. */
  const byId = (
    name: string,
    method: Method,
    url: (id: number) => string,
    id: number,
    owner: World,
    payload?: object,
  ): Row => ({
    ...foreign(name, method, url(id), [owner], payload),
    twin: { url: url(UNKNOWN_ID), foreignId: id },
  });
  for (const { owner, path, pathName } of pairs) {
    const g = adminGroup(path);
    const searchConfig = { config: { allowed_origins: ['https://intruder.example'] } };
    reads.push(
      byId(`GET setting, ${pathName}`, 'GET', (id) => `${g}/service_settings/${id}`, owner.settingId, owner),
      byId(
        `GET search service, ${pathName}`,
        'GET',
        (id) => `${g}/search_services/${id}`,
        owner.searchServiceId,
        owner,
      ),
      byId(`GET webhook, ${pathName}`, 'GET', (id) => `${g}/webhooks/${id}`, owner.webhookId, owner),
      byId(
        `GET deliveries, ${pathName}`,
        'GET',
        (id) => `${g}/webhooks/${id}/deliveries`,
        owner.webhookId,
        owner,
      ),
    );
    writes.push(
      byId(
        `PUT setting, ${pathName}`,
        'PUT',
        (id) => `${g}/service_settings/${id}`,
        owner.settingId,
        owner,
        settingBody(),
      ),
      byId(
        `POST run, ${pathName}`,
        'POST',
        (id) => `${g}/service_settings/${id}/run`,
        owner.settingId,
        owner,
      ),
      byId(
        `PUT search service, ${pathName}`,
        'PUT',
        (id) => `${g}/search_services/${id}`,
        owner.searchServiceId,
        owner,
        searchConfig,
      ),
      byId(
        `POST replay, ${pathName}`,
        'POST',
        (id) => `${g}/webhooks/${id}/deliveries/${owner.deliveryId}/replay`,
        owner.webhookId,
        owner,
      ),
      byId(
        `DELETE setting, ${pathName}`,
        'DELETE',
        (id) => `${g}/service_settings/${id}`,
        owner.settingId,
        owner,
      ),
      byId(`DELETE webhook, ${pathName}`, 'DELETE', (id) => `${g}/webhooks/${id}`, owner.webhookId, owner),
      byId(`DELETE api key, ${pathName}`, 'DELETE', (id) => `${g}/api_keys/${id}`, owner.apiKeyId, owner),
    );
  }
  // Group paths that do not exist: a service group of another contract.
  for (const { path, pathName } of pairs.slice(2)) {
    for (const leaf of ['', '/api_keys', '/service_settings', '/search_services', '/webhooks']) {
      reads.push(
        foreign(
          `GET group${leaf} of ${pathName.replace("A's on ", '')}`,
          'GET',
          `${adminGroup(path)}${leaf}`,
          [A, B],
        ),
      );
    }
  }
  // Ids of one tenant inside the other's resources, and references to another tenant's service.
  reads.push(
    foreign(
      "GET deliveries: B's webhook path, A's delivery id is not listed",
      'GET',
      `${adminGroup(B)}/webhooks/${B.webhookId}/deliveries`,
      [A],
      undefined,
      200,
      listWithout('deliveries', A.deliveryId),
    ),
  );
  writes.push(
    byId(
      "POST replay of A's delivery under B's webhook",
      'POST',
      (id) => `${adminGroup(B)}/webhooks/${B.webhookId}/deliveries/${id}/replay`,
      A.deliveryId,
      A,
    ),
    {
      ...foreign(
        "POST setting on B's path feeding A's search service",
        'POST',
        `${adminGroup(B)}/service_settings`,
        [A],
        settingBody(A.searchServiceId),
        [400, 404],
      ),
      twin: {
        url: `${adminGroup(B)}/service_settings`,
        foreignId: A.searchServiceId,
        payload: settingBody(UNKNOWN_ID),
      },
    },
    {
      ...foreign(
        "PUT B's setting to feed A's search service",
        'PUT',
        `${adminGroup(B)}/service_settings/${B.settingId}`,
        [A],
        settingBody(A.searchServiceId),
        [400, 404],
      ),
      twin: {
        url: `${adminGroup(B)}/service_settings/${B.settingId}`,
        foreignId: A.searchServiceId,
        payload: settingBody(UNKNOWN_ID),
      },
    },
    foreign(
      "PUT C-path setting to feed B's search service",
      'PUT',
      `${adminGroup(C)}/service_settings/${B.settingId}`,
      [B],
      settingBody(B.searchServiceId),
      404,
    ),
  );
  // B's lists show nothing of A; C's show nothing of B.
  for (const [lister, owner] of [
    [B, A],
    [C, B],
  ] as const) {
    const g = adminGroup(lister);
    const list = (leaf: string, member: string, id: number): Row => ({
      name: `admin list: ${leaf} of ${lister === B ? 'B' : 'C'} shows nothing of ${owner === A ? 'A' : 'B'}`,
      method: 'GET',
      url: `${g}/${leaf}`,
      headers: ADMIN,
      expectStatus: 200,
      victims: [owner],
      check: listWithout(member, id),
    });
    reads.push(
      list('service_settings', 'service_settings', owner.settingId),
      list('search_services', 'search_services', owner.searchServiceId),
      list('webhooks', 'webhooks', owner.webhookId),
      list('api_keys', 'api_keys', owner.apiKeyId),
    );
  }
  return [...rows, ...reads, ...writes];
}

/**
 * Each row is a caller of its own, from an address of its own (127.1.x.y): the wrong tokens of
 * the intrusion rows would otherwise lock the test's one address out of the management API, as
 * 5 wrong admin tokens from an address do (docs/operations.md, Console security).
 */
let rowsSent = 0;
function callerAddress(): string {
  rowsSent += 1;
  return `127.1.${(rowsSent >> 8) & 255}.${rowsSent & 255}`;
}

/** Runs one row; returns the answer. */
async function runRow(row: Row): Promise<InjectResult> {
  const remoteAddress = callerAddress();
  const response = await kumo.inject({
    method: row.method,
    url: row.url,
    headers: row.headers ?? {},
    remoteAddress,
    ...(row.payload ? { payload: row.payload } : {}),
  });
  statusOk(row, response);
  assertNoLeak(row, response);
  row.check?.(response);
  if (row.twin) {
    const twin = await kumo.inject({
      method: row.method,
      url: row.twin.url,
      headers: row.headers ?? {},
      remoteAddress,
      ...(row.twin.payload ? { payload: row.twin.payload } : row.payload ? { payload: row.payload } : {}),
    });
    assert.equal(twin.statusCode, response.statusCode, `unknown id: ${twin.body}`);
    assert.equal(
      twin.body.replace(new RegExp(`\\b${UNKNOWN_ID}\\b`, 'g'), String(row.twin.foreignId)),
      response.body,
      'a foreign id answers like an unknown id',
    );
  }
  return response;
}

/** `{x}` templates of /docs/json as regular expressions over request paths. */
function templateMatcher(template: string): RegExp {
  const escaped = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/?]+');
  return new RegExp(`^${escaped}(?:\\?.*)?$`);
}

describe('tenant isolation table', () => {
  let table: Row[] = [];

  test('the fixture: A and B are provisioned, C shares B contract', () => {
    assert.equal(A.contractId, 1);
    assert.equal(A.servicegroupId, 1);
    assert.notEqual(B.contractId, A.contractId);
    assert.equal(C.contractId, B.contractId);
    assert.notEqual(C.servicegroupId, B.servicegroupId);
    // Generated download strings: at least 128 bits, URL-safe, distinct.
    for (const world of [A, B]) assert.match(world.downloadString, /^[A-Za-z0-9_-]{22,}$/);
    assert.notEqual(A.downloadString, B.downloadString);
  });

  test('every row answers as decided and reveals nothing of the victim', async (t) => {
    table = [...keyedRows(), ...(await signedRows()), ...scheduledRows(), ...searchRows(), ...adminRows()];
    const names = new Set<string>();
    for (const row of table) {
      assert.ok(!names.has(row.name), `duplicate row name ${row.name}`);
      names.add(row.name);
    }
    for (const row of table) {
      await t.test(row.name, async () => {
        await runRow(row);
      });
    }
    t.diagnostic(`${table.length} rows`);
  });

  test('every documented route has at least one refusing row', async () => {
    const docs = await kumo.inject({ method: 'GET', url: '/docs/json' });
    assert.equal(docs.statusCode, 200);
    const missing: string[] = [];
    let operations = 0;
    for (const [template, item] of Object.entries(
      docs.json.paths as Record<string, Record<string, unknown>>,
    )) {
      const matcher = templateMatcher(template);
      for (const method of Object.keys(item).filter((m) =>
        ['get', 'post', 'put', 'delete', 'patch'].includes(m),
      )) {
        operations += 1;
        const covered = table.some(
          (row) => row.method === method.toUpperCase() && matcher.test(row.url) && row.victims.length > 0,
        );
        if (!covered) missing.push(`${method.toUpperCase()} ${template}`);
      }
    }
    assert.ok(operations >= 30, `only ${operations} documented operations`);
    assert.deepEqual(missing, [], 'documented routes without an isolation row');
  });

  test('nothing of A changed: key, setting, run, search service, webhook, delivery, live crawl', async () => {
    // A's key still works, and no refused request started or cancelled a run.
    const histories = await kumo.inject({
      method: 'GET',
      url: `${crawlerPathOf(A)}/histories`,
      headers: key(A.apiKey),
    });
    assert.equal(histories.statusCode, 200, histories.body);
    assert.deepEqual(
      (histories.json.crawl_histories as { instant_crawl_request_id: number }[])
        .map((one) => one.instant_crawl_request_id)
        .sort((x, y) => x - y),
      [A.requestId, A.requestId2].sort((x, y) => x - y),
    );
    const live = await kumo.inject({
      method: 'GET',
      url: `${crawlerPathOf(A)}/statuses?instant_crawl_request_ids=${A.activeRequestId}`,
      headers: key(A.apiKey),
    });
    assert.equal(live.json.crawl_status.crawl_execution_status_dtype_id, 2020, live.body);
    assert.equal(live.json.crawl_status.is_cancel_request, false, live.body);
    const historiesB = await kumo.inject({
      method: 'GET',
      url: `${crawlerPathOf(B)}/histories`,
      headers: key(B.apiKey),
    });
    assert.equal(historiesB.json.crawl_histories.length, 1, historiesB.body);
    assert.deepEqual(
      (await kumo.inject({ method: 'GET', url: `${crawlerPathOf(B)}/statuses`, headers: key(B.apiKey) })).json
        .crawl_statuses,
      [],
      'no refused request queued a run for B',
    );

    const g = adminGroup(A);
    const keys = (await admin('GET', `${g}/api_keys`)).json.api_keys as {
      id: number;
      revoked_datetime: null;
    }[];
    assert.deepEqual(
      keys.map((one) => [one.id, one.revoked_datetime]),
      [[A.apiKeyId, null]],
    );
    const setting = (await admin('GET', `${g}/service_settings/${A.settingId}`)).json.service_setting;
    assert.equal(setting.name, `${LABEL_A.name}-setting`);
    assert.equal(setting.service_id, A.searchServiceId);
    assert.equal(setting.active_run_id, null, 'no run of A started');
    assert.deepEqual(setting.setting.seed_urls, [`${siteA.origin}/`]);
    const runs = await kumo.inject({ method: 'GET', url: scheduledPath(A, A.settingId, 'histories') });
    assert.equal(runs.json.contents.length, 1, runs.body);
    const service = (await admin('GET', `${g}/search_services/${A.searchServiceId}`)).json.search_service;
    assert.deepEqual(service.config, configOfA);
    await admin('GET', `${g}/webhooks/${A.webhookId}`);
    const deliveries = (await admin('GET', `${g}/webhooks/${A.webhookId}/deliveries`)).json.deliveries as {
      id: number;
      state: string;
      attempts: number;
    }[];
    const delivery = deliveries.find((one) => one.id === A.deliveryId);
    assert.deepEqual(
      { state: delivery?.state, attempts: delivery?.attempts },
      {
        state: deliveryOfA.state,
        attempts: deliveryOfA.attempts,
      },
    );
    const stillSearchable = await kumo.inject({
      method: 'GET',
      url: `${finderPath(A, A.searchServiceId, 'search')}?q=${LABEL_A.word}`,
    });
    assert.ok(stillSearchable.json.organic.hits >= 1, stillSearchable.body);

    // The owner can cancel its live run (the cancel rows above were refused, not broken).
    const cancel = await kumo.inject({
      method: 'PUT',
      url: `${crawlerPathOf(A)}/statuses/requests/${A.activeRequestId}/cancel`,
      headers: key(A.apiKey),
    });
    assert.equal(cancel.statusCode, 200, cancel.body);
    assert.equal(cancel.json.status, 'OK', cancel.body);
  });
});

describe('webhook events', () => {
  test("each tenant's receiver gets only its own tenant's run events", async () => {
    await pollUntil('B to receive its four events', () => (siteB.hooks.length >= 4 ? true : undefined));
    await pollUntil('A to receive its six events', () => (siteA.hooks.length >= 6 ? true : undefined));
    for (const [world, site, other] of [
      [A, siteA, B],
      [B, siteB, A],
    ] as const) {
      const requestIds = [world.requestId, world.requestId2, world.activeRequestId].filter((id) => id > 0);
      for (const event of site.hooks) {
        assert.equal(event.contract_id, world.contractId, JSON.stringify(event));
        assert.equal(event.servicegroup_id, world.servicegroupId, JSON.stringify(event));
        if ('instant_crawl_request_id' in event) {
          assert.ok(requestIds.includes(event.instant_crawl_request_id as number), JSON.stringify(event));
        } else {
          assert.equal(event.service_setting_id, world.settingId, JSON.stringify(event));
        }
        const text = JSON.stringify(event);
        for (const marker of markersOf(other)) assert.ok(!text.includes(marker), `${marker} in ${text}`);
      }
    }
    assert.equal(siteB.hooks.length, 4, JSON.stringify(siteB.hooks));
  });
});

describe('signed download expiry', () => {
  test('a signed URL serves until 30 s after signing and is refused after that', async () => {
    const first = await kumo.inject({
      method: 'GET',
      url: downloadPathOf(A, A.requestId, 'url_list.csv.gz'),
      headers: key(A.apiKey),
    });
    assert.equal(first.statusCode, 302, first.body);
    const signed = new URL(String(first.headers.location));
    const url = `${signed.pathname}${signed.search}`;
    const expires = Number(signed.searchParams.get('expires'));
    const now = clock.nowMicros() / 1e6;
    assert.ok(expires > now + 28 && expires <= now + 30, `expires ${expires}, now ${now}`);

    clock.advanceSeconds(28);
    assert.equal((await kumo.inject({ method: 'GET', url })).statusCode, 200, 'still valid after 28 s');
    clock.advanceSeconds(3);
    const expired = await kumo.inject({ method: 'GET', url });
    assert.equal(expired.statusCode, 403, expired.body);
    assert.equal(expired.json.status, 'NG');
    // The key does not revive it either; a new 302 signs afresh.
    const withKey = await kumo.inject({ method: 'GET', url, headers: key(A.apiKey) });
    assert.equal(withKey.statusCode, 403, withKey.body);
    const again = await kumo.inject({
      method: 'GET',
      url: downloadPathOf(A, A.requestId, 'url_list.csv.gz'),
      headers: key(A.apiKey),
    });
    assert.equal(again.statusCode, 302);
    const fresh = new URL(String(again.headers.location));
    assert.equal(
      (await kumo.inject({ method: 'GET', url: `${fresh.pathname}${fresh.search}` })).statusCode,
      200,
    );
  });
});
