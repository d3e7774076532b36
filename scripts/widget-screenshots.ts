/**
 * `npm run screenshots`: pictures of what a visitor sees, for the README and
 * docs/reference/widget.md. Starts `kumo serve` on a fresh data directory, creates the search
 * service "Aozora Notes" with the demo site's rules (demo-site.ts) and indexes its pages, serves a
 * customer's page on 127.0.0.2 that embeds the widget with the documented snippet, and takes
 * screenshots in Debian's Chromium of the widget and of the hosted results page, on a desktop
 * (1280 px) and a phone (360 px), in English and Japanese, into docs/images/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { BatchIndexer } from '../src/search/indexing.js';
import { SearchIndex } from '../src/search/local-index.js';
import { searchIndexFile } from '../src/config/index.js';
import { type KumoServe, startKumoServe } from '../bench/search-load-processes.js';
import { DEMO_SEARCH_CONFIG, demoDocuments } from './demo-site.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN_JS = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const IMAGES = path.join(ROOT, 'docs/images');
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 360, height: 760 };

interface Shot {
  file: string;
  url: string;
  viewport: { width: number; height: number };
  /** Types this into the box and waits for suggestions, instead of waiting for results. */
  typeForSuggestions?: string;
}

/** A customer's page: its own header and styles, the widget in the documented snippet. */
function customerPage(kumoUrl: string, serviceId: number, lang: 'en' | 'ja'): string {
  const heading = lang === 'ja' ? 'ヘルプセンター' : 'Help center';
  const lead =
    lang === 'ja'
      ? 'ガイド、API リファレンス、ブログ、よくある質問を検索できます。'
      : 'Search the guides, the API reference, the blog and the FAQ.';
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Aozora Notes — ${heading}</title>
<style>
  body { margin: 0; font-family: system-ui, sans-serif; color: #1c2433; background: #f6f8fb; }
  header { background: #123a6b; color: #fff; padding: 14px 24px; font-weight: 600; letter-spacing: .02em; }
  main { max-width: 880px; margin: 0 auto; padding: 24px 16px 48px; }
  h1 { font-size: 28px; margin: 8px 0 4px; } p.lead { color: #4a5568; margin: 0 0 20px; }
</style></head><body><header>Aozora Notes</header><main><h1>${heading}</h1><p class="lead">${lead}</p>
<div id="kumo-search"></div>
<script src="${kumoUrl}/widget/v1/kumo-search.js" data-service="1/1/${serviceId}" defer></script>
</main></body></html>`;
}

async function startCustomerSite(
  kumoUrl: string,
  serviceId: number,
): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const lang = (request.url ?? '').startsWith('/ja') ? 'ja' : 'en';
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(customerPage(kumoUrl, serviceId, lang));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return { server, url: `http://127.0.0.2:${(server.address() as AddressInfo).port}` };
}

/** Creates the demo search service with the CLI (as an operator does) and indexes the site into it. */
async function createDemoService(dataDir: string): Promise<number> {
  const configFile = path.join(dataDir, 'demo-config.json');
  writeFileSync(configFile, JSON.stringify(DEMO_SEARCH_CONFIG));
  const output = execFileSync(
    process.execPath,
    [
      MAIN_JS,
      'admin',
      'searchservice',
      'create',
      '--contract',
      '1',
      '--servicegroup',
      '1',
      '--name',
      'Aozora Notes',
      '--config',
      configFile,
    ],
    { env: { ...process.env, KUMO_DATA_DIR: dataDir }, encoding: 'utf8' },
  );
  const serviceId = Number(/\d+/.exec(output)?.[0]);
  if (!Number.isInteger(serviceId)) throw new Error(`no search service id in: ${output}`);
  const indexFile = searchIndexFile(dataDir, serviceId);
  mkdirSync(path.dirname(indexFile), { recursive: true });
  const index = new SearchIndex(indexFile);
  const indexer = new BatchIndexer(index.writer.forFeed('demo:site'), () => undefined, { batchSize: 100 });
  try {
    for (const document of demoDocuments(Math.floor(Date.now() / 1000))) await indexer.add(document);
    await indexer.finish();
  } finally {
    index.close();
  }
  return serviceId;
}

async function take(browser: Browser, shot: Shot): Promise<void> {
  const context = await browser.newContext({ viewport: shot.viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(shot.url);
  if (shot.typeForSuggestions !== undefined) {
    const input = page.locator('[part~="input"]').first();
    await input.click();
    await page.keyboard.type(shot.typeForSuggestions, { delay: 80 });
    await page.locator('[part~="option"]').first().waitFor();
  } else {
    await page.locator('[part~="result"]').first().waitFor();
    await page
      .locator('[part~="related-link"]')
      .first()
      .waitFor({ timeout: 3000 })
      .catch(() => undefined);
  }
  // Transitions and fonts settle before the picture.
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(IMAGES, shot.file), fullPage: false });
  await context.close();
  process.stderr.write(`  wrote docs/images/${shot.file}\n`);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kumo-screenshots-'));
  let serve: KumoServe | undefined;
  let site: { server: Server; url: string } | undefined;
  const browser = await chromium.launch({
    executablePath: process.env.KUMO_CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    serve = await startKumoServe(dataDir);
    const serviceId = await createDemoService(dataDir);
    site = await startCustomerSite(serve.url, serviceId);
    mkdirSync(IMAGES, { recursive: true });
    const hosted = `${serve.url}/search/1/1/${serviceId}`;
    const shots: Shot[] = [
      {
        file: 'widget-suggestions-en.png',
        url: `${site.url}/en`,
        viewport: DESKTOP,
        typeForSuggestions: 'sy',
      },
      { file: 'widget-results-en.png', url: `${site.url}/en?kumo_q=sync`, viewport: DESKTOP },
      {
        file: 'widget-results-ja-phone.png',
        url: `${site.url}/ja?kumo_q=${encodeURIComponent('同期')}`,
        viewport: PHONE,
      },
      {
        file: 'hosted-page-ja.png',
        url: `${hosted}?q=${encodeURIComponent('同期')}&lang=ja`,
        viewport: DESKTOP,
      },
      { file: 'hosted-page-en-phone.png', url: `${hosted}?q=sync&lang=en`, viewport: PHONE },
    ];
    for (const shot of shots) await take(browser, shot);
  } finally {
    await browser.close();
    site?.server.close();
    await serve?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
