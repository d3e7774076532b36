/**
 * Crash recovery (docs/operations.md "Stopping and restarting"): `kumo serve` runs as a child
 * process and is killed with SIGKILL twice in the middle of an instant crawl of a 300-page local
 * site. After each restart on the same data directory the run resumes; when it has finished, the
 * URL list has exactly one row per page (none twice, none lost) and the bundle is a whole tar.gz
 * archive with one folder per page.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { rm } from 'node:fs/promises';
import { afterEach, test } from 'node:test';
import { metaOf, readTar } from '../support/artifact-readers.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import {
  DEMO_TENANT,
  downloadArtifact,
  freePort,
  makeTempDir,
  parseCsv,
  pollUntil,
  TEST_API_KEY,
} from '../support/service-harness.js';
import { startServeProcess } from '../support/serve-process.js';

const PAGE_COUNT = 300;
/** Each page answers after this long: with 4 fetches at a time the crawl takes about 3 s. */
const PAGE_DELAY_MS = 40;
const CONCURRENCY = 4;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface TreeSite extends LocalServer {
  /** Requests per page path. */
  hits: Map<string, number>;
}

/** Pages /p/0 .. /p/299 as a binary tree: /p/N links to /p/2N+1 and /p/2N+2. */
async function startTreeSite(): Promise<TreeSite> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const match = /^\/p\/(\d+)$/.exec(url);
    const page = match ? Number(match[1]) : -1;
    if (page < 0 || page >= PAGE_COUNT) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    hits.set(url, (hits.get(url) ?? 0) + 1);
    const links = [2 * page + 1, 2 * page + 2]
      .filter((child) => child < PAGE_COUNT)
      .map((child) => `<a href="/p/${child}">page ${child}</a>`)
      .join(' ');
    const body = `<!doctype html><html><head><title>Page ${page}</title></head><body><p>Page ${page}</p>${links}</body></html>`;
    setTimeout(
      () => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body),
      PAGE_DELAY_MS,
    );
  });
  return { ...(await listenLocally(server)), hits };
}

/** Warnings only, and no rate limit: the status polls below are not what this test is about. */
const SERVE_ENV = { KUMO_LOG_LEVEL: 'warn', KUMO_RATE_LIMIT_PER_MINUTE: '0' };

test('SIGKILL twice in the middle of a crawl: the resumed run lists every page once and bundles a whole archive', async () => {
  const site = await startTreeSite();
  cleanups.push(() => site.close());
  const dataDir = await makeTempDir('kumo-crash-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const expected = Array.from({ length: PAGE_COUNT }, (_, page) => `${site.baseUrl}/p/${page}`);

  let serve = await startServeProcess({ dataDir, port, env: SERVE_ENV, cleanups });
  const id = await serve.requestCrawl({
    seed_urls: [`${site.baseUrl}/p/0`],
    base_concurrent_requests: CONCURRENCY,
  });

  const killWhenCrawled = async (atLeast: number): Promise<number> => {
    const crawled = await pollUntil(
      `${atLeast} pages crawled`,
      async () => {
        const count = (await serve.statusOf(id))?.crawled_url_count;
        assert.ok(count !== undefined, 'the run finished before the kill');
        return count >= atLeast ? count : undefined;
      },
      15_000,
      100,
    );
    assert.deepEqual(await serve.kill(), { code: null, signal: 'SIGKILL' });
    const fetched = [...site.hits.keys()].length;
    assert.ok(fetched > 0 && fetched < PAGE_COUNT, `the kill came in the middle: ${fetched} pages fetched`);
    return crawled;
  };

  const firstKill = await killWhenCrawled(20);
  serve = await startServeProcess({ dataDir, port, env: SERVE_ENV, cleanups });
  await killWhenCrawled(firstKill + 30);
  const fetchedBeforeLastStart = new Map(site.hits);
  serve = await startServeProcess({ dataDir, port, env: SERVE_ENV, cleanups });

  const history = await serve.waitForFinished(id, 20_000);
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  assert.equal(history.crawled_url_count, PAGE_COUNT);

  // The URL list: one row per page, none twice, none lost, each fetched fine.
  const csv = (await downloadArtifact(baseUrl, TEST_API_KEY, DEMO_TENANT, id, 'url_list.csv.gz')).toString();
  const [header, ...rows] = parseCsv(csv);
  assert.equal(header?.[0], 'crawl_url');
  const listed = rows.map((row) => row[0]!);
  const duplicates = listed.filter((url, index) => listed.indexOf(url) !== index);
  assert.deepEqual(duplicates, [], 'no URL is listed twice');
  assert.deepEqual([...listed].sort(), [...expected].sort(), 'every page is listed');
  for (const row of rows) assert.equal(row[2], 'true', `row ${row.join(',')}`);

  // The bundle: a whole archive (every gzip member and tar entry parses), one folder per page.
  const tar = await downloadArtifact(baseUrl, TEST_API_KEY, DEMO_TENANT, id, 'crawl_objects.tar.gz');
  const entries = await readTar(tar);
  const folders = new Map<string, string[]>();
  for (const name of entries.keys()) {
    const cut = name.lastIndexOf('/') + 1;
    const folder = name.slice(0, cut);
    folders.set(folder, [...(folders.get(folder) ?? []), name.slice(cut)]);
  }
  const host = new URL(site.baseUrl).host;
  assert.deepEqual(
    [...folders.keys()].sort(),
    expected.map((url) => `http/${host}${new URL(url).pathname}-/-/`).sort(),
    'one folder per page',
  );
  for (const [folder, files] of folders)
    assert.deepEqual(files.sort(), ['meta.json', 'source.html'], `files of ${folder}`);
  for (const url of expected) {
    const folder = `http/${host}${new URL(url).pathname}-/-/`;
    assert.equal(metaOf(entries, folder).url, url);
    const page = new URL(url).pathname.slice('/p/'.length);
    assert.match(entries.get(`${folder}source.html`)!.toString(), new RegExp(`<p>Page ${page}</p>`));
  }

  // Only pages in flight at a kill (at most CONCURRENCY each time) were fetched again.
  const refetched = [...site.hits].filter(([, count]) => count > 1);
  assert.ok(refetched.length <= 2 * CONCURRENCY, `fetched more than once: ${JSON.stringify(refetched)}`);
  for (const [url] of refetched) assert.ok(fetchedBeforeLastStart.has(url), url);

  assert.deepEqual(await serve.stop('SIGTERM'), { code: 0, signal: null }, serve.output());
});
