import type { BrowserContext, Page } from 'playwright-core';
import type { AddressPolicy } from '../net/index.js';
import type { BrowserPool } from './browser-pool.js';
import { EgressGate } from './egress-gate.js';
import { HostVerdicts } from './host-verdicts.js';
import { DISABLE_WEBRTC } from './in-page-scripts.js';
import { RenderTab } from './render-tab.js';
import { SubrequestFetcher } from './subrequest-fetcher.js';
import {
  RenderFailure,
  type RenderedPage,
  type RenderRequest,
  type RenderSession,
  type RenderTiming,
  type SessionOptions,
} from './render-types.js';

/** A tab is retired after this many renders, so a leaking site cannot grow one page forever. */
const RENDERS_PER_TAB = 100;
/** How long a browser that lost a page may take to report that it is gone. */
const LOSS_SETTLE_MS = 2000;

/**
 * The browser side of one run: a context of its own (cookies and storage live as long as the
 * run, never shared with another run) and tabs reused from page to page. A page that fails,
 * times out or crashes takes its tab with it; a lost browser gives a new context, and the page
 * is rendered once more.
 */
export class ChromiumRenderSession implements RenderSession {
  private context: Promise<BrowserContext> | undefined;
  private idleTabs: RenderTab[] = [];
  private closed = false;
  private readonly verdicts: HostVerdicts;
  /** Sub-requests over guarded connections; none when the policy allows every address. */
  private readonly subrequests: SubrequestFetcher | undefined;
  private readonly tabsByPage = new WeakMap<Page, RenderTab>();
  /** The proxy of the run's context, started with it; none when the policy allows every address. */
  private gate: Promise<EgressGate> | undefined;

  constructor(
    private readonly pool: BrowserPool,
    private readonly options: SessionOptions,
    private readonly addresses: AddressPolicy,
    private readonly timing: RenderTiming,
  ) {
    this.verdicts = new HostVerdicts(addresses);
    this.subrequests = addresses.allowsEverything
      ? undefined
      : new SubrequestFetcher(addresses, timing.pageTimeoutMs);
    pool.sessionOpened();
  }

  async render(request: RenderRequest): Promise<RenderedPage> {
    if (request.signal.aborted || this.closed) throw new RenderFailure('run stopped');
    await this.pool.acquirePage();
    try {
      try {
        return await this.renderOnce(request);
      } catch (error) {
        if (!isBrowserLoss(error) || request.signal.aborted || this.closed) throw asFailure(error);
        // A crashed page process leaves the browser fine; a lost page may mean a lost browser.
        if (!/Target crashed/.test(firstLine(error))) await this.settleLoss();
        return await this.renderOnce(request).catch((retryError: unknown) => {
          throw asFailure(retryError);
        });
      }
    } finally {
      this.pool.releasePage();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.idleTabs = [];
    const context = await this.context?.catch(() => undefined);
    this.context = undefined;
    await context?.close().catch(() => undefined);
    await this.subrequests?.close().catch(() => undefined);
    await (await this.gate?.catch(() => undefined))?.close();
    this.pool.sessionClosed();
  }

  /**
   * After a loss, gives a dying browser a moment to report its disconnection, so the retry
   * starts a new one instead of reusing a context that only looks alive.
   */
  private async settleLoss(): Promise<void> {
    const browser = (await this.context?.catch(() => undefined))?.browser();
    if (browser === null || browser === undefined || !browser.isConnected()) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, LOSS_SETTLE_MS);
      function done(): void {
        clearTimeout(timer);
        browser?.off('disconnected', done);
        resolve();
      }
      browser.once('disconnected', done);
    });
  }

  /** Takes a tab and renders, all within the page limit: a hung browser cannot stall the run. */
  private async renderOnce(request: RenderRequest): Promise<RenderedPage> {
    let tab: RenderTab | undefined;
    let reusable = false;
    let over = false;
    try {
      const page = await this.withinLimit(request.signal, async () => {
        const taken = await this.takeTab();
        // The limit passed while the tab was being opened: nobody will close it but us.
        if (over) {
          void taken.close();
          throw new RenderFailure('run stopped');
        }
        tab = taken;
        return taken.render(request);
      });
      reusable = tab !== undefined && tab.uses < RENDERS_PER_TAB && !tab.crashed && !this.closed;
      return page;
    } finally {
      over = true;
      if (tab !== undefined) {
        if (reusable) this.park(tab);
        else void tab.close();
      }
    }
  }

  /**
   * Pauses a tab's document while it waits for the next page, so nothing of it keeps running.
   * The tab is offered at once (a render waiting for it would otherwise open another tab);
   * takeTab waits for the pause to finish.
   */
  private park(tab: RenderTab): void {
    tab.pause();
    this.idleTabs.push(tab);
  }

  private async takeTab(): Promise<RenderTab> {
    if (this.closed) throw new RenderFailure('run stopped');
    const context = await this.liveContext();
    for (let tab = this.idleTabs.pop(); tab !== undefined; tab = this.idleTabs.pop()) {
      if ((await tab.paused()) && tab.usable) return tab;
      void tab.close();
    }
    const tab = await RenderTab.open(context, this.options, this.verdicts, this.subrequests, this.timing);
    this.tabsByPage.set(tab.page, tab);
    return tab;
  }

  /** The run's context, made again (with a browser started again) when the browser was lost. */
  private async liveContext(): Promise<BrowserContext> {
    const pending = this.context;
    const current = await pending?.catch(() => undefined);
    if (current?.browser()?.isConnected()) return current;
    // Another render may have replaced the lost context while this one waited: use theirs.
    if (this.context !== pending && this.context !== undefined) return this.liveContext();
    this.idleTabs = [];
    this.context = this.newContext();
    return this.context;
  }

  private async newContext(): Promise<BrowserContext> {
    const { userAgent, language, viewport } = this.options;
    // Whatever Chromium connects to beside the request interceptor (WebSockets, TURN over TCP,
    // preconnects) goes through the gate, which opens only what the address policy allows.
    if (!this.addresses.allowsEverything && !this.closed) {
      this.gate ??= EgressGate.start(this.addresses, this.timing.pageTimeoutMs);
    }
    const gate = await this.gate;
    if (this.closed) throw new RenderFailure('run stopped');
    const context = await this.pool.newContext({
      ...(gate !== undefined && { proxy: { server: gate.proxyServer } }),
      viewport,
      deviceScaleFactor: 1,
      userAgent,
      extraHTTPHeaders: language === null ? {} : { 'accept-language': language },
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    await context.addInitScript(DISABLE_WEBRTC);
    // Routed per context, not per page, so a popup a script opens is caught too: its requests
    // are refused (it belongs to no tab) and the popup itself is closed at once.
    await context.route('**/*', (route, request) => {
      let tab: RenderTab | undefined;
      try {
        tab = this.tabsByPage.get(request.frame().page());
      } catch {
        tab = undefined;
      }
      if (tab !== undefined) return tab.route(route, request);
      return route.abort('blockedbyclient').catch(() => undefined);
    });
    context.on('page', (page) => {
      void page.opener().then((opener) => (opener === null ? undefined : page.close()));
    });
    return context;
  }

  /** Ends the work when the page limit passes or the run stops; its tab is then closed. */
  private async withinLimit<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const limit = new Promise<never>((_resolve, reject) => {
      const seconds = this.timing.pageTimeoutMs / 1000;
      timer = setTimeout(
        () => reject(new RenderFailure(`rendering took longer than ${seconds} s`)),
        this.timing.pageTimeoutMs,
      );
      onAbort = () => reject(new RenderFailure('run stopped'));
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
    });
    const working = work();
    working.catch(() => undefined);
    try {
      return await Promise.race([working, limit]);
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
    }
  }
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

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
