import type { BrowserContext, Page } from 'playwright-core';
import type { AddressPolicy } from '../net/address-policy.js';
import type { BrowserPool } from './browser-pool.js';
import { CHROMIUM_INSTALL_HINT, probeChromium } from './chromium-launch.js';
import { DECLARE_UTF8, DOCUMENT_HEIGHT } from './in-page-scripts.js';
import { NetworkIdleTracker } from './network-idle.js';
import { RequestInterceptor } from './request-interceptor.js';

/** One HTML page to render: the main document was already fetched by the crawler. */
export interface RenderRequest {
  /** URL to show the page at: the last URL after redirects, with the crawl URL's fragment. */
  url: string;
  /** The main document response, served to the browser as it was received. */
  document: { status: number; headers: Record<string, string>; body: Buffer };
  userAgent: string;
  /** Accept-Language, or null for the browser's default. */
  language: string | null;
  viewport: { width: number; height: number };
  /** none: DOM only; viewport: the first screen; full: the whole page height. */
  screenshot: 'none' | 'viewport' | 'full';
  /** wait_type 2: wait for the network to go idle before taking the DOM. */
  waitForNetworkIdle: boolean;
  /** Authorization header value for a sub-request, where the crawl's credentials apply. */
  authorizationFor(url: URL): string | undefined;
  /** Aborting it (run cancelled or timed out) ends the render at once. */
  signal: AbortSignal;
}

export interface RenderedPage {
  /** The DOM serialized after rendering (UTF-8 text). */
  dom: string;
  /** JPEG, when a screenshot was asked for. */
  screenshot: Buffer | undefined;
  /** Top-level navigations the page's scripts started (a script redirect); not followed here. */
  scriptNavigations: string[];
  /** Sub-requests refused by the address policy, with the reason. */
  blockedRequests: string[];
  /** False when the network was still busy at the end of the bounded idle wait. */
  networkIdle: boolean;
}

/** A page that could not be rendered: its row is marked failed. */
export class RenderFailure extends Error {
  override name = 'RenderFailure';
}

export interface PageRenderer {
  /** Throws, with how to fix it, when no browser can be started. */
  ensureAvailable(): Promise<void>;
  render(request: RenderRequest): Promise<RenderedPage>;
}

export interface RenderTiming {
  /** Longest wait for the load event and, with wait_type 2, for the network to go idle. */
  idleWaitMs: number;
  /** Hard limit of one page: navigation, waits and capture. */
  pageTimeoutMs: number;
}

const JPEG_QUALITY = 80;
/** Chromium cannot capture taller surfaces in one piece; taller pages are cut at this height. */
export const MAX_CAPTURE_HEIGHT = 16_384;
/** Renders pages in Chromium through a BrowserPool; a crashed browser is replaced and the page retried once. */
export class ChromiumRenderer implements PageRenderer {
  constructor(
    private readonly pool: BrowserPool,
    private readonly addresses: AddressPolicy,
    private readonly timing: RenderTiming,
  ) {}

  async ensureAvailable(): Promise<void> {
    try {
      await this.pool.warmUp();
    } catch (error) {
      const probe = await probeChromium(this.pool.executablePath);
      const reason =
        probe.reason ??
        `Chromium at ${probe.executablePath} did not start (${firstLine(error)}): ${CHROMIUM_INSTALL_HINT}`;
      throw new Error(`browser rendering is not available: ${reason}`);
    }
  }

  async render(request: RenderRequest): Promise<RenderedPage> {
    try {
      return await this.renderOnce(request);
    } catch (error) {
      if (!isBrowserLoss(error) || request.signal.aborted) throw asFailure(error);
      try {
        return await this.renderOnce(request);
      } catch (retryError) {
        throw asFailure(retryError);
      }
    }
  }

  private renderOnce(request: RenderRequest): Promise<RenderedPage> {
    const headers: Record<string, string> = {};
    if (request.language !== null) headers['accept-language'] = request.language;
    return this.pool.withContext(
      {
        viewport: request.viewport,
        deviceScaleFactor: 1,
        userAgent: request.userAgent,
        extraHTTPHeaders: headers,
        serviceWorkers: 'block',
        acceptDownloads: false,
      },
      (context) => this.withinLimit(request, () => this.capture(context, request)),
    );
  }

  /**
   * Ends the render when the page limit passes or the run stops; the pool then closes the
   * context, which ends whatever the page was still doing.
   */
  private async withinLimit<T>(request: RenderRequest, work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const limit = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new RenderFailure(`rendering took longer than ${this.timing.pageTimeoutMs / 1000} s`)),
        this.timing.pageTimeoutMs,
      );
      onAbort = () => reject(new RenderFailure('run stopped'));
      request.signal.addEventListener('abort', onAbort, { once: true });
    });
    const working = work();
    try {
      return await Promise.race([working, limit]);
    } finally {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort!);
      working.catch(() => undefined);
    }
  }

  private async capture(context: BrowserContext, request: RenderRequest): Promise<RenderedPage> {
    const network = new NetworkIdleTracker(context);
    const interceptor = new RequestInterceptor(
      { url: new URL(request.url), response: request.document, authorizationFor: request.authorizationFor },
      this.addresses,
    );
    await context.route('**/*', (route, sub) => interceptor.handle(route, sub));

    const page = await context.newPage();
    const crashed = new Promise<never>((_resolve, reject) =>
      page.once('crash', () => reject(new Error('Target crashed: the page process died'))),
    );
    crashed.catch(() => undefined);
    const steps = async (): Promise<RenderedPage> => {
      await page.goto(request.url, { waitUntil: 'domcontentloaded', timeout: this.timing.pageTimeoutMs });
      const bound = this.timing.idleWaitMs;
      const started = Date.now();
      await page.waitForLoadState('load', { timeout: bound }).catch(() => undefined);
      let networkIdle = true;
      if (request.waitForNetworkIdle) {
        networkIdle = await network.idle(Math.max(0, bound - (Date.now() - started)));
      }
      const screenshot = await this.screenshotOf(page, request);
      const dom = await serializeDom(page);
      return {
        dom,
        screenshot,
        scriptNavigations: interceptor.scriptNavigations,
        blockedRequests: interceptor.blockedRequests,
        networkIdle,
      };
    };
    return Promise.race([steps(), crashed]);
  }

  private async screenshotOf(page: Page, request: RenderRequest): Promise<Buffer | undefined> {
    if (request.screenshot === 'none') return undefined;
    const fullPage = request.screenshot === 'full';
    let clip: { x: number; y: number; width: number; height: number } | undefined;
    if (fullPage) {
      const height = await page.evaluate<number>(DOCUMENT_HEIGHT);
      if (height > MAX_CAPTURE_HEIGHT) {
        clip = { x: 0, y: 0, width: request.viewport.width, height: MAX_CAPTURE_HEIGHT };
      }
    }
    return page.screenshot({
      type: 'jpeg',
      quality: JPEG_QUALITY,
      fullPage,
      clip,
      animations: 'disabled',
      timeout: this.timing.pageTimeoutMs,
    });
  }
}

/**
 * The DOM as UTF-8 text. A charset the page declared (Shift_JIS, say) would mislabel the UTF-8
 * file, so declarations are rewritten to utf-8 first; nothing else is changed.
 */
async function serializeDom(page: Page): Promise<string> {
  await page.evaluate(DECLARE_UTF8);
  return page.content();
}

/** Errors after which a new browser (or page process) may well succeed. */
function isBrowserLoss(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Target crashed|Target page, context or browser has been closed|Browser has been closed|browser has disconnected/i.test(
    message,
  );
}

function asFailure(error: unknown): RenderFailure {
  if (error instanceof RenderFailure) return error;
  return new RenderFailure(`rendering failed: ${firstLine(error)}`);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
