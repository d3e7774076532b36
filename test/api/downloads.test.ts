/**
 * Instant crawl downloads over a real socket (docs/reference/downloads.md, Instant crawl downloads
 * and Retention): the keyed 302 to a signed URL on the public URL, the files behind it, signature
 * checks, tenancy, missing artifacts and retention (410).
 */
import assert from 'node:assert/strict';
import { pbkdf2, pbkdf2Sync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { extract as tarExtract } from 'tar-stream';
import { Agent, type Response, fetch as undiciFetch } from 'undici';
import { DownloadSigner } from '../../src/api/download-signer.js';
import { LocalArtifactStore } from '../../src/blob/index.js';
import { sweepExpiredArtifacts } from '../../src/usecases/index.js';
import { systemClock } from '../../src/util/index.js';
import {
  downloadPathOf,
  parseCsv,
  sleep,
  startTestService,
  type TestService,
  type TestTenant,
} from '../support/service-harness.js';
import { startTrapServer, type TrapServer } from '../support/trap-server.js';

const URL_LIST = 'url_list.csv.gz';
const OBJECTS = 'crawl_objects.tar.gz';
const HEADER =
  'crawl_url,last_url,is_crawl_ok,crawl_datetime,http_status,last_modified,content_type,content_length';
const CSV_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+0000$/;

let kumo: TestService;
let trap: TrapServer;
/**
 * The client's own connection pool, closed before the service stops: a kept-alive connection whose
 * response ends after the stop began would hold the stop open (see "stopping the service" below).
 */
let client: Agent;
const fetch = (url: string | URL, init: Parameters<typeof undiciFetch>[1] = {}) =>
  undiciFetch(url, { ...init, dispatcher: client });
let demo: TestTenant;
/** A finished crawl of /a.html with depth 1: /a.html, / and /b/. */
let crawledId: number;

before(async () => {
  client = new Agent();
  trap = await startTrapServer();
  kumo = await startTestService();
  demo = kumo.tenant;
  crawledId = await kumo.requestCrawl({ seed_urls: [`${trap.baseUrl}/a.html`], depth_limit: 1 });
  const history = await kumo.waitForFinished(crawledId);
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
});

after(async () => {
  await client?.close();
  await kumo?.close();
  await trap?.close();
});

function keyed(requestId: number, file: string, key: string | null = demo.apiKey, tenant = demo) {
  return fetch(`${kumo.url}${downloadPathOf(tenant, requestId, file)}`, {
    headers: key === null ? {} : { 'x-mf-apikey': key },
    redirect: 'manual',
  });
}

/** The signed Location the keyed request redirects to. */
async function signedUrl(requestId: number, file: string): Promise<URL> {
  const response = await keyed(requestId, file);
  assert.equal(response.status, 302, await response.clone().text());
  const location = response.headers.get('location');
  assert.ok(location);
  return new URL(location);
}

async function assertNg(response: Response, status: number): Promise<void> {
  const text = await response.text();
  assert.equal(response.status, status, text);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body = JSON.parse(text);
  assert.equal(body.status, 'NG');
  assert.equal(typeof body.message, 'string');
}

async function readTar(archive: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const reader = tarExtract();
  const reading = (async () => {
    for await (const entry of reader) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      files.set(entry.header.name, Buffer.concat(chunks));
    }
  })();
  reader.end(archive);
  await reading;
  return files;
}

describe('signed download flow', () => {
  test('url_list.csv.gz: 302 to a signed URL on the public URL, which serves the gzip CSV', async () => {
    const location = await signedUrl(crawledId, URL_LIST);
    const nowSeconds = Date.now() / 1000;
    assert.equal(location.origin, kumo.url);
    assert.equal(location.pathname, downloadPathOf(demo, crawledId, URL_LIST));
    const expires = Number(location.searchParams.get('expires'));
    assert.ok(expires > nowSeconds + 25 && expires <= nowSeconds + 31, `expires ${expires}`);
    assert.match(location.searchParams.get('signature') ?? '', /^[0-9a-f]{64}$/);

    // Served without the key.
    const response = await fetch(location);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/gzip');
    const disposition = response.headers.get('content-disposition') ?? '';
    assert.match(disposition, /^attachment;/);
    assert.match(disposition, /filename="?[^"]*url_list\.csv\.gz"?/);
    const body = Buffer.from(await response.arrayBuffer());
    assert.equal(Number(response.headers.get('content-length')), body.length);

    const text = gunzipSync(body).toString('utf8');
    assert.ok(text.startsWith(`${HEADER}\r\n`), `header row: ${JSON.stringify(text.slice(0, 120))}`);
    const [header, ...rows] = parseCsv(text);
    assert.equal(header?.join(','), HEADER);
    assert.deepEqual(rows.map((row) => row[0]).sort(), [
      `${trap.baseUrl}/`,
      `${trap.baseUrl}/a.html`,
      `${trap.baseUrl}/b/`,
    ]);
    assert.equal(rows[0]?.[0], `${trap.baseUrl}/a.html`, 'the seed is fetched first');
    for (const row of rows) {
      assert.equal(row.length, 8, JSON.stringify(row));
      const [, lastUrl, ok, datetime, status, , contentType, contentLength] = row;
      assert.equal(lastUrl, '');
      assert.equal(ok, 'true');
      assert.match(datetime!, CSV_DATETIME);
      assert.equal(status, '200');
      assert.match(contentType!, /^text\/html/);
      assert.match(contentLength!, /^[1-9]\d*$/);
    }
  });

  test('crawl_objects.tar.gz: the page folders with source.html and meta.json', async () => {
    const location = await signedUrl(crawledId, OBJECTS);
    assert.equal(location.pathname, downloadPathOf(demo, crawledId, OBJECTS));
    const response = await fetch(location);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/gzip');
    assert.match(response.headers.get('content-disposition') ?? '', /crawl_objects\.tar\.gz/);

    const files = await readTar(gunzipSync(Buffer.from(await response.arrayBuffer())));
    const host = `127.0.0.1:${trap.port}`;
    const names = [...files.keys()].sort();
    assert.deepEqual(names, [
      `http/${host}/-/-/meta.json`,
      `http/${host}/-/-/source.html`,
      `http/${host}/a.html-/-/meta.json`,
      `http/${host}/a.html-/-/source.html`,
      `http/${host}/b/-/-/meta.json`,
      `http/${host}/b/-/-/source.html`,
    ]);
    for (const name of names) {
      assert.ok(!name.startsWith('/') && !name.split('/').includes('..'), name);
    }
    assert.match(files.get(`http/${host}/-/-/source.html`)!.toString('utf8'), /<title>Home<\/title>/);
    const meta = JSON.parse(files.get(`http/${host}/-/-/meta.json`)!.toString('utf8'));
    assert.equal(meta.url, `${trap.baseUrl}/`);
    assert.equal(meta.http_status, 200);
    assert.equal(meta.depth, 1);
    assert.equal(meta.referrer, `${trap.baseUrl}/a.html`);
    assert.equal(meta.title, 'Home');
  });

  test('a tampered or incomplete signature: 403', async () => {
    const location = await signedUrl(crawledId, URL_LIST);
    const signature = location.searchParams.get('signature')!;
    const expires = location.searchParams.get('expires')!;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    const variants = [
      `expires=${expires}&signature=${flipped}`,
      `expires=${Number(expires) + 100}&signature=${signature}`,
      `expires=${expires}`,
      `signature=${signature}`,
      `expires=${expires}&signature=${signature.toUpperCase()}z`,
      `expires=${expires}&signature=`,
    ];
    for (const query of variants) {
      await assertNg(await fetch(`${kumo.url}${location.pathname}?${query}`), 403);
    }
  });

  test("a signature of url_list.csv.gz does not open crawl_objects.tar.gz or another request's file", async () => {
    const location = await signedUrl(crawledId, URL_LIST);
    const otherFile = downloadPathOf(demo, crawledId, OBJECTS);
    await assertNg(await fetch(`${kumo.url}${otherFile}${location.search}`), 403);
    const otherRun = downloadPathOf(demo, crawledId + 1000, URL_LIST);
    await assertNg(await fetch(`${kumo.url}${otherRun}${location.search}`), 403);
  });

  test('an expired signature: 403 (a fresh one made with the same secret works)', async () => {
    const secret = readFileSync(path.join(kumo.dataDir, 'signing-secret'), 'utf8').trim();
    const signer = new DownloadSigner(secret);
    const filePath = downloadPathOf(demo, crawledId, URL_LIST);
    const nowSeconds = Date.now() / 1000;
    await assertNg(await fetch(`${kumo.url}${filePath}?${signer.sign(filePath, nowSeconds - 60)}`), 403);
    const fresh = await fetch(`${kumo.url}${filePath}?${signer.sign(filePath, nowSeconds)}`);
    assert.equal(fresh.status, 200);
    await fresh.arrayBuffer();
  });
});

describe('keyed download request', () => {
  test('without a key 401, with a wrong key 401, with another tenant key 403', async () => {
    await assertNg(await keyed(crawledId, URL_LIST, null), 401);
    await assertNg(await keyed(crawledId, URL_LIST, 'kumo_wrong_key'), 401);
    const other = await kumo.createTenant('other');
    await assertNg(await keyed(crawledId, URL_LIST, other.apiKey), 403);
    // On its own path the other tenant does not see the run at all.
    await assertNg(await keyed(crawledId, URL_LIST, other.apiKey, other), 404);
  });

  test('a cancelled run has no artifacts: 404', async () => {
    const id = await kumo.requestCrawl({ seed_urls: [`${trap.baseUrl}/hang`], robots_txt: false });
    await kumo.waitForStatus(id, (status) => status.crawl_execution_status_dtype_id === 2020);
    // Not finished yet: 404 as well.
    await assertNg(await keyed(id, URL_LIST), 404);
    const cancel = await kumo.inject({
      method: 'PUT',
      url: `${demo.crawlerPath}/statuses/requests/${id}/cancel`,
      headers: { 'x-mf-apikey': demo.apiKey },
    });
    assert.equal(cancel.json.status, 'OK');
    const history = await kumo.waitForFinished(id, { timeoutMs: 5000 });
    assert.equal(history.crawl_execution_status_dtype_id, 2050);
    assert.equal(history.crawl_url_list_path, '-');
    await assertNg(await keyed(id, URL_LIST), 404);
    await assertNg(await keyed(id, OBJECTS), 404);
  });

  test('a file the run did not produce and an unknown request id: 404', async () => {
    await assertNg(await keyed(crawledId, 'link_list.csv.gz'), 404);
    await assertNg(await keyed(987654, URL_LIST), 404);
  });

  test('an unknown file name: 400 whose message and reason list the valid names', async () => {
    for (const file of ['url_list.csv', 'nope.gz']) {
      const response = await keyed(crawledId, file);
      const text = await response.text();
      assert.equal(response.status, 400, text);
      const body = JSON.parse(text);
      const reason = 'must be one of "url_list.csv.gz", "crawl_objects.tar.gz", "link_list.csv.gz"';
      assert.deepEqual(body, {
        status: 'NG',
        message: `path.file: ${reason}`,
        errors: [{ field: 'path.file', reason }],
      });
    }
  });
});

describe('retention', () => {
  test('artifacts removed by the retention sweep answer 410', async () => {
    const signedBefore = await signedUrl(crawledId, URL_LIST);
    const artifacts = new LocalArtifactStore(path.join(kumo.dataDir, 'artifacts'));
    const runs = kumo.service.store.runs;
    // Runs that ended just now are inside a one-day retention.
    assert.equal(await sweepExpiredArtifacts(runs, artifacts, systemClock, 1), 0);
    assert.equal((await keyed(crawledId, URL_LIST)).status, 302);

    const twoDaysLater = { nowMicros: () => systemClock.nowMicros() + 2 * 86_400_000_000 };
    assert.ok((await sweepExpiredArtifacts(runs, artifacts, twoDaysLater, 1)) >= 1);
    const runId = (await runs.getByRequest(demo, crawledId))!.id;
    assert.equal(existsSync(artifacts.folderFor(runId)), false);

    await assertNg(await keyed(crawledId, URL_LIST), 410);
    await assertNg(await keyed(crawledId, OBJECTS), 410);
    // A link signed before the sweep finds the file gone as well.
    await assertNg(await fetch(signedBefore), 410);
  });
});

describe('stopping the service', () => {
  const pbkdf2Async = promisify(pbkdf2);

  /** pbkdf2 iterations that keep one libuv pool thread busy for about `ms`. */
  function iterationsFor(ms: number): number {
    const probe = 20_000;
    const started = performance.now();
    pbkdf2Sync('kumo', 'salt', probe, 32, 'sha256');
    const elapsed = Math.max(performance.now() - started, 1);
    return Math.ceil((probe * ms) / elapsed);
  }

  function get(url: string, agent: http.Agent): Promise<{ status: number; bytes: number }> {
    return new Promise((resolve, reject) => {
      http
        .get(url, { agent }, (response) => {
          let bytes = 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
          response.on('error', reject);
        })
        .on('error', reject);
    });
  }

  test('a download still being answered when the stop begins does not hold the stop open', async () => {
    const own = await startTestService();
    const agent = new http.Agent({ keepAlive: true });
    let closing: Promise<void> | undefined;
    try {
      const id = await own.requestCrawl({ seed_urls: [`${trap.baseUrl}/a.html`], documents_limit: 1 });
      await own.waitForFinished(id);
      const secret = readFileSync(path.join(own.dataDir, 'signing-secret'), 'utf8').trim();
      const filePath = downloadPathOf(own.tenant, id, URL_LIST);
      const signed = `${own.url}${filePath}?${new DownloadSigner(secret).sign(filePath, Date.now() / 1000)}`;

      // Busy libuv threads delay the file open behind the download, so its answer is still being
      // prepared when the stop begins, on a connection the client keeps alive.
      const iterations = iterationsFor(400);
      const busy = Array.from({ length: 4 }, () => pbkdf2Async('kumo', 'salt', iterations, 32, 'sha256'));
      // The stop begins once the server has the request, however loaded the machine is.
      const received = once(own.service.app.server, 'request');
      const download = get(signed, agent);
      await received;
      const started = Date.now();
      closing = own.close();
      const answer = await download;
      await Promise.all(busy);
      assert.equal(answer.status, 200);
      assert.ok(answer.bytes > 0);

      const outcome = await Promise.race([
        closing.then(() => 'stopped'),
        sleep(5000).then(() => 'still stopping'),
      ]);
      assert.equal(
        outcome,
        'stopped',
        'close() waits for the idle kept-alive connection (server keepAliveTimeout, 72 s) instead of closing it',
      );
      assert.ok(Date.now() - started < 5000);
    } finally {
      agent.destroy();
      await (closing ?? own.close());
    }
  });
});
