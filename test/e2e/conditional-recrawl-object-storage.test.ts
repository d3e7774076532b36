/**
 * Conditional re-crawls with the runs' files in an S3-compatible store (docs/reference/
 * crawl-rules.md, Conditional re-crawls; docs/operations.md, Object storage): the second run of a
 * scheduled setting asks each page with the validators the first run received, reading each
 * page's stored copy with one ranged GET of the first run's bundle object; a bundle object gone
 * before the next run makes its pages fetched whole, and the run still ends 2030.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { rm } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { S3Objects } from '../../src/blob/s3.js';
import { parseCsvText, readTar } from '../support/artifact-readers.js';
import { downloadRunFile, type RunHistory as History, runSettingOnce } from '../support/scheduled-runs.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { type RecordingProxy, startRecordingProxy } from '../support/recording-proxy.js';
import { startS3Server, type TestS3Server } from '../support/s3-server.js';
import {
  makeTempDir,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
} from '../support/service-harness.js';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const GROUP = '/admin/v1/contracts/1/servicegroups/1';
const PREFIX = 'e2e/recrawl';
const BUNDLE = 'crawl_objects.tar.gz';

const pages = new Map<string, string>([
  ['/', '<title>Tide office</title><p>harbour notices</p><a href="/tides.html">tides</a>'],
  ['/tides.html', '<title>Tides</title><p>spring tides at noon</p><a href="/deep/charts.html">charts</a>'],
  ['/deep/charts.html', '<title>Charts</title><p>nautical charts for sale</p>'],
]);
/** Each page request: its path, whether it carried a validator and the status it got. */
const requests: [string, boolean, number][] = [];
let s3: TestS3Server;
let proxy: RecordingProxy;
let site: LocalServer;
let dataDir: string;
let kumo: TestService;

before(async () => {
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    const body = pages.get(path);
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    const ifNoneMatch = request.headers['if-none-match'];
    const status = ifNoneMatch === etag ? 304 : 200;
    requests.push([path, ifNoneMatch !== undefined, status]);
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', etag });
    response.end(status === 304 ? undefined : body);
  });
  site = await listenLocally(server);
  s3 = await startS3Server();
  // The service reaches the store through a proxy that records its requests.
  proxy = await startRecordingProxy(s3.endpoint);
  dataDir = await makeTempDir();
  kumo = await startTestService({
    dataDir,
    env: { ...s3.env, AWS_ENDPOINT_URL_S3: proxy.baseUrl, KUMO_BLOB_URL: `s3://${s3.bucket}/${PREFIX}/` },
  });
});

after(async () => {
  await kumo?.close();
  await site?.close();
  await proxy?.close();
  await s3?.stop();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

const runOnce = (settingId: number, runs: number): Promise<History> => runSettingOnce(kumo, settingId, runs);

const download = (history: History, file: string): Promise<Buffer> => downloadRunFile(kumo, history, file);

/** The bundle objects in the bucket, by key. */
async function bundleKeys(): Promise<string[]> {
  const objects = await new S3Objects(s3.client, s3.bucket).list(`${PREFIX}/runs/`);
  return objects.map((object) => object.key).filter((key) => key.endsWith(`/${BUNDLE}`));
}

/** The service's GETs of bundle objects since the proxy's record was cleared. */
function bundleReads(): { key: string; range: string | undefined }[] {
  return proxy.requests
    .filter((request) => request.method === 'GET' && request.path.split('?')[0]!.endsWith(`/${BUNDLE}`))
    .map((request) => ({
      key: decodeURIComponent(request.path.split('?')[0]!).replace(`/${s3.bucket}/`, ''),
      range: request.range,
    }));
}

test('a second scheduled run reads the stored copies by range from object storage', async () => {
  const created = await kumo.inject({
    method: 'POST',
    url: `${GROUP}/service_settings`,
    headers: { ...ADMIN, 'content-type': 'application/json' },
    payload: {
      setting: { seed_urls: [`${site.baseUrl}/`], robots_txt: false, sitemaps: false },
      schedule: { interval: 0 },
      service_id: 1,
    },
  });
  assert.equal(created.statusCode, 200, created.body);
  const settingId = created.json.service_setting_id as number;
  const first = await runOnce(settingId, 1);
  assert.equal(first.crawl_execution_status_dtype_id, 2030, first.message);
  assert.ok(requests.every(([, validator, status]) => !validator && status === 200));
  const firstBundle = await readTar(await download(first, BUNDLE));
  const [firstKey] = await bundleKeys();
  assert.ok(firstKey !== undefined);

  pages.set(
    '/tides.html',
    '<title>Tides</title><p>neap tides at dusk</p><a href="/deep/charts.html">charts</a>',
  );
  requests.length = 0;
  proxy.requests.length = 0;
  // Documents are dated to the second (see conditional-recrawl.test.ts).
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const second = await runOnce(settingId, 2);
  assert.equal(second.crawl_execution_status_dtype_id, 2030, second.message);
  // Every page was asked with its validator; only the changed one was sent again.
  assert.deepEqual(requests.sort(), [
    ['/', true, 304],
    ['/deep/charts.html', true, 304],
    ['/tides.html', true, 200],
  ]);
  assert.match(
    second.message ?? '',
    /unchanged: 2 page\(s\) answered 304 Not Modified and kept the copy stored before/,
  );
  // Each page reached read its member of the first bundle with one ranged GET; none read it whole.
  const reads = bundleReads().filter((read) => read.key === firstKey);
  assert.equal(reads.length, 3, JSON.stringify(reads));
  assert.ok(
    reads.every((read) => /^bytes=\d+-\d+$/.test(read.range ?? '')),
    JSON.stringify(reads),
  );

  const rows = parseCsvText((await download(second, 'url_list.csv.gz')).toString('utf8')).slice(1);
  assert.deepEqual(rows.map((row) => [new URL(row[0]!).pathname, row[2], row[4]]).sort(), [
    ['/', 'true', '304'],
    ['/deep/charts.html', 'true', '304'],
    ['/tides.html', 'true', '200'],
  ]);
  // The kept pages' files are the stored copy: the same source as the first run's.
  const secondBundle = await readTar(await download(second, BUNDLE));
  const host = new URL(site.baseUrl).host;
  for (const folder of [`http/${host}/-/-/`, `http/${host}/deep/charts.html-/-/`]) {
    const source = secondBundle.get(`${folder}source.html`);
    assert.ok(source !== undefined, folder);
    assert.deepEqual(source, firstBundle.get(`${folder}source.html`), folder);
  }

  // The second run's bundle object is gone before the third run: its copies cannot be read, so
  // every page is fetched whole, and the run ends as usual.
  const secondKey = (await bundleKeys()).find((key) => key !== firstKey);
  assert.ok(secondKey !== undefined);
  await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: secondKey }));
  requests.length = 0;
  proxy.requests.length = 0;
  const third = await runOnce(settingId, 3);
  assert.equal(third.crawl_execution_status_dtype_id, 2030, third.message);
  assert.deepEqual(requests.sort(), [
    ['/', false, 200],
    ['/deep/charts.html', false, 200],
    ['/tides.html', false, 200],
  ]);
  assert.doesNotMatch(third.message ?? '', /unchanged:/);
  // The bundle's absence is found once, as the run starts, not page by page.
  assert.deepEqual(
    bundleReads().filter((read) => read.key === secondKey && read.range !== undefined),
    [],
  );
});
