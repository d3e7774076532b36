/**
 * The yardstick for Kumo's rendering: the plainest Playwright loop that does the same work per
 * page (navigate, take the DOM, take a JPEG), without Kumo's crawling, request routing, address
 * checks or packaging.
 */
import { type Browser, chromium, type Page } from 'playwright-core';
import type { RenderingOptions } from './bench-options.js';
import { jpegHeight } from './jpeg-height.js';

export interface BaselineOptions {
  executablePath: string;
  urls: readonly string[];
  /** Pages rendering at once, each in its own context, reused for every URL it takes. */
  parallel: number;
  viewport: { width: number; height: number };
  rendering: RenderingOptions;
}

export interface BaselineResult {
  pages: number;
  failures: number;
  /** From launch to the last page done, the browser close not included. */
  seconds: number;
  /** Smallest and largest screenshot height in pixels, when screenshots were taken. */
  screenshotHeights: { min: number; max: number } | undefined;
  firstFailure: string | undefined;
}

/**
 * The essentials of Kumo's CHROMIUM_ARGS (no background traffic, no GPU), so the two browsers
 * differ in how they are driven rather than in how they are configured.
 */
const BASELINE_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-gpu',
];

export async function runPlaywrightBaseline(options: BaselineOptions): Promise<BaselineResult> {
  const started = performance.now();
  const browser = await chromium.launch({
    executablePath: options.executablePath,
    headless: true,
    chromiumSandbox: false,
    args: BASELINE_ARGS,
  });
  try {
    const result: BaselineResult = {
      pages: 0,
      failures: 0,
      seconds: 0,
      screenshotHeights: undefined,
      firstFailure: undefined,
    };
    let next = 0;
    // Each worker takes the next URL from the shared list, so a slow page delays only its worker.
    const worker = async (): Promise<void> => {
      const page = await openPage(browser, options);
      for (let index = next++; index < options.urls.length; index = next++) {
        try {
          const height = await renderOne(page, options.urls[index]!, options.rendering);
          result.pages += 1;
          if (height !== undefined) {
            const seen = result.screenshotHeights;
            result.screenshotHeights = seen
              ? { min: Math.min(seen.min, height), max: Math.max(seen.max, height) }
              : { min: height, max: height };
          }
        } catch (error) {
          result.failures += 1;
          result.firstFailure ??= (error instanceof Error ? error.message : String(error)).split('\n')[0];
        }
      }
    };
    await Promise.all(Array.from({ length: options.parallel }, worker));
    result.seconds = (performance.now() - started) / 1000;
    return result;
  } finally {
    await browser.close();
  }
}

async function openPage(browser: Browser, options: BaselineOptions): Promise<Page> {
  const context = await browser.newContext({ viewport: options.viewport });
  return context.newPage();
}

/** One URL as a plain script would do it; returns the screenshot height, if one was taken. */
async function renderOne(page: Page, url: string, rendering: RenderingOptions): Promise<number | undefined> {
  // --spa: Playwright's own networkidle (500 ms without requests), the same quiet window as Kumo's wait_type 2.
  await page.goto(url, { waitUntil: rendering.spa ? 'networkidle' : 'load' });
  await page.content();
  if (rendering.screenshot === 'none') return undefined;
  const image = await page.screenshot({ type: 'jpeg', fullPage: rendering.screenshot === 'full' });
  return jpegHeight(image);
}
