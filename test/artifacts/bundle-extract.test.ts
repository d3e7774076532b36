/**
 * A crawl_objects.tar.gz of a site with hostile URLs (a page below another page's file name,
 * inner segments ending in `-`, empty segments, a 300-byte segment, a long query, a path past the
 * folder limit) extracts with GNU tar, and every page's files are where the folder rule
 * (docs/reference/artifacts.md, Folder rules) puts them, with the bytes the site sent.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { objectFolderOf } from '../../src/artifacts/folder-path.js';
import { parseCrawlUrl } from '../../src/crawler/index.js';
import { runCli } from '../support/cli-runner.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';

const PATHS = [
  '/p',
  '/p-/-/source.html/x',
  '/p-/-/meta.json/x',
  '/source.html',
  '/dom.html/',
  '/a//b',
  '/a-/b-',
  '/%2D/-',
  `/${'s'.repeat(300)}`,
  `/${'s'.repeat(300)}/${'t'.repeat(300)}/page`,
  `/q?x=${'y'.repeat(300)}`,
  `/deep/${'seg-/'.repeat(250)}end`,
  '/caf%C3%A9/%E6%97%A5.html',
];

let site: LocalServer;
let workDir: string;

function pageOf(pathAndQuery: string): string {
  return `<!doctype html><html><head><title>${pathAndQuery.slice(0, 40)}</title></head><body>page ${pathAndQuery}</body></html>`;
}

before(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'kumo-extract-'));
  const server = createServer((request, response) => {
    const target = request.url ?? '/';
    response.setHeader('content-type', 'text/html; charset=utf-8');
    if (target === '/') {
      const links = PATHS.map((link) => `<a href="${site.baseUrl}${link}">x</a>`).join('\n');
      response.end(`<!doctype html><html><head><title>home</title></head><body>${links}</body></html>`);
    } else {
      response.end(pageOf(target));
    }
  });
  site = await listenLocally(server);
});

after(async () => {
  await site.close();
  await rm(workDir, { recursive: true, force: true });
});

test('GNU tar extracts the bundle of a site with hostile URLs, each page in its own folder', async () => {
  const out = path.join(workDir, 'out');
  const result = await runCli(['crawl', `${site.baseUrl}/`, '--depth', '1', '--out', out], 60_000);
  assert.equal(result.code, 0, result.stderr);

  const extracted = path.join(workDir, 'extracted');
  await mkdir(extracted);
  const tar = spawnSync('tar', ['-xzf', path.join(out, 'crawl_objects.tar.gz'), '-C', extracted], {
    encoding: 'utf8',
  });
  assert.equal(tar.status, 0, `tar failed: ${tar.stderr}`);

  for (const link of ['/', ...PATHS]) {
    // The crawler stores URLs with their percent-encoding normalized (`%2D` is `-`).
    const url = parseCrawlUrl(`${site.baseUrl}${link}`)!;
    const folder = path.join(extracted, objectFolderOf(url));
    assert.ok(existsSync(path.join(folder, 'source.html')), `no source.html for ${link} in ${folder}`);
    const meta = JSON.parse(readFileSync(path.join(folder, 'meta.json'), 'utf8')) as { url: string };
    assert.equal(meta.url, url.href);
    if (link !== '/') {
      assert.equal(
        readFileSync(path.join(folder, 'source.html'), 'utf8'),
        pageOf(`${url.pathname}${url.search}`),
      );
    }
  }
});
