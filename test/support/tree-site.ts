/**
 * A local site of pages /p/0 .. /p/N-1 linked as a binary tree, each answering after a delay, that
 * counts the requests of each page: for the tests of crawls interrupted and resumed.
 */
import { createServer } from 'node:http';
import assert from 'node:assert/strict';
import { metaOf, readTar } from './artifact-readers.js';
import { listenLocally, type LocalServer } from './local-server.js';
import { parseCsv } from './service-harness.js';

export interface TreeSite extends LocalServer {
  /** Requests per page path. */
  hits: Map<string, number>;
}

/** Pages /p/0 .. /p/<pageCount - 1> as a binary tree: /p/N links to /p/2N+1 and /p/2N+2. */
export async function startTreeSite(pageCount: number, delayMs: number): Promise<TreeSite> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const match = /^\/p\/(\d+)$/.exec(url);
    const page = match ? Number(match[1]) : -1;
    if (page < 0 || page >= pageCount) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    hits.set(url, (hits.get(url) ?? 0) + 1);
    const links = [2 * page + 1, 2 * page + 2]
      .filter((child) => child < pageCount)
      .map((child) => `<a href="/p/${child}">page ${child}</a>`)
      .join(' ');
    const body = `<!doctype html><html><head><title>Page ${page}</title></head><body><p>Page ${page}</p>${links}</body></html>`;
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body), delayMs);
  });
  return { ...(await listenLocally(server)), hits };
}

/**
 * The run of the whole site has each page once: its URL list has one row per page (none twice,
 * none lost, each fetched fine) and its bundle is a whole archive (every gzip member and tar entry
 * parses) with one folder per page holding that page.
 */
export async function assertEveryPageOnce(
  site: TreeSite,
  pageCount: number,
  download: (file: 'url_list.csv.gz' | 'crawl_objects.tar.gz') => Promise<Buffer>,
): Promise<void> {
  const expected = Array.from({ length: pageCount }, (_, page) => `${site.baseUrl}/p/${page}`);
  // The URL list: one row per page, none twice, none lost, each fetched fine.
  const csv = (await download('url_list.csv.gz')).toString();
  const [header, ...rows] = parseCsv(csv);
  assert.equal(header?.[0], 'crawl_url');
  const listed = rows.map((row) => row[0]!);
  const duplicates = listed.filter((url, index) => listed.indexOf(url) !== index);
  assert.deepEqual(duplicates, [], 'no URL is listed twice');
  assert.deepEqual([...listed].sort(), [...expected].sort(), 'every page is listed');
  for (const row of rows) assert.equal(row[2], 'true', `row ${row.join(',')}`);

  // The bundle: a whole archive (every gzip member and tar entry parses), one folder per page.
  const tar = await download('crawl_objects.tar.gz');
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
}
