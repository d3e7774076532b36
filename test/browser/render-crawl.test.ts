/**
 * Browser rendering end to end: the crawl engine with a real Chromium (playwright-core) against
 * the script fixture site (test/support/script-site.ts), artifacts read back from disk. Skipped,
 * with the reason, on a machine without Chromium (scripts/install-chromium.sh installs it).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeChromium } from '../../src/browser/chromium-launch.js';
import { createRenderer, type RendererHandle } from '../../src/browser/create-renderer.js';
import { loadConfig } from '../../src/config/index.js';
import { createUndiciFetcher, type HttpFetcher } from '../../src/crawler/engine.js';
import type { InstantCrawlerSetting } from '../../src/domain/schemas.js';
import { resolveCrawlSettings } from '../../src/domain/index.js';
import { AddressPolicy } from '../../src/net/index.js';
import { systemClock } from '../../src/util/index.js';
import { type CrawlExecution, executeCrawl } from '../../src/worker/execute-crawl.js';
import { readCsvGz, readTarGz, recordsOf } from '../support/artifact-readers.js';
import { jpegSize } from '../support/jpeg-size.js';
import {
  pageWithImageFrom,
  pageWithPopupTo,
  SITE_PASSWORD,
  SITE_USER,
  type ScriptSite,
  startScriptSite,
  TALL_PAGE_HEIGHT,
} from '../support/script-site.js';

const USER_AGENT = 'KumoRenderTest/1.0';
const IDLE_WAIT_SECONDS = 2;
/** Generous: a loaded 2-core machine may take seconds for a first render in a fresh browser. */
const PAGE_TIMEOUT_SECONDS = 20;
/** The renderer of the hard-limit tests. */
const SHORT_PAGE_TIMEOUT_SECONDS = 3;
const config = loadConfig(process.env, {
  browserIdleWaitSeconds: IDLE_WAIT_SECONDS,
  browserPageTimeoutSeconds: PAGE_TIMEOUT_SECONDS,
  browserPages: 2,
});
const chromium = await probeChromium(config.chromiumPath);
const skip = chromium.available ? false : `no browser here: ${chromium.reason}`;

interface CrawlRun {
  execution: CrawlExecution;
  rows: Record<string, string>[];
  /** Bundle files keyed by the `url` of their folder's meta.json, then by file name. */
  pages: Map<string, Map<string, Buffer>>;
}

describe('crawling with browser rendering', { skip }, () => {
  let site: ScriptSite;
  let browser: RendererHandle;
  let fetcher: HttpFetcher;
  const folders: string[] = [];

  before(async () => {
    site = await startScriptSite();
    browser = createRenderer(config, new AddressPolicy(true));
    fetcher = createUndiciFetcher();
  });

  after(async () => {
    await Promise.all([site.close(), browser.pool.close(), fetcher.close()]);
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  const urlOf = (pagePath: string) => `${site.baseUrl}${pagePath}`;

  async function crawl(
    setting: Partial<InstantCrawlerSetting>,
    renderer: RendererHandle = browser,
  ): Promise<CrawlRun> {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-render-'));
    folders.push(folder);
    const settings = resolveCrawlSettings({ seed_urls: [urlOf('/')], user_agent: USER_AGENT, ...setting });
    const execution = await executeCrawl(
      settings,
      { workFolder: path.join(folder, 'work'), artifactFolder: path.join(folder, 'out') },
      {
        fetcher,
        clock: systemClock,
        limits: {
          timeoutMs: 5000,
          maxRedirects: 5,
          maxBodyBytes: 1 << 20,
          retryCount: 0,
          retryBaseDelayMs: 10,
        },
        defaultUserAgent: USER_AGENT,
        timezone: 'UTC',
        renderer: renderer.renderer,
      },
      { cancelSignal: new AbortController().signal, deadlineMicros: systemClock.nowMicros() + 120e6 },
      new Set(['completed', 'limit_reached']),
    );
    const rows = recordsOf(readCsvGz(path.join(folder, 'out', 'url_list.csv.gz')));
    const pages = new Map<string, Map<string, Buffer>>();
    const names = execution.artifacts.map((artifact) => artifact.name);
    if (names.includes('crawl_objects.tar.gz')) {
      const entries = await readTarGz(path.join(folder, 'out', 'crawl_objects.tar.gz'));
      const byFolder = new Map<string, Map<string, Buffer>>();
      for (const [name, data] of entries) {
        const slash = name.lastIndexOf('/');
        const files = byFolder.get(name.slice(0, slash)) ?? new Map<string, Buffer>();
        files.set(name.slice(slash + 1), data);
        byFolder.set(name.slice(0, slash), files);
      }
      for (const files of byFolder.values()) {
        const meta = JSON.parse(files.get('meta.json')!.toString('utf8')) as { url: string };
        pages.set(meta.url, files);
      }
    }
    return { execution, rows, pages };
  }

  const crawledUrls = (run: CrawlRun) => run.rows.map((row) => row.crawl_url).sort();
  const rowOf = (run: CrawlRun, url: string) => {
    const row = run.rows.find((candidate) => candidate.crawl_url === url);
    assert.ok(row, `no row for ${url}; rows: ${crawledUrls(run).join(', ')}`);
    return row;
  };
  const fileOf = (run: CrawlRun, url: string, name: string): Buffer => {
    const file = run.pages.get(url)?.get(name);
    if (file === undefined) {
      const meta = run.pages.get(url)?.get('meta.json')?.toString('utf8');
      assert.fail(`no ${name} for ${url}; rows: ${JSON.stringify(run.rows)}; meta.json: ${meta}`);
    }
    return file;
  };
  const metaOf = (run: CrawlRun, url: string) =>
    JSON.parse(fileOf(run, url, 'meta.json').toString('utf8')) as Record<string, unknown> & {
      rendered: { network_idle: boolean | null; script_navigations: string[]; blocked_requests: string[] };
    };

  test('wait_type 2 takes links from the DOM after scripts ran; wait_type 0 does not see them', async () => {
    const rendered = await crawl({ seed_urls: [urlOf('/script-links')], wait_type: 2 });
    assert.deepEqual(crawledUrls(rendered), [
      urlOf('/plain/one'),
      urlOf('/plain/two'),
      urlOf('/script-links'),
    ]);
    assert.ok(rendered.rows.every((row) => row.is_crawl_ok === 'true'));
    const dom = fileOf(rendered, urlOf('/script-links'), 'dom.html').toString('utf8');
    assert.match(dom, /<a href="\/plain\/one">\/plain\/one<\/a>/);
    assert.doesNotMatch(fileOf(rendered, urlOf('/script-links'), 'source.html').toString('utf8'), /<a href/);
    assert.equal(metaOf(rendered, urlOf('/script-links')).title, 'Script links (rendered)');

    const plain = await crawl({ seed_urls: [urlOf('/script-links')], wait_type: 0 });
    assert.deepEqual(crawledUrls(plain), [urlOf('/script-links')]);
    assert.equal(plain.pages.get(urlOf('/script-links'))?.has('dom.html'), false);
  });

  test('a screenshot at the viewport is a JPEG of exactly that size beside source, DOM and meta', async () => {
    const run = await crawl({
      seed_urls: [urlOf('/tall')],
      screenshot: { viewport_width: 1366, viewport_height: 768, render_all: false },
    });
    const files = run.pages.get(urlOf('/tall'));
    assert.deepEqual([...(files?.keys() ?? [])].sort(), [
      'cap_org.jpg',
      'dom.html',
      'meta.json',
      'source.html',
    ]);
    assert.deepEqual(jpegSize(fileOf(run, urlOf('/tall'), 'cap_org.jpg')), { width: 1366, height: 768 });
    assert.equal(metaOf(run, urlOf('/tall')).rendered.network_idle, null, 'no idle wait without wait_type 2');
  });

  test('render_all captures the full page height', async () => {
    const run = await crawl({
      seed_urls: [urlOf('/tall')],
      screenshot: { viewport_width: 1366, viewport_height: 768, render_all: true },
    });
    const size = jpegSize(fileOf(run, urlOf('/tall'), 'cap_org.jpg'));
    assert.equal(size.width, 1366);
    assert.ok(size.height >= TALL_PAGE_HEIGHT, `full-page height ${size.height} < ${TALL_PAGE_HEIGHT}`);
  });

  test('keep_fragment 1 makes each route of a hash-routed app its own page', async () => {
    const run = await crawl({
      seed_urls: [urlOf('/hash-app')],
      wait_type: 2,
      request_fingerprint: { keep_query: 1, keep_fragment: 1 },
    });
    const app = urlOf('/hash-app');
    assert.deepEqual(crawledUrls(run), [app, `${app}#/a`, `${app}#/b`, `${app}#/c`]);
    assert.match(fileOf(run, `${app}#/a`, 'dom.html').toString('utf8'), /<h1>Route A<\/h1>/);
    assert.match(fileOf(run, `${app}#/c`, 'dom.html').toString('utf8'), /<h1>Route C<\/h1>/);

    const merged = await crawl({ seed_urls: [app], wait_type: 2 });
    assert.deepEqual(crawledUrls(merged), [app]);
  });

  test('a page that keeps the network busy is captured after the bounded idle wait', async () => {
    const started = Date.now();
    const run = await crawl({ seed_urls: [urlOf('/busy')], wait_type: 2 });
    const seconds = (Date.now() - started) / 1000;
    assert.equal(rowOf(run, urlOf('/busy')).is_crawl_ok, 'true');
    assert.equal(rowOf(run, urlOf('/plain/one')).is_crawl_ok, 'true');
    assert.equal(metaOf(run, urlOf('/busy')).rendered.network_idle, false);
    assert.ok(seconds < 15, `run took ${seconds} s; the idle wait is bounded at ${IDLE_WAIT_SECONDS} s`);
  });

  test('pages that never finish (blocked parser, busy main thread) fail at the hard limit; the run goes on', async () => {
    const short = createRenderer(
      { ...config, browserPageTimeoutSeconds: SHORT_PAGE_TIMEOUT_SECONDS },
      new AddressPolicy(true),
    );
    try {
      const started = Date.now();
      const run = await crawl(
        {
          seed_urls: [urlOf('/hang'), urlOf('/spin'), urlOf('/plain/one')],
          screenshot: { viewport_width: 800, viewport_height: 600, render_all: false },
        },
        short,
      );
      for (const stuck of ['/hang', '/spin']) {
        const row = rowOf(run, urlOf(stuck));
        assert.equal(row.is_crawl_ok, 'false', stuck);
        assert.equal(row.http_status, '200', `${stuck}: the row keeps the status of the document response`);
        // The bundle keeps the fetched source and says why rendering failed; no screenshot or DOM.
        const files = [...(run.pages.get(urlOf(stuck))?.keys() ?? [])].sort();
        assert.deepEqual(files, ['meta.json', 'source.html'], stuck);
        assert.match(String(metaOf(run, urlOf(stuck)).render_error), /longer than 3 s/, stuck);
      }
      assert.equal(rowOf(run, urlOf('/plain/one')).is_crawl_ok, 'true');
      assert.equal(run.execution.outcome, 'completed');
      const seconds = (Date.now() - started) / 1000;
      assert.ok(seconds < 4 * SHORT_PAGE_TIMEOUT_SECONDS, `run took ${seconds} s`);
    } finally {
      await short.pool.close();
    }
  });

  test('basic auth reaches the page and its own scripts; the browser sends the crawl user agent', async () => {
    const run = await crawl({
      seed_urls: [urlOf('/auth/page')],
      wait_type: 2,
      authorizations: [{ type: 'BASIC', user: SITE_USER, password: SITE_PASSWORD }],
    });
    assert.match(
      fileOf(run, urlOf('/auth/page'), 'dom.html').toString('utf8'),
      /<p id="loaded">app loaded<\/p>/,
    );
    assert.equal(rowOf(run, urlOf('/auth/next')).is_crawl_ok, 'true');
    const scriptRequest = site.requests.find((request) => request.path === '/auth/app.js');
    assert.equal(scriptRequest?.headers['user-agent'], USER_AGENT);
  });

  test('credentials never follow a sub-resource redirect to another host', async () => {
    const other = await startScriptSite({ host: '127.0.0.2' });
    const host = await startScriptSite({ redirects: { '/auth/bounce.js': `${other.baseUrl}/res/lib.js` } });
    try {
      const page = `${host.baseUrl}/auth/bounce-page`;
      const run = await crawl({
        seed_urls: [page],
        wait_type: 2,
        authorizations: [{ type: 'BASIC', user: SITE_USER, password: SITE_PASSWORD }],
      });
      assert.equal(rowOf(run, page).is_crawl_ok, 'true');
      const bounce = host.requests.find((request) => request.path === '/auth/bounce.js');
      assert.ok(bounce?.headers.authorization, 'the seed host gets the credentials');
      // Credentials are added by the crawler to the one hop it fetches; the browser's own
      // follow-up request (when it makes one) never carries them.
      for (const request of other.requests)
        assert.equal(request.headers.authorization, undefined, request.path);
    } finally {
      await Promise.all([other.close(), host.close()]);
    }
  });

  test('links of a page that moved itself with pushState resolve against its new address', async () => {
    const run = await crawl({ seed_urls: [urlOf('/push-state')], wait_type: 2 });
    assert.equal(rowOf(run, urlOf('/deep/dir/leaf')).is_crawl_ok, 'true');
  });

  test('a popup a page opens is closed before it loads anything', async () => {
    const other = await startScriptSite({ host: '127.0.0.2' });
    const popupTarget = `${other.baseUrl}/plain/one`;
    const host = await startScriptSite({ pages: { '/popup': pageWithPopupTo(popupTarget) } });
    try {
      const page = `${host.baseUrl}/popup`;
      const run = await crawl({ seed_urls: [page], wait_type: 2 });
      assert.equal(rowOf(run, page).is_crawl_ok, 'true');
      assert.equal(other.hitsOf('/plain/one'), 0);
    } finally {
      await Promise.all([other.close(), host.close()]);
    }
  });

  test('after a redirect the row keeps the document response and links resolve against the target', async () => {
    const run = await crawl({ seed_urls: [urlOf('/r/start')], wait_type: 2 });
    const row = rowOf(run, urlOf('/r/start'));
    assert.equal(row.http_status, '200');
    assert.equal(row.last_url, urlOf('/r/landing'));
    assert.match(fileOf(run, urlOf('/r/start'), 'dom.html').toString('utf8'), /<p>landed<\/p>/);
    assert.equal(rowOf(run, urlOf('/r/child')).is_crawl_ok, 'true');
  });

  test('sub-resources are loaded by the browser but never become rows', async () => {
    const before = { gif: site.hitsOf('/res/pixel.gif'), js: site.hitsOf('/res/lib.js') };
    const run = await crawl({
      seed_urls: [urlOf('/resources')],
      wait_type: 2,
      screenshot: { viewport_width: 800, viewport_height: 600, render_all: false },
      language: 'ja-JP',
    });
    assert.deepEqual(crawledUrls(run), [urlOf('/plain/one'), urlOf('/resources')]);
    assert.equal(site.hitsOf('/res/pixel.gif'), before.gif + 1);
    assert.equal(site.hitsOf('/res/lib.js'), before.js + 1);
    const css = site.requests.findLast((request) => request.path === '/res/style.css');
    assert.equal(css?.headers['accept-language'], 'ja-JP');
  });

  test('a script redirect becomes a link of the page, fetched by the crawler only', async () => {
    const before = site.hitsOf('/plain/two');
    const run = await crawl({ seed_urls: [urlOf('/script-redirect')], wait_type: 2 });
    assert.deepEqual(crawledUrls(run), [urlOf('/plain/two'), urlOf('/script-redirect')]);
    assert.deepEqual(metaOf(run, urlOf('/script-redirect')).rendered.script_navigations, [
      urlOf('/plain/two'),
    ]);
    assert.equal(site.hitsOf('/plain/two'), before + 1);
  });

  test('the DOM of a Shift_JIS page is saved as UTF-8 and declares it', async () => {
    const run = await crawl({
      seed_urls: [urlOf('/sjis')],
      screenshot: { viewport_width: 800, viewport_height: 600, render_all: false },
    });
    const dom = fileOf(run, urlOf('/sjis'), 'dom.html').toString('utf8');
    assert.match(dom, /<p id="jp">日本語のページ<\/p>/);
    assert.match(dom, /<meta charset="utf-8">/);
  });

  test('a page cannot make the browser reach a private address the policy refuses, even by redirect', async () => {
    const other = await startScriptSite({ host: '127.0.0.2' });
    const host = await startScriptSite({
      pages: {
        '/foreign': pageWithImageFrom(`${other.baseUrl}/res/pixel.gif`),
        '/bounced': pageWithImageFrom('/bounce.gif'),
      },
      redirects: { '/bounce.gif': `${other.baseUrl}/res/pixel.gif` },
    });
    const guarded = createRenderer(config, new AddressPolicy(['127.0.0.1/32']));
    try {
      const direct = `${host.baseUrl}/foreign`;
      const bounced = `${host.baseUrl}/bounced`;
      const run = await crawl({ seed_urls: [direct, bounced], wait_type: 2 }, guarded);
      assert.equal(rowOf(run, direct).is_crawl_ok, 'true');
      assert.equal(rowOf(run, bounced).is_crawl_ok, 'true');
      const blocked = metaOf(run, direct).rendered.blocked_requests;
      assert.equal(blocked.length, 1, JSON.stringify(blocked));
      assert.match(blocked[0]!, /127\.0\.0\.2 is a loopback address/);
      assert.equal(host.hitsOf('/bounce.gif'), 1, 'the first hop, on an allowed address, was made');
      assert.equal(
        other.hitsOf('/res/pixel.gif'),
        0,
        'neither the direct request nor the redirect got through',
      );
    } finally {
      await Promise.all([guarded.pool.close(), other.close(), host.close()]);
    }
  });

  test('a browser killed mid-page is started again and the page rendered once more', async () => {
    const busyFetches = site.hitsOf('/busy');
    const polls = site.hitsOf('/busy/poll');
    const running = crawl({ seed_urls: [urlOf('/busy')], wait_type: 2, depth_limit: 0 });
    const deadline = Date.now() + 10_000;
    while (site.hitsOf('/busy/poll') === polls) {
      assert.ok(Date.now() < deadline, 'the page never started polling');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    killChildBrowsers();
    const run = await running;
    assert.equal(rowOf(run, urlOf('/busy')).is_crawl_ok, 'true');
    assert.ok(run.pages.get(urlOf('/busy'))?.has('dom.html'));
    assert.equal(site.hitsOf('/busy'), busyFetches + 1, 'the document is fetched once, not per render');
  });

  test('without Chromium a run that needs it fails at once, saying how to install it', async () => {
    const missing = createRenderer(
      { ...config, chromiumPath: '/nonexistent/chromium' },
      new AddressPolicy(true),
    );
    try {
      await assert.rejects(
        crawl({ seed_urls: [urlOf('/plain/one')], screenshot: {} }, missing),
        /browser rendering is not available: no Chromium executable at \/nonexistent\/chromium: .*apt-get install chromium/,
      );
    } finally {
      await missing.pool.close();
    }
  });
});

/** SIGKILLs the Chromium processes this test process started (the browser and its helpers). */
function killChildBrowsers(): void {
  const children = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], {
    encoding: 'utf8',
  });
  let killed = 0;
  for (const line of children.trim().split('\n')) {
    const [pid, command] = line.trim().split(/\s+/);
    if (command?.startsWith('chrom')) {
      process.kill(Number(pid), 'SIGKILL');
      killed += 1;
    }
  }
  assert.ok(killed > 0, `no browser process among the children:\n${children}`);
}
