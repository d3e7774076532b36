/**
 * The setup every widget test file shares: one `kumo serve` with the fixture site, one host site
 * on 127.0.0.2 and one Chromium per file (before/after), a fresh browser context per test
 * (afterEach), and `open` to load a host page with the widget on it.
 */
import { after, afterEach, before } from 'node:test';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { startedTogether } from './started-together.js';
import { launchWidgetBrowser, type WidgetBrowser } from './widget-browser.js';
import { RequestLog, Widget } from './widget-driver.js';
import {
  type ExtraHostPage,
  type HostPageVariant,
  type HostSite,
  startHostSite,
} from './widget-host-page.js';
import { startWidgetSite, type WidgetSite } from './widget-site.js';

export interface OpenedWidget {
  context: BrowserContext;
  page: Page;
  widget: Widget;
  log: RequestLog;
  /** Errors the page threw or logged to the console (failed loads are in `failedLoads`). */
  pageErrors: string[];
  /** `<status> <url>` of every answer of 400 or more the page received. */
  failedLoads: string[];
}

export interface WidgetSuite<Extra extends string = never> {
  site: WidgetSite;
  host: HostSite;
  browser: WidgetBrowser;
  /** Opens a host page variant (with a query string) in a new context and waits for the widget. */
  open(
    variant: HostPageVariant | Extra,
    query?: string,
    options?: BrowserContextOptions,
  ): Promise<OpenedWidget>;
  /** Opens any address in a new context (the hosted results page). */
  openUrl(url: string, options?: BrowserContextOptions): Promise<OpenedWidget>;
}

/**
 * Registers the file's hooks; the returned object is filled in by `before`. `extraPages` adds the
 * file's own host pages (served as `/<name>.html` beside the shared variants).
 */
export function widgetSuite<Extra extends string = never>(
  extraPages: Readonly<Record<Extra, ExtraHostPage>> = {} as Record<Extra, ExtraHostPage>,
): WidgetSuite<Extra> {
  const suite = {} as WidgetSuite<Extra>;
  before(async () => {
    const [site, browser] = await startedTogether(startWidgetSite(), launchWidgetBrowser());
    suite.site = site;
    suite.browser = browser;
    suite.host = await startHostSite(site, extraPages);
  });
  afterEach(async () => {
    await suite.browser?.closeContexts();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.host?.close();
    await suite.site?.close();
  });
  suite.openUrl = async (url, options) => {
    const { context, page } = await suite.browser.newPage(options);
    const log = new RequestLog(page);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const failedLoads: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        pageErrors.push(message.text());
      }
    });
    page.on('response', (response) => {
      if (response.status() >= 400) failedLoads.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(url);
    const widget = new Widget(page);
    await widget.host.waitFor({ state: 'attached' });
    return { context, page, widget, log, pageErrors, failedLoads };
  };
  suite.open = (variant, query, options) => suite.openUrl(suite.host.url(variant, query), options);
  return suite;
}
