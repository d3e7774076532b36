/**
 * What a crawl writes (meta.json, url_list, link_list) holds no credentials: not the run's Basic
 * password (request headers are never recorded; a reflected Authorization is dropped), not the
 * `user:password@` of links, redirects or Content-Location, not the cookies the site sets.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { createUndiciFetcher, type HttpFetcher, withoutCredentials } from '../../src/crawler/engine.js';
import { resolveCrawlSettings } from '../../src/domain/index.js';
import { systemClock } from '../../src/util/index.js';
import { executeCrawl } from '../../src/worker/execute-crawl.js';
import { metaOf, readCsvGz, readTarGz, recordsOf } from '../support/artifact-readers.js';
import {
  type BasicAuthSite,
  SITE_PASSWORD,
  SITE_SECRETS,
  SITE_USER,
  startBasicAuthSite,
} from './basic-auth-site.js';

let site: BasicAuthSite;
let fetcher: HttpFetcher;
const folders: string[] = [];

before(async () => {
  site = await startBasicAuthSite();
  fetcher = createUndiciFetcher();
});

after(async () => {
  await site?.close();
  await fetcher?.close();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

test('a crawl with Basic credentials records no password anywhere', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'kumo-crawl-records-'));
  folders.push(root);
  const artifactFolder = path.join(root, 'artifacts');
  const execution = await executeCrawl(
    resolveCrawlSettings({
      seed_urls: [`${site.baseUrl}/`],
      depth_limit: 2,
      robots_txt: false,
      crawl_result_collection: { crawl_object: 0, url_list: 0, link_url_list: 0 },
      authorizations: [{ type: 'BASIC', user: SITE_USER, password: SITE_PASSWORD }],
    }),
    { workFolder: path.join(root, 'work'), artifactFolder },
    {
      fetcher,
      clock: systemClock,
      limits: {
        timeoutMs: 5000,
        maxRedirects: 5,
        maxBodyBytes: 1024 * 1024,
        retryCount: 0,
        retryBaseDelayMs: 10,
      },
      defaultUserAgent: 'KumoTest/1.0',
      timezone: 'UTC',
    },
    { cancelSignal: new AbortController().signal, deadlineMicros: systemClock.nowMicros() + 60_000_000 },
    new Set(['completed', 'limit_reached']),
  );
  assert.equal(execution.outcome, 'completed');
  // The credentials were used: every page answered to them.
  for (const page of ['/', '/plain.html', '/linked.html', '/redirect']) {
    assert.ok(site.authorized.includes(page), `${page} fetched with the run's credentials`);
  }

  const files = await readdir(artifactFolder);
  assert.deepEqual(files.sort(), ['crawl_objects.tar.gz', 'link_list.csv.gz', 'url_list.csv.gz']);
  const bundle = await readTarGz(path.join(artifactFolder, 'crawl_objects.tar.gz'));
  const texts: [string, string][] = [...bundle].map(([name, data]) => [name, data.toString('utf8')]);
  for (const file of ['url_list.csv.gz', 'link_list.csv.gz']) {
    texts.push([file, gunzipSync(await readFile(path.join(artifactFolder, file))).toString('utf8')]);
  }
  for (const [name, text] of texts) {
    if (name.endsWith('source.html')) continue; // the page as the site sent it (its own links)
    for (const secret of [...SITE_SECRETS, `${SITE_USER}:`]) {
      assert.ok(!text.includes(secret), `${name} contains ${secret}`);
    }
    assert.ok(!/\/\/[^/\s"]*@/.test(text), `${name} has a URL with user info: ${text}`);
  }

  const host = new URL(site.baseUrl).host;
  const home = metaOf(bundle, `http/${host}/-/-/`);
  const headers = home.headers as Record<string, string>;
  assert.equal(headers.authorization, undefined, 'a reflected Authorization is not recorded');
  assert.equal(headers['set-cookie'], undefined);
  assert.equal(headers['content-location'], `${site.baseUrl}/`);
  assert.equal(headers['content-type'], 'text/html; charset=utf-8', 'the other headers stay');

  const urls = recordsOf(readCsvGz(path.join(artifactFolder, 'url_list.csv.gz')));
  const crawled = urls.map((row) => row.crawl_url).sort();
  assert.ok(crawled.includes(`${site.baseUrl}/linked.html`), crawled.join(' '));
  const redirect = urls.find((row) => row.crawl_url === `${site.baseUrl}/redirect`);
  assert.ok(redirect, crawled.join(' '));
  assert.equal(redirect.last_url, `${site.baseUrl}/target.html`);
  const links = recordsOf(readCsvGz(path.join(artifactFolder, 'link_list.csv.gz')));
  assert.ok(links.some((row) => Object.values(row).includes(`${site.baseUrl}/linked.html`)));
});

test('withoutCredentials drops user and password and keeps everything else', () => {
  assert.equal(withoutCredentials('http://u:p@example.com:8080/a?b=c#d'), 'http://example.com:8080/a?b=c#d');
  assert.equal(withoutCredentials('https://only-user@example.com/'), 'https://example.com/');
  assert.equal(withoutCredentials('http://u:p%40ss@example.com/'), 'http://example.com/');
  assert.equal(withoutCredentials('//u:p@example.com/x'), '//example.com/x');
  assert.equal(withoutCredentials('/relative/path@x'), '/relative/path@x');
  assert.equal(
    withoutCredentials('http://example.com/mail@example.org'),
    'http://example.com/mail@example.org',
  );
  assert.equal(withoutCredentials('mailto:someone@example.com'), 'mailto:someone@example.com');
});
