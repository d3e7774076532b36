import type { BrowserContext, CDPSession, Page, Request, Route } from 'playwright-core';
import type { AddressPolicy } from '../net/address-policy.js';
import { DOCUMENT_HEIGHT, SERIALIZE_DOM } from './in-page-scripts.js';
import { NetworkIdleTracker } from './network-idle.js';
import type { RenderedPage, RenderRequest, RenderTiming, SessionOptions } from './render-types.js';
import { RequestInterceptor } from './request-interceptor.js';

const JPEG_QUALITY = 80;
/** Chromium cannot capture taller surfaces in one piece; taller pages are cut at this height. */
export const MAX_CAPTURE_HEIGHT = 16_384;

/**
 * One browser page, reused for page after page of a run: opening a page costs more than
 * rendering one. Between two renders nothing of the old document may act: its requests are
 * refused, and a page shown again at the same address is reloaded from a blank page.
 */
export class RenderTab {
  /** Renders done; the session retires a tab after a number of them. */
  uses = 0;
  /** Set when the page's process died; the tab is not used again. */
  crashed = false;
  private interceptor: RequestInterceptor | undefined;
  private onCrash: (() => void) | undefined;

  private constructor(
    private readonly page: Page,
    private readonly cdp: CDPSession,
    private readonly options: SessionOptions,
    private readonly addresses: AddressPolicy,
    private readonly timing: RenderTiming,
  ) {
    page.on('crash', () => {
      this.crashed = true;
      this.onCrash?.();
    });
  }

  static async open(
    context: BrowserContext,
    options: SessionOptions,
    addresses: AddressPolicy,
    timing: RenderTiming,
  ): Promise<RenderTab> {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const tab = new RenderTab(page, cdp, options, addresses, timing);
    await page.route('**/*', (route, request) => tab.route(route, request));
    return tab;
  }

  async render(request: RenderRequest): Promise<RenderedPage> {
    this.uses += 1;
    const target = new URL(request.url);
    const interceptor = new RequestInterceptor(
      { url: target, response: request.document, authorizationFor: this.options.authorizationFor },
      this.addresses,
    );
    const network = new NetworkIdleTracker(this.page);
    const crashed = new Promise<never>((_resolve, reject) => {
      this.onCrash = () => reject(new Error('Target crashed: the page process died'));
    });
    crashed.catch(() => undefined);
    try {
      // Same address but for the fragment: goto would only scroll or fire hashchange in the
      // old document. A blank page in between makes it a fresh load of the fetched response.
      if (withoutHash(this.page.url()) === withoutHash(target.href)) await this.page.goto('about:blank');
      this.interceptor = interceptor;
      return await Promise.race([this.steps(request, interceptor, network), crashed]);
    } finally {
      this.interceptor = undefined;
      this.onCrash = undefined;
      network.dispose();
    }
  }

  async close(): Promise<void> {
    await this.page.close().catch(() => undefined);
  }

  private async steps(
    request: RenderRequest,
    interceptor: RequestInterceptor,
    network: NetworkIdleTracker,
  ): Promise<RenderedPage> {
    await this.page.goto(request.url, { waitUntil: 'domcontentloaded', timeout: this.timing.pageTimeoutMs });
    const started = Date.now();
    const bound = this.timing.idleWaitMs;
    await this.page.waitForLoadState('load', { timeout: bound }).catch(() => undefined);
    let networkIdle = true;
    if (request.waitForNetworkIdle)
      networkIdle = await network.idle(Math.max(0, bound - (Date.now() - started)));
    const screenshot = request.screenshot === 'none' ? undefined : await this.capture(request.screenshot);
    const dom = await this.page.evaluate<string>(SERIALIZE_DOM);
    return {
      dom,
      screenshot,
      scriptNavigations: interceptor.scriptNavigations,
      blockedRequests: interceptor.blockedRequests,
      networkIdle,
    };
  }

  /**
   * JPEG straight from the DevTools protocol with the fast encoder: Playwright's screenshot adds
   * style injections and round trips that cost more than the capture on a loaded machine.
   */
  private async capture(mode: 'viewport' | 'full'): Promise<Buffer> {
    const shot: Record<string, unknown> = { format: 'jpeg', quality: JPEG_QUALITY, optimizeForSpeed: true };
    if (mode === 'full') {
      const height = Math.min(await this.page.evaluate<number>(DOCUMENT_HEIGHT), MAX_CAPTURE_HEIGHT);
      const { width } = this.options.viewport;
      shot.captureBeyondViewport = true;
      shot.clip = { x: 0, y: 0, width, height: Math.max(height, this.options.viewport.height), scale: 1 };
    }
    const { data } = await this.cdp.send('Page.captureScreenshot', shot);
    return Buffer.from(data, 'base64');
  }

  /** Requests outside a render come from a document that is done with: refused. */
  private async route(route: Route, request: Request): Promise<void> {
    const interceptor = this.interceptor;
    if (interceptor !== undefined) return interceptor.handle(route, request);
    if (request.url().startsWith('about:')) return route.continue().catch(() => undefined);
    await route.abort('aborted').catch(() => undefined);
  }
}

function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}
