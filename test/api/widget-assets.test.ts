/**
 * The widget script, the typed client and the manifest as `kumo serve` serves them over real HTTP
 * (docs/reference/widget.md, Caching and the two paths): cache headers of the contract and the
 * immutable path, ETag and 304, brotli and gzip, CORS/CORP, HEAD, 405; and a service without the
 * build, which still starts and answers 503 naming it.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { HttpClient, type NgAnswer } from '../support/search-fixtures.js';
import { makeTempDir, startTestService, type TestService } from '../support/service-harness.js';

const WEB = new URL('../../web/', import.meta.url);
const BASE = '/widget/v1';

interface ManifestEntry {
  sha256: string;
  bytes: number;
  gzipBytes: number;
}
interface ServedManifestEntry extends ManifestEntry {
  path: string;
  integrity: string;
}

const built = JSON.parse(readFileSync(new URL('manifest.json', WEB), 'utf8')) as Record<
  string,
  ManifestEntry
>;
const bytesOf = (file: string) => readFileSync(new URL(file, WEB));
const hashOf = (file: string) => built[file]!.sha256;
const immutablePath = (file: string) =>
  `${BASE}/${file.replace(/(\.d\.ts|\.js)$/, `.${hashOf(file).slice(0, 16)}$1`)}`;

let service: TestService;
let http: HttpClient;

before(async () => {
  service = await startTestService();
  http = new HttpClient(service.url);
});

after(async () => {
  await http.close();
  await service.close();
});

describe('widget script at the contract path', () => {
  test('answers the built bytes with an hour of cache, the manifest ETag and cross-origin headers', async () => {
    const answer = await http.get(`${BASE}/kumo-search.js`, { 'accept-encoding': 'identity' });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.bytes, bytesOf('kumo-search.js'));
    assert.equal(answer.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(answer.headers.get('cache-control'), 'public, max-age=3600, stale-while-revalidate=86400');
    assert.equal(answer.headers.get('etag'), `"${hashOf('kumo-search.js')}"`);
    assert.equal(answer.headers.get('access-control-allow-origin'), '*');
    assert.equal(answer.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
    assert.match(answer.headers.get('vary') ?? '', /Accept-Encoding/);
    assert.equal(answer.headers.get('link'), `<${immutablePath('kumo-search.js')}>; rel="canonical"`);
    assert.equal(answer.headers.get('content-encoding'), null);
  });

  test('If-None-Match with the ETag answers 304 without a body; another tag answers 200', async () => {
    const etag = `"${hashOf('kumo-search.js')}"`;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const answer = await http.get(`${BASE}/kumo-search.js`, { 'if-none-match': header });
      assert.equal(answer.status, 304, header);
      assert.equal(answer.bytes.length, 0);
      assert.equal(answer.headers.get('etag'), etag);
      assert.equal(answer.headers.get('cache-control'), 'public, max-age=3600, stale-while-revalidate=86400');
    }
    const stale = await http.get(`${BASE}/kumo-search.js`, { 'if-none-match': '"0123"' });
    assert.equal(stale.status, 200);
    assert.deepEqual(stale.bytes, bytesOf('kumo-search.js'));
  });

  test('brotli or gzip by Accept-Encoding, each decoding to the built bytes', async () => {
    const original = bytesOf('kumo-search.js');
    const cases: [accept: string, encoding: string | null][] = [
      ['gzip, deflate, br', 'br'],
      ['gzip, br;q=0.5', 'gzip'],
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['identity', null],
      ['zstd', null],
    ];
    for (const [accept, encoding] of cases) {
      const answer = await http.get(`${BASE}/kumo-search.js`, { 'accept-encoding': accept });
      assert.equal(answer.status, 200, accept);
      assert.equal(answer.headers.get('content-encoding'), encoding, accept);
      assert.match(answer.headers.get('vary') ?? '', /Accept-Encoding/);
      // undici decodes gzip and br itself: what arrives is the built file whatever the encoding.
      assert.deepEqual(answer.bytes, original, accept);
    }
  });

  test('the compressed bodies on the wire are real brotli and gzip streams of the file', async () => {
    const { request } = await import('node:http');
    const raw = (encoding: string) =>
      new Promise<{ body: Buffer; headers: Record<string, unknown> }>((resolve, reject) => {
        const call = request(`${service.url}${BASE}/kumo-search.js`, {
          headers: { 'accept-encoding': encoding },
        });
        call.on('response', (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ body: Buffer.concat(chunks), headers: response.headers }));
        });
        call.on('error', reject);
        call.end();
      });
    const original = bytesOf('kumo-search.js');
    const br = await raw('br');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(Number(br.headers['content-length']), br.body.length);
    assert.ok(br.body.length < original.length);
    assert.deepEqual(brotliDecompressSync(br.body), original);
    const gzip = await raw('gzip');
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gzip.body), original);
  });

  test('HEAD answers the headers of GET without a body', async () => {
    const answer = await service.inject({
      method: 'HEAD',
      url: `${BASE}/kumo-search.js`,
      headers: { 'accept-encoding': 'gzip' },
    });
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.body, '');
    assert.equal(answer.headers.etag, `"${hashOf('kumo-search.js')}"`);
    assert.equal(answer.headers['content-encoding'], 'gzip');
    assert.equal(answer.headers['content-type'], 'text/javascript; charset=utf-8');
  });

  test('another method is a 405 naming GET and HEAD; an Accept without JSON is still served', async () => {
    const post = await service.inject({ method: 'POST', url: `${BASE}/kumo-search.js` });
    assert.equal(post.statusCode, 405);
    assert.match(String(post.headers.allow), /\bGET\b/);
    assert.match(String(post.headers.allow), /\bHEAD\b/);
    assert.equal(post.json.status, 'NG');
    const script = await http.get(`${BASE}/kumo-search.js`, { accept: 'text/javascript' });
    assert.equal(script.status, 200);
    const anything = await http.get(`${BASE}/kumo-search.js`, { accept: 'image/png' });
    assert.equal(anything.status, 200);
  });
});

describe('widget script at the immutable path', () => {
  test('the same bytes cached for a year as immutable, with the same ETag', async () => {
    const answer = await http.get(immutablePath('kumo-search.js'));
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.bytes, bytesOf('kumo-search.js'));
    assert.equal(answer.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(answer.headers.get('etag'), `"${hashOf('kumo-search.js')}"`);
    assert.equal(answer.headers.get('access-control-allow-origin'), '*');
    assert.equal(answer.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(answer.headers.get('link'), null);
  });

  test('any other hash, or an unknown file, is a 404 NG body pointing at the manifest', async () => {
    for (const file of [
      'kumo-search.0000000000000000.js',
      'kumo-search.abc.js',
      'other.js',
      'kumo-search.JS',
    ]) {
      const answer = await http.get(`${BASE}/${file}`);
      assert.equal(answer.status, 404, file);
      const body = JSON.parse(answer.text) as NgAnswer;
      assert.equal(body.status, 'NG');
      assert.match(body.message, /manifest\.json/);
    }
  });
});

describe('typed client and manifest', () => {
  test('the client module and its declarations at both paths, the module pointing at its types', async () => {
    const module = await http.get(`${BASE}/kumo-search-client.js`);
    assert.equal(module.status, 200);
    assert.deepEqual(module.bytes, bytesOf('kumo-search-client.js'));
    assert.equal(module.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(module.headers.get('etag'), `"${hashOf('kumo-search-client.js')}"`);
    assert.equal(module.headers.get('link'), `<${immutablePath('kumo-search-client.js')}>; rel="canonical"`);
    assert.equal(module.headers.get('x-typescript-types'), `${BASE}/kumo-search-client.d.ts`);

    const pinned = await http.get(immutablePath('kumo-search-client.js'));
    assert.equal(pinned.status, 200);
    assert.equal(pinned.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(pinned.headers.get('x-typescript-types'), immutablePath('kumo-search-client.d.ts'));

    const types = await http.get(`${BASE}/kumo-search-client.d.ts`);
    assert.equal(types.status, 200);
    assert.deepEqual(types.bytes, bytesOf('kumo-search-client.d.ts'));
    assert.equal(types.headers.get('content-type'), 'application/typescript; charset=utf-8');
    assert.equal(types.headers.get('etag'), `"${hashOf('kumo-search-client.d.ts')}"`);
    assert.match(types.text, /export declare class SiteSearchClient/);
    const pinnedTypes = await http.get(immutablePath('kumo-search-client.d.ts'));
    assert.equal(pinnedTypes.status, 200);
    assert.deepEqual(pinnedTypes.bytes, types.bytes);
  });

  test('manifest.json lists each file with its immutable path and its integrity value', async () => {
    const answer = await http.get(`${BASE}/manifest.json`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(answer.headers.get('cache-control'), 'no-cache');
    assert.equal(answer.headers.get('access-control-allow-origin'), '*');
    const etag = answer.headers.get('etag');
    assert.match(etag ?? '', /^"[0-9a-f]{64}"$/);
    const manifest = JSON.parse(answer.text) as Record<string, ServedManifestEntry>;
    assert.deepEqual(
      Object.keys(manifest).sort(),
      Object.keys(built)
        .filter((file) => !file.startsWith('console.'))
        .sort(),
      'the widget manifest lists the widget and client files, not the console',
    );
    for (const [file, entry] of Object.entries(manifest)) {
      assert.equal(entry.sha256, hashOf(file));
      assert.equal(entry.bytes, built[file]!.bytes);
      assert.equal(entry.path, immutablePath(file));
      const sri = `sha384-${createHash('sha384').update(bytesOf(file)).digest('base64')}`;
      assert.equal(entry.integrity, sri, file);
      const pinned = await http.get(entry.path);
      assert.equal(pinned.status, 200, entry.path);
      assert.deepEqual(pinned.bytes, bytesOf(file));
    }
    const revalidated = await http.get(`${BASE}/manifest.json`, { 'if-none-match': etag! });
    assert.equal(revalidated.status, 304);
  });
});

describe('a service without the browser build', () => {
  test('starts, logs a warning, and answers 503 naming the missing build on the widget paths', async () => {
    const emptyFolder = await makeTempDir('kumo-no-web-');
    const lines: string[] = [];
    const bare = await startTestService({
      webFolder: new URL(`file://${emptyFolder}/`),
      overrides: { logLevel: 'warn' },
      logStream: { write: (line) => void lines.push(line) },
    });
    const client = new HttpClient(bare.url);
    try {
      const warning = lines
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .find((line) => /widget/.test(line.msg));
      assert.ok(warning, lines.join(''));
      assert.equal(warning.level, 40);
      assert.match(warning.msg, /dist\/web\/manifest\.json/);
      for (const path of [
        `${BASE}/kumo-search.js`,
        `${BASE}/manifest.json`,
        `${BASE}/kumo-search-client.d.ts`,
      ]) {
        const answer = await client.get(path);
        assert.equal(answer.status, 503, path);
        const body = JSON.parse(answer.text) as NgAnswer;
        assert.equal(body.status, 'NG');
        assert.match(body.message, /widget build is missing.*dist\/web\/manifest\.json.*npm run build/);
      }
      const page = await client.get('/search/1/1/1');
      assert.equal(page.status, 503);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(page.text, /widget build is missing/);
      // The rest of the service works.
      const search = await client.get('/api/v1.0/finder_service/documents/1/1/1/search?q=x');
      assert.equal(search.status, 200);
    } finally {
      await client.close();
      await bare.close();
      await rm(emptyFolder, { recursive: true, force: true });
    }
  });
});
