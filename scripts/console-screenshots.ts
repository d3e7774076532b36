/**
 * `npm run screenshots` (second part): pictures of the management console for the README and
 * docs/console.md. Starts `kumo serve` on a fresh data directory with the browser, serves the
 * demo documentation site (demo-site.ts) on 127.0.0.2, and sets the scene through the documented
 * management API as an operator would: a search service with the demo rules, a crawl setting
 * feeding it (run now), an instant crawl with screenshots, a few searches and clicks, and an
 * owner invited and signed in. Then takes screenshots in Debian's Chromium of the overview, the
 * setting editor, a run, a search service and the analytics, in English and Japanese, on a desktop
 * (1280 px) and a phone (360 px), into docs/images/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { type KumoServe, startKumoServe } from '../bench/search-load-processes.js';
import { DEMO_ORIGIN, DEMO_SEARCH_CONFIG, demoDocuments } from './demo-site.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const IMAGES = path.join(ROOT, 'docs/images');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 760 };
const OWNER = { email: 'owner@aozora-notes.example', password: 'a long demo password' };
const GROUP = '/contracts/1/servicegroups/1';

/** The demo rules, for the demo site wherever it is served (their patterns name its public origin). */
const LOCAL_RULES = JSON.parse(
  JSON.stringify(DEMO_SEARCH_CONFIG).replaceAll(
    `^${DEMO_ORIGIN.replaceAll('.', '\\\\.')}`,
    '^https?://[^/]+',
  ),
) as typeof DEMO_SEARCH_CONFIG;

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The demo site's HTML pages, and a start page linking to all of them. */
async function startDemoSite(): Promise<{ server: Server; url: string }> {
  const pages = new Map(
    demoDocuments(Math.floor(Date.now() / 1000))
      .filter((document) => document.doctype === undefined || document.doctype === 'html')
      .map((document) => [new URL(document.url).pathname, document]),
  );
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    const page = pages.get(pathname);
    const lang = pathname.startsWith('/ja/') ? 'ja' : 'en';
    if (pathname === '/') {
      const links = [...pages.keys()].map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html lang="en"><title>Aozora Notes</title><h1>Aozora Notes</h1><ul>${links}</ul></html>`,
      );
      return;
    }
    if (page === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Not found</title><p>Not found');
      return;
    }
    const body = page.body
      .split('\n')
      .map((line) => `<p>${escape(line)}</p>`)
      .join('');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escape(page.title)}</title>` +
        `<meta name="description" content="${escape(page.description)}"></head>` +
        `<body style="font-family: system-ui; max-width: 46rem; margin: 2rem auto"><h1>${escape(page.title)}</h1>${body}` +
        '<p><a href="/">Aozora Notes</a> · <a href="/en/missing.html">An old link</a></p></body></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return { server, url: `http://127.0.0.2:${(server.address() as AddressInfo).port}` };
}

async function untilEnded(serve: KumoServe, runId: number): Promise<void> {
  for (let tries = 0; tries < 240; tries++) {
    const answer = (await serve.admin('GET', `${GROUP}/runs/${runId}`)) as {
      run: { end_datetime: string | null };
    };
    if (answer.run.end_datetime !== null) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`run ${runId} did not end`);
}

/** The scene: a search service fed by a scheduled setting, an instant crawl, searches, an owner. */
async function setScene(
  serve: KumoServe,
  site: string,
): Promise<{ runId: number; settingId: number; serviceId: number }> {
  const service = await serve.admin('POST', `${GROUP}/search_services`, {
    name: 'Aozora Notes docs',
    config: LOCAL_RULES,
  });
  const serviceId = service.service_id as number;
  const setting = await serve.admin('POST', `${GROUP}/service_settings`, {
    name: 'Docs site, nightly',
    setting: { seed_urls: [`${site}/`], deny_urls_patterns: ['/drafts/'], depth_limit: 3 },
    schedule: { interval: 2, min: 30, hour: 3 },
    service_id: serviceId,
  });
  const settingId = setting.service_setting_id as number;
  const feed = await serve.admin('POST', `${GROUP}/service_settings/${settingId}/run`);
  await untilEnded(serve, feed.run_id as number);
  const instant = await serve.admin('POST', `${GROUP}/runs`, {
    setting: {
      seed_urls: [`${site}/`],
      depth_limit: 1,
      screenshot: { viewport_width: 1280, viewport_height: 800 },
    },
  });
  const runId = (instant.run as { id: number }).id;
  await untilEnded(serve, runId);
  const search = `/api/v1.0/finder_service/documents/1/1/${serviceId}/search`;
  for (const q of ['sync', 'sync', 'export', '同期', 'backup', 'offline mode', 'tags', 'sync', 'zzz plugin'])
    await serve.get(`${search}?q=${encodeURIComponent(q)}`);
  const invitation = await serve.admin('POST', '/contracts/1/invitations', {
    email: OWNER.email,
    role: 'owner',
  });
  await fetch(`${serve.url}/admin/v1/invitations/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: invitation.token, password: OWNER.password }),
  });
  return { runId, settingId, serviceId };
}

async function signedIn(
  browser: Browser,
  serve: KumoServe,
  locale: 'en-US' | 'ja-JP',
  viewport: typeof DESKTOP,
): Promise<Page> {
  const context = await browser.newContext({ viewport, locale, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${serve.url}/console/sign-in`);
  await page.locator('#sign-in-email').fill(OWNER.email);
  await page.locator('#sign-in-password').fill(OWNER.password);
  await page.locator('form button[type="submit"]').first().click();
  await page.locator('.shell').waitFor();
  return page;
}

async function shoot(
  page: Page,
  address: string,
  file: string,
  ready: string,
  fullPage = false,
): Promise<void> {
  await page.goto(address);
  await page.locator(ready).first().waitFor({ timeout: 20_000 });
  // Lazy images (the screenshot gallery) load once scrolled to.
  if (fullPage) {
    // A sticky footer would sit in the middle of a whole-page picture.
    await page
      .locator('.form-footer')
      .evaluateAll((footers) =>
        footers.forEach(
          (footer) => ((footer as unknown as { style: { position: string } }).style.position = 'static'),
        ),
      );
    await page.mouse.wheel(0, 20_000);
    await page.waitForTimeout(1500);
    await page.mouse.wheel(0, -20_000);
  }
  await page.waitForTimeout(600);
  await page.screenshot({ path: path.join(IMAGES, file), fullPage });
  process.stderr.write(`  wrote docs/images/${file}\n`);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kumo-console-screenshots-'));
  let serve: KumoServe | undefined;
  let site: { server: Server; url: string } | undefined;
  const browser = await chromium.launch({
    executablePath: process.env.KUMO_CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    serve = await startKumoServe(dataDir, { browser: true });
    site = await startDemoSite();
    const { runId, settingId, serviceId } = await setScene(serve, site.url);
    mkdirSync(IMAGES, { recursive: true });
    const console = (inside: string) => `${serve!.url}/console/contracts/1/groups/1${inside}`;
    const en = await signedIn(browser, serve, 'en-US', DESKTOP);
    await shoot(en, console(''), 'console-overview-en.png', '.traffic');
    await shoot(en, console(`/settings/${settingId}`), 'console-setting-editor-en.png', '.next-runs li');
    await shoot(en, console(`/search/${serviceId}`), 'console-search-service-en.png', '.facet-tree li', true);
    const ja = await signedIn(browser, serve, 'ja-JP', DESKTOP);
    await shoot(ja, console(`/runs/${runId}`), 'console-run-ja.png', '.thumb img', true);
    await shoot(
      ja,
      console(`/analytics?service=${serviceId}`),
      'console-analytics-ja.png',
      '.chart-box canvas',
    );
    const phone = await signedIn(browser, serve, 'ja-JP', PHONE);
    await shoot(phone, console(''), 'console-overview-ja-phone.png', '.traffic');
  } finally {
    await browser.close();
    site?.server.close();
    await serve?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
