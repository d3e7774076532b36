import type { BrowserContext, CDPSession, Page, Request, Route } from 'playwright-core';
import type { HostVerdicts } from './host-verdicts.js';
import { DOCUMENT_HEIGHT, NEXT_FRAMES, SERIALIZE_DOM } from './in-page-scripts.js';
import { NetworkIdleTracker } from './network-idle.js';
import type { RenderedPage, RenderRequest, RenderTiming, SessionOptions } from './render-types.js';
import { RequestInterceptor } from './request-interceptor.js';
import type { SubrequestFetcher } from './subrequest-fetcher.js';

/** Captures tried before a page counts as failed to render. */
const CAPTURE_ATTEMPTS = 3;

const JPEG_QUALITY = 80;
/** Pausing or blanking a healthy tab is instant; longer means the tab is stuck and is retired. */
const PARK_TIMEOUT_MS = 10_000;
/** Chromium cannot capture taller surfaces in one piece; taller pages are cut at this height. */
const MAX_CAPTURE_HEIGHT = 16_384;

/**
 * One browser page, reused for page after page of a run: opening a page costs more than
 * rendering one. Between two renders the old document's scripts are paused and any request
 * outside a render is refused, so nothing of it acts; a page shown again at the same address
 * (another hash route) is loaded afresh from a blank page. (Blanking every time instead costs
 * a quarter of the throughput: Chromium swaps renderer processes for about:blank.)
 */
export class RenderTab {
  /** Renders done; the session retires a tab after a number of them. */
  uses = 0;
  /** Set when the page's process died; the tab is not used again. */
  crashed = false;
  private interceptor: RequestInterceptor | undefined;
  private onLoss: ((reason: string) => void) | undefined;
  private pausing: Promise<boolean> = Promise.resolve(true);
  /** Scripts were paused after the last render; the next one turns them on again. */
  private scriptsPaused = false;

  private constructor(
    readonly page: Page,
    private readonly cdp: CDPSession,
    private readonly options: SessionOptions,
    private readonly verdicts: HostVerdicts,
    private readonly subrequests: SubrequestFetcher | undefined,
    private readonly timing: RenderTiming,
  ) {
    page.on('crash', () => {
      this.crashed = true;
      this.onLoss?.('Target crashed: the page process died');
    });
    // A killed browser closes its pages: the render ends now, not after its idle wait.
    page.on('close', () => this.onLoss?.('Target page, context or browser has been closed'));
    // WebSockets of the page's frames and workers, which the route handler never sees.
    page.on('websocket', (socket) => this.interceptor?.noteWebSocket(socket.url()));
  }

  /** A new tab in the run's context; its requests reach it through the session's route. */
  static async open(
    context: BrowserContext,
    options: SessionOptions,
    verdicts: HostVerdicts,
    subrequests: SubrequestFetcher | undefined,
    timing: RenderTiming,
  ): Promise<RenderTab> {
    const page = await context.newPage();
    try {
      const cdp = await context.newCDPSession(page);
      return new RenderTab(page, cdp, options, verdicts, subrequests, timing);
    } catch (error) {
      await page.close().catch(() => undefined);
      throw error;
    }
  }

  get usable(): boolean {
    return !this.crashed && !this.page.isClosed();
  }

  async render(request: RenderRequest): Promise<RenderedPage> {
    this.uses += 1;
    const interceptor = new RequestInterceptor(
      {
        url: new URL(request.url),
        response: request.document,
        authorizationFor: this.options.authorizationFor,
      },
      this.verdicts,
      this.subrequests,
    );
    const network = new NetworkIdleTracker(this.page);
    const lost = new Promise<never>((_resolve, reject) => {
      this.onLoss = (reason) => reject(new Error(reason));
    });
    lost.catch(() => undefined);
    try {
      if (this.scriptsPaused) {
        await this.withinPark(this.cdp.send('Emulation.setScriptExecutionDisabled', { value: false }));
        this.scriptsPaused = false;
      }
      // Same address but for the fragment: goto would only change the hash of the old document.
      if (withoutHash(this.page.url()) === withoutHash(request.url)) {
        await this.withinPark(this.page.goto('about:blank'));
      }
      this.interceptor = interceptor;
      return await Promise.race([this.steps(request, interceptor, network), lost]);
    } finally {
      this.interceptor = undefined;
      this.onLoss = undefined;
      network.dispose();
    }
  }

  /** Starts pausing the shown document's scripts until the next render. */
  pause(): void {
    this.scriptsPaused = true;
    this.pausing = this.usable
      ? this.withinPark(this.cdp.send('Emulation.setScriptExecutionDisabled', { value: true })).then(
          () => true,
          () => false,
        )
      : Promise.resolve(false);
  }

  /** Whether the last pause took: false when the tab is unfit for another render. */
  paused(): Promise<boolean> {
    return this.pausing;
  }

  private async withinPark<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('the tab does not answer')), PARK_TIMEOUT_MS);
    });
    try {
      return await Promise.race([work, limit]);
    } finally {
      clearTimeout(timer);
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
    let networkIdle: boolean | null = null;
    if (request.waitForNetworkIdle) {
      networkIdle = await network.idle(Math.max(0, bound - (Date.now() - started)));
    }
    const screenshot = request.screenshot === 'none' ? undefined : await this.capture(request.screenshot);
    const { html, location } = await this.page.evaluate<{ html: string; location: string }>(SERIALIZE_DOM);
    await interceptor.settled();
    return {
      dom: html,
      location,
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
    for (let attempt = 1; ; attempt += 1) {
      try {
        const { data } = await this.cdp.send('Page.captureScreenshot', shot);
        return Buffer.from(data, 'base64');
      } catch (error) {
        // Chromium answers "Unable to capture screenshot" when the page has not produced a
        // compositor frame yet (a tiny page right after its load, on a busy machine): wait for
        // the next frames and ask again. The page's hard time limit still bounds this.
        if (attempt >= CAPTURE_ATTEMPTS || !/Unable to capture screenshot/.test(String(error))) throw error;
        await this.page.evaluate(NEXT_FRAMES).catch(() => undefined);
      }
    }
  }

  /** Every request of this tab: a render's go through its interceptor, any other is refused. */
  async route(route: Route, request: Request): Promise<void> {
    const interceptor = this.interceptor;
    if (interceptor !== undefined) return interceptor.handle(route, request);
    await route.abort('aborted').catch(() => undefined);
  }
}

function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}
