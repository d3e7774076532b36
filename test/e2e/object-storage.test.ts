/**
 * The service with its artifacts in an S3-compatible store (docs/operations.md, Object storage):
 * a crawl's files are uploaded before the run is recorded ended, downloaded through Kumo's signed
 * URLs and through presigned object URLs, read by the console and `kumo index --run`, and removed
 * by retention; a store that refuses the upload ends the run 2040 with the reason.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { Agent, fetch as undiciFetch } from 'undici';
import { openArtifactStore } from '../../src/blob/index.js';
import { S3Objects } from '../../src/blob/s3.js';
import { dataPaths } from '../../src/config/index.js';
import { sweepExpiredArtifacts } from '../../src/usecases/index.js';
import { systemClock } from '../../src/util/index.js';
import { readTar } from '../support/artifact-readers.js';
import { runCli } from '../support/cli-runner.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';
import { startS3Server, type TestS3Server } from '../support/s3-server.js';
import {
  downloadArtifact,
  downloadPathOf,
  makeTempDir,
  parseCsv,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
} from '../support/service-harness.js';

const URL_LIST = 'url_list.csv.gz';
const OBJECTS = 'crawl_objects.tar.gz';
const PREFIX = 'e2e/kumo';
/** What the crawl stores: its default files (no link list) and the report. */
const STORED = ['crawl_objects.tar.gz', 'run-report.db', 'url_list.csv.gz'];

const PAGES: Record<string, string> = {
  '/': '<html><head><title>Home</title></head><body><a href="/guide">guide</a> <a href="/faq">faq</a></body></html>',
  '/guide':
    '<html><head><title>Guide</title></head><body><h1>Installer guide</h1><p>Run the installer.</p></body></html>',
  '/faq': '<html><head><title>FAQ</title></head><body><p>Questions and answers.</p></body></html>',
};

let s3: TestS3Server;
let site: LocalServer;
let dataDir: string;
let kumo: TestService | undefined;
let client: Agent;
let requestId: number;
let runId: number;

const blobUrl = { bucket: '', prefix: PREFIX };

async function startKumo(downloads: 'kumo' | 'presigned', bucket = s3.bucket): Promise<TestService> {
  return startTestService({
    dataDir,
    env: { ...s3.env, KUMO_BLOB_URL: `s3://${bucket}/${PREFIX}/`, KUMO_BLOB_DOWNLOADS: downloads },
  });
}

async function objectKeys(): Promise<string[]> {
  const listing = await new S3Objects(s3.client, s3.bucket).list(`${PREFIX}/runs/${runId}/`);
  return listing.map((object) => object.key.slice(`${PREFIX}/runs/${runId}/`.length)).sort();
}

/** The keyed request of a download, not followed. */
async function keyed(file: string): Promise<{ status: number; location: string | null }> {
  const answer = await undiciFetch(`${kumo!.url}${downloadPathOf(kumo!.tenant, requestId, file)}`, {
    headers: { 'x-mf-apikey': kumo!.apiKey },
    redirect: 'manual',
    dispatcher: client,
  });
  await answer.arrayBuffer();
  return { status: answer.status, location: answer.headers.get('location') };
}

/** The console's download of a run's file with the operator's token, not followed. */
async function consoleFile(file: string) {
  return undiciFetch(`${kumo!.url}/admin/v1/contracts/1/servicegroups/1/runs/${runId}/files/${file}`, {
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    redirect: 'manual',
    dispatcher: client,
  });
}

before(async () => {
  client = new Agent();
  s3 = await startS3Server();
  blobUrl.bucket = s3.bucket;
  site = await listenLocally(
    createServer((request, response) => {
      const body = PAGES[request.url ?? ''];
      if (body === undefined) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    }),
  );
  dataDir = await makeTempDir();
  kumo = await startKumo('kumo');
  requestId = await kumo.requestCrawl({ seed_urls: [`${site.baseUrl}/`], robots_txt: false });
  const history = await kumo.waitForFinished(requestId);
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  runId = (await kumo.service.store.runs.getByRequest(kumo.tenant, requestId))!.id;
});

after(async () => {
  await client?.close();
  await kumo?.close();
  await site?.close();
  await s3?.stop();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

const HEALTH = '/api/v1.0/finder_service/health_check';

test('the health check asks the bucket: it answers, so blob_store is OK', async () => {
  const health = await kumo!.inject({ method: 'GET', url: HEALTH });
  assert.equal(health.statusCode, 200, health.body);
  assert.deepEqual((health.json as { components: { blob_store: unknown } }).components.blob_store, {
    status: 'OK',
  });
});

describe('downloads through Kumo (KUMO_BLOB_DOWNLOADS=kumo)', () => {
  test('the ended run has its files in the bucket, and none left in the staging folder', async () => {
    assert.deepEqual(await objectKeys(), STORED);
    assert.equal(existsSync(path.join(dataPaths(dataDir).artifacts, String(runId))), false);
  });

  test('the signed URL streams url_list and the bundle from the bucket', async () => {
    const first = await keyed(URL_LIST);
    assert.equal(first.status, 302);
    assert.ok(first.location?.startsWith(`${kumo!.url}/`), first.location ?? '');
    const rows = parseCsv(
      (await downloadArtifact(kumo!.url, kumo!.apiKey, kumo!.tenant, requestId, URL_LIST)).toString('utf8'),
    );
    assert.deepEqual(
      rows
        .slice(1)
        .map((row) => row[0])
        .sort(),
      Object.keys(PAGES)
        .map((page) => `${site.baseUrl}${page}`)
        .sort(),
    );
    const tar = await readTar(
      await downloadArtifact(kumo!.url, kumo!.apiKey, kumo!.tenant, requestId, OBJECTS),
    );
    const guide = [...tar.entries()].find(
      ([name]) => name.endsWith('.html') && tar.get(name)!.toString().includes('Installer guide'),
    );
    assert.ok(guide, `the guide page in the bundle: ${[...tar.keys()].join(', ')}`);
  });

  test("the console reads the run's report from the bucket and streams its files", async () => {
    // Without the copy the publishing process kept, the report is downloaded again.
    await rm(path.join(dataPaths(dataDir).artifactCache, String(runId)), { recursive: true, force: true });
    const urls = await undiciFetch(`${kumo!.url}/admin/v1/contracts/1/servicegroups/1/runs/${runId}/urls`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, accept: 'application/json' },
      dispatcher: client,
    });
    assert.equal(urls.status, 200);
    assert.equal(((await urls.json()) as { matched: number }).matched, 3);
    assert.ok(existsSync(path.join(dataPaths(dataDir).artifactCache, String(runId), 'run-report.db')));
    const file = await consoleFile(URL_LIST);
    assert.equal(file.status, 200);
    assert.equal(parseCsv(gunzipSync(Buffer.from(await file.arrayBuffer())).toString('utf8')).length, 4);
  });

  test('kumo index --run reads the bundle from the bucket, printing nothing of the SDK', async () => {
    const indexed = await runCli(['index', '--service', '1', '--run', String(requestId)], 60_000, {
      ...s3.env,
      KUMO_DATA_DIR: dataDir,
      KUMO_BLOB_URL: `s3://${s3.bucket}/${PREFIX}`,
      // This process's own client set it; the command must quiet the SDK by itself.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: undefined,
    });
    assert.equal(indexed.code, 0, indexed.stderr);
    assert.doesNotMatch(indexed.stderr, /AWS SDK|NodeVersionSupportWarning/);
    assert.match(
      indexed.stdout,
      new RegExp(`search service 1: 3 pages indexed from run ${requestId} \\(3 new`),
    );
    assert.deepEqual(await objectKeys(), STORED);
  });
});

describe('presigned downloads (KUMO_BLOB_DOWNLOADS=presigned)', () => {
  before(async () => {
    await kumo!.close();
    kumo = await startKumo('presigned');
  });

  test('the keyed request answers 302 to the object, which serves the bytes as an attachment', async () => {
    const inBucket = await new S3Objects(s3.client, s3.bucket).get(`${PREFIX}/runs/${runId}/${OBJECTS}`);
    const chunks: Buffer[] = [];
    for await (const chunk of inBucket!.body) chunks.push(chunk as Buffer);
    const stored = Buffer.concat(chunks);
    for (const file of [URL_LIST, OBJECTS]) {
      const first = await keyed(file);
      assert.equal(first.status, 302);
      assert.ok(
        first.location?.startsWith(`${s3.endpoint}/${s3.bucket}/${PREFIX}/runs/${runId}/${file}?`),
        first.location ?? '',
      );
      assert.match(first.location!, /X-Amz-Expires=30&/);
      const object = await undiciFetch(first.location!, { dispatcher: client });
      assert.equal(object.status, 200);
      assert.equal(object.headers.get('content-disposition'), `attachment; filename="${requestId}_${file}"`);
      const bytes = Buffer.from(await object.arrayBuffer());
      if (file === OBJECTS) assert.ok(bytes.equals(stored));
      else assert.equal(parseCsv(gunzipSync(bytes).toString('utf8')).length, 4);
    }
  });

  test("the console's download redirects to the object as well", async () => {
    const answer = await consoleFile(URL_LIST);
    await answer.arrayBuffer();
    assert.equal(answer.status, 302);
    const object = await undiciFetch(answer.headers.get('location')!, { dispatcher: client });
    assert.equal(
      object.headers.get('content-disposition'),
      `attachment; filename="run-${runId}_${URL_LIST}"`,
    );
    assert.equal(parseCsv(gunzipSync(Buffer.from(await object.arrayBuffer())).toString('utf8')).length, 4);
  });

  test("an object gone from the store is Kumo's 404, not a link to the store's error", async () => {
    const key = `${PREFIX}/runs/${runId}/${URL_LIST}`;
    const held = await new S3Objects(s3.client, s3.bucket).get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of held!.body) chunks.push(chunk as Buffer);
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
    try {
      const answer = await undiciFetch(`${kumo!.url}${downloadPathOf(kumo!.tenant, requestId, URL_LIST)}`, {
        headers: { 'x-mf-apikey': kumo!.apiKey },
        redirect: 'manual',
        dispatcher: client,
      });
      assert.equal(answer.status, 404);
      const body = (await answer.json()) as { status: string; message: string };
      assert.equal(body.status, 'NG');
      assert.match(body.message, /url_list\.csv\.gz is missing from the artifact store/);
    } finally {
      await s3.client.send(
        new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: Buffer.concat(chunks) }),
      );
    }
  });

  test('retention deletes the objects; the downloads answer 410', async () => {
    const paths = dataPaths(dataDir);
    const artifacts = await openArtifactStore(
      blobUrl,
      { artifacts: paths.artifacts, cacheRoot: paths.artifactCache },
      s3.env,
    );
    const runs = kumo!.service.store.runs;
    assert.equal(await sweepExpiredArtifacts(runs, artifacts, systemClock, 1), 0);
    assert.deepEqual(await objectKeys(), STORED);
    const twoDaysLater = { nowMicros: () => systemClock.nowMicros() + 2 * 86_400_000_000 };
    assert.equal(await sweepExpiredArtifacts(runs, artifacts, twoDaysLater, 1), 1);
    assert.deepEqual(await objectKeys(), []);
    assert.equal(existsSync(path.join(paths.artifactCache, String(runId))), false);
    assert.equal((await keyed(URL_LIST)).status, 410);
    assert.equal((await keyed(OBJECTS)).status, 410);
  });
});

describe('a store that refuses the upload', () => {
  before(async () => {
    await kumo!.close();
    kumo = await startKumo('kumo', 'no-such-bucket');
  });

  test('the health check names the bucket as what fails, never the endpoint', async () => {
    const health = await kumo!.inject({ method: 'GET', url: HEALTH });
    assert.equal(health.statusCode, 503, health.body);
    const body = health.json as {
      message: string;
      components: { blob_store: { status: string; message?: string } };
    };
    assert.equal(body.message, 'unhealthy: blob_store');
    assert.deepEqual(body.components.blob_store, { status: 'NG', message: 'the bucket does not exist' });
    assert.ok(!health.body.includes('127.0.0.1'), health.body);
  });

  test('ends the run 2040 with the reason, keeping nothing staged', async () => {
    const failed = await kumo!.requestCrawl({ seed_urls: [`${site.baseUrl}/`], robots_txt: false });
    const history = await kumo!.waitForFinished(failed);
    assert.equal(history.crawl_execution_status_dtype_id, 2040, JSON.stringify(history));
    assert.match(
      history.message ?? '',
      /^completed: 3 URL\(s\) crawled; storing the artifacts failed: the object store answered 404 NoSuchBucket$/,
    );
    const failedRun = (await kumo!.service.store.runs.getByRequest(kumo!.tenant, failed))!;
    // The staged files go once the run is recorded ended (the worker pool removes them next).
    const staging = path.join(dataPaths(dataDir).artifacts, String(failedRun.id));
    for (const deadline = Date.now() + 5_000; existsSync(staging) && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(existsSync(staging), false);
    const answer = await undiciFetch(`${kumo!.url}${downloadPathOf(kumo!.tenant, failed, URL_LIST)}`, {
      headers: { 'x-mf-apikey': kumo!.apiKey },
      redirect: 'manual',
      dispatcher: client,
    });
    await answer.arrayBuffer();
    assert.equal(answer.status, 404);
  });
});
