/**
 * Debian's Chromium for the widget tests, driven through playwright-core: one browser per test
 * file, a fresh context (cookies, storage, history) per test. A missing browser fails the file
 * with a message saying how to install one; the tests never skip.
 */
import { accessSync, constants } from 'node:fs';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';

export const CHROMIUM_PATH = process.env.KUMO_CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface WidgetBrowser {
  browser: Browser;
  /** A new context and a page in it; the context is closed by `closeContexts` (or the browser's close). */
  newPage(options?: BrowserContextOptions): Promise<{ context: BrowserContext; page: Page }>;
  /** Closes the contexts of the test that just ran. */
  closeContexts(): Promise<void>;
  close(): Promise<void>;
}

/** Launches the browser, failing with the fix when the executable is missing. */
export async function launchWidgetBrowser(): Promise<WidgetBrowser> {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
  } catch {
    throw new Error(
      `the widget tests need Chromium: no executable at ${CHROMIUM_PATH}; install Debian's chromium ` +
        'package (apt-get install chromium) or set KUMO_CHROMIUM_PATH to a Chromium executable',
    );
  }
  // --no-sandbox: the tests run as root in CI, where Chromium's sandbox refuses to start.
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  const open: BrowserContext[] = [];
  return {
    browser,
    async newPage(options = {}) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
      open.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return { context, page };
    },
    async closeContexts() {
      const contexts = open.splice(0);
      await Promise.all(contexts.map((context) => context.close()));
    },
    close: () => browser.close(),
  };
}
