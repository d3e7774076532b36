/**
 * `kumo crawl --sitemaps` and `--sitemap URL` as a user runs them (docs/reference/crawl-rules.md,
 * Sitemaps): pages only a sitemap lists are crawled, and stderr says what the sitemaps gave.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { readCsvGz, recordsOf } from '../support/artifact-readers.js';
import { runCli } from '../support/cli-runner.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';

let site: LocalServer;
let folder: string;

before(async () => {
  let origin = '';
  const pages: Record<string, string> = {
    '/robots.txt': 'User-agent: *\nSitemap: /sitemap.xml\n',
    '/': '<title>home</title>',
    '/sitemap.xml': '<urlset><url><loc>ORIGIN/from-robots.html</loc></url></urlset>',
    '/from-robots.html': '<title>named by robots.txt</title>',
    '/extra.txt': 'ORIGIN/from-listed.html\n',
    '/from-listed.html': '<title>listed on the command line</title>',
  };
  const server = createServer((request, response) => {
    const body = pages[request.url ?? '/'];
    if (body === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'text/html' }).end(body.replaceAll('ORIGIN', origin));
  });
  site = await listenLocally(server);
  origin = site.baseUrl;
  folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-sitemap-cli-'));
});

after(async () => {
  await site.close();
  await rm(folder, { recursive: true, force: true });
});

test('--sitemaps reads robots.txt sitemaps and --sitemap adds a file; stderr tells of them', async () => {
  const out = path.join(folder, 'both');
  const result = await runCli([
    'crawl',
    `${site.baseUrl}/`,
    '--sitemaps',
    '--sitemap',
    `${site.baseUrl}/extra.txt`,
    '--out',
    out,
  ]);
  assert.equal(result.code, 0, result.stderr);
  const crawled = recordsOf(readCsvGz(path.join(out, 'url_list.csv.gz'))).map((row) => row.crawl_url);
  assert.deepEqual(crawled.sort(), [
    `${site.baseUrl}/`,
    `${site.baseUrl}/from-listed.html`,
    `${site.baseUrl}/from-robots.html`,
  ]);
  assert.match(result.stderr, /^sitemaps: 2 of 2 file\(s\) read, 2 URL\(s\) listed, 2 new to the crawl$/m);
});

test('without --sitemaps a crawl reads no sitemap and says nothing of them', async () => {
  const out = path.join(folder, 'none');
  const result = await runCli(['crawl', `${site.baseUrl}/`, '--out', out]);
  assert.equal(result.code, 0, result.stderr);
  const crawled = recordsOf(readCsvGz(path.join(out, 'url_list.csv.gz'))).map((row) => row.crawl_url);
  assert.deepEqual(crawled, [`${site.baseUrl}/`]);
  assert.doesNotMatch(result.stderr, /sitemaps:/);
});
