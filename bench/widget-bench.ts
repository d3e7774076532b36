/**
 * `npm run bench:widget`: what a visitor's browser pays for the search widget.
 *
 * 1. Size: dist/web/kumo-search.js as built, gzipped (level 9) and brotli-compressed, beside the
 *    15 KB gzipped budget (docs/reference/widget.md, Build).
 * 2. Keystroke to suggestion: indexes the generated corpus (search-corpus.ts, --docs) into search
 *    service 1, starts `kumo serve` on 127.0.0.1, serves a host page on 127.0.0.2 that embeds the
 *    widget with the documented snippet, and types words into it in Debian's Chromium, one key at
 *    a time with a pause after each. For every keystroke whose prefix was not typed before (the
 *    widget caches answers), the page itself records the time from the keydown (or text insertion) to the DOM
 *    change that shows suggestions for the typed text, and to the next animation frame (when the
 *    browser paints it). Prints the median, p95 and maximum against the 150 ms goal.
 *
 * Everything stays on loopback; progress goes to stderr, the figures to stdout. Exits 1 when the
 * size is over budget or the p95 is over the goal.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { BatchIndexer } from '../src/search/indexing.js';
import { SearchIndex } from '../src/search/local-index.js';
import { searchIndexFile } from '../src/config/index.js';
import { corpusDocument } from './search-corpus.js';
import { type KumoServe, startKumoServe } from './search-load-processes.js';
import { percentile } from './latency-stats.js';

const WIDGET_FILE = fileURLToPath(new URL('../web/kumo-search.js', import.meta.url));
const SIZE_BUDGET_BYTES = 15 * 1024;
const LATENCY_GOAL_MS = 150;
/** Longer than the widget's debounce and a loopback answer, so each keystroke is measured alone. */
const PAUSE_AFTER_KEY_MS = 400;
const SUGGESTION_WAIT_MS = 3000;
const BATCH = 500;
/** Prefixes typed: English and Japanese words of the corpus (search-words.ts), first letters each. */
const WORDS = [
  'information',
  'security',
  'performance',
  'download',
  'management',
  'customer',
  'research',
  'network',
  'education',
  'weather',
  'privacy',
  'library',
  '検索',
  '東京',
  'サービス',
  '情報',
  '会社',
  '技術',
];

interface BenchOptions {
  docs: number;
  chromiumPath: string;
}

function benchOptions(args: string[]): BenchOptions {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { docs: { type: 'string' }, chromium: { type: 'string' } },
  });
  const docs = values.docs === undefined ? 3000 : Number(values.docs);
  if (!Number.isInteger(docs) || docs < 100) throw new Error('--docs: expected a whole number >= 100');
  return { docs, chromiumPath: values.chromium ?? process.env.KUMO_CHROMIUM_PATH ?? '/usr/bin/chromium' };
}

function sizeReport(): boolean {
  const script = readFileSync(WIDGET_FILE);
  const gzipBytes = gzipSync(script, { level: 9 }).length;
  const brotliBytes = brotliCompressSync(script, {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 },
  }).length;
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  process.stdout.write(`widget script            ${kb(script.length)} (${script.length} bytes)\n`);
  process.stdout.write(
    `  gzipped                ${kb(gzipBytes)} (budget ${kb(SIZE_BUDGET_BYTES)}: ${gzipBytes <= SIZE_BUDGET_BYTES ? 'within' : 'OVER'})\n`,
  );
  process.stdout.write(`  brotli                 ${kb(brotliBytes)}\n`);
  return gzipBytes <= SIZE_BUDGET_BYTES;
}

async function indexCorpus(dataDir: string, docs: number): Promise<void> {
  const indexFile = searchIndexFile(dataDir, 1);
  mkdirSync(path.dirname(indexFile), { recursive: true });
  const index = new SearchIndex(indexFile);
  const indexer = new BatchIndexer(index.writer.forFeed('bench:corpus'), () => undefined, {
    batchSize: BATCH,
  });
  try {
    for (let at = 0; at < docs; at += 1) await indexer.add(corpusDocument(at));
    await indexer.finish();
  } finally {
    index.close();
  }
}

/** The host page on a second origin, embedding the widget exactly as the README's snippet does. */
async function startHostPage(kumoUrl: string): Promise<{ server: Server; url: string }> {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host page</title></head><body>' +
    '<h1>A customer site</h1><div id="kumo-search"></div>' +
    `<script src="${kumoUrl}/widget/v1/kumo-search.js" data-service="1/1/1" defer></script></body></html>`;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return { server, url: `http://127.0.0.2:${(server.address() as AddressInfo).port}/` };
}

/**
 * In the page (a script, as the bench is compiled without the DOM types): the time of the last
 * keydown or text insertion, and a watcher that notes when the listbox first shows a suggestion holding the typed
 * text, and the animation frame after it.
 */
const INSTRUMENT = `
  const bench = { startedAt: 0, domMs: -1, frameMs: -1 };
  window.kumoBench = bench;
  const start = () => { bench.startedAt = performance.now(); bench.domMs = -1; bench.frameMs = -1; };
  // keydown for keys; beforeinput also for text inserted without one (kana and kanji typed here
  // arrive as an insertion, as an IME's commit does).
  document.addEventListener('keydown', start, true);
  document.addEventListener('beforeinput', (event) => { if (event.inputType === 'insertText') start(); }, true);
  const watch = () => {
    const root = document.querySelector('.kumo-search')?.shadowRoot;
    if (!root) return void setTimeout(watch, 20);
    new MutationObserver(() => {
      if (bench.domMs >= 0) return;
      const input = root.querySelector('[part~="input"]');
      const first = root.querySelector('[part~="option"]');
      const typed = input ? input.value.trim().toLowerCase() : '';
      if (typed === '' || !first || !(first.textContent || '').toLowerCase().includes(typed)) return;
      bench.domMs = performance.now() - bench.startedAt;
      requestAnimationFrame(() => { bench.frameMs = performance.now() - bench.startedAt; });
    }).observe(root, { childList: true, subtree: true, characterData: true, attributes: true });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch); else watch();
`;

interface KeystrokeTime {
  prefix: string;
  domMs: number;
  frameMs: number;
}

async function typeWords(page: Page): Promise<{ times: KeystrokeTime[]; missed: string[] }> {
  const input = page.locator('[part~="input"]').first();
  await input.waitFor({ timeout: 15_000 });
  const seen = new Set<string>();
  const times: KeystrokeTime[] = [];
  const missed: string[] = [];
  for (const word of WORDS) {
    await input.fill('');
    await page.waitForTimeout(PAUSE_AFTER_KEY_MS);
    const letters = [...word].slice(0, /^[a-z]/.test(word) ? 3 : 2);
    let prefix = '';
    for (const letter of letters) {
      prefix += letter;
      await page.keyboard.type(letter);
      const measured = !seen.has(prefix) && (prefix.length > 1 || !/^[a-z]/.test(word));
      seen.add(prefix);
      if (!measured) {
        await page.waitForTimeout(PAUSE_AFTER_KEY_MS);
        continue;
      }
      const shown = await page
        .waitForFunction('window.kumoBench.frameMs >= 0', null, { timeout: SUGGESTION_WAIT_MS, polling: 10 })
        .then(() => true)
        .catch(() => false);
      if (!shown) missed.push(prefix);
      else {
        const { domMs, frameMs } = (await page.evaluate('window.kumoBench')) as {
          domMs: number;
          frameMs: number;
        };
        times.push({ prefix, domMs, frameMs });
        process.stderr.write(`  ${prefix}: ${domMs.toFixed(1)} ms (painted by ${frameMs.toFixed(1)} ms)\n`);
      }
      await page.waitForTimeout(PAUSE_AFTER_KEY_MS);
    }
  }
  return { times, missed };
}

async function main(): Promise<void> {
  const options = benchOptions(process.argv.slice(2));
  const sizeWithin = sizeReport();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kumo-widget-bench-'));
  let serve: KumoServe | undefined;
  let host: { server: Server; url: string } | undefined;
  const browser = await chromium.launch({ executablePath: options.chromiumPath, args: ['--no-sandbox'] });
  try {
    process.stderr.write(`  indexing ${options.docs} documents into search service 1\n`);
    await indexCorpus(dataDir, options.docs);
    serve = await startKumoServe(dataDir);
    host = await startHostPage(serve.url);
    process.stderr.write(`  kumo serve on ${serve.url}, host page on ${host.url}, ${browser.version()}\n`);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript({ content: INSTRUMENT });
    await page.goto(host.url);
    const { times, missed } = await typeWords(page);
    const report = (label: string, values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      process.stdout.write(
        `${label.padEnd(25)}median ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, ` +
          `max ${sorted[sorted.length - 1]!.toFixed(1)} ms (goal ${LATENCY_GOAL_MS} ms)\n`,
      );
      return percentile(sorted, 95);
    };
    process.stdout.write(
      `keystrokes measured      ${times.length} (no suggestion shown: ${missed.length}${missed.length ? `: ${missed.join(' ')}` : ''})\n`,
    );
    if (times.length === 0) throw new Error('no keystroke showed a suggestion');
    report(
      'keydown to suggestion',
      times.map((time) => time.domMs),
    );
    const p95 = report(
      'keydown to painted frame',
      times.map((time) => time.frameMs),
    );
    if (!sizeWithin || p95 > LATENCY_GOAL_MS) process.exitCode = 1;
  } finally {
    await browser.close();
    host?.server.close();
    await serve?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
