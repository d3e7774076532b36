import type { BrowserContext } from 'playwright-core';
import type { AddressPolicy } from '../net/address-policy.js';
import type { BrowserPool } from './browser-pool.js';
import { RenderTab } from './render-tab.js';
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

  constructor(
    private readonly pool: BrowserPool,
    private readonly options: SessionOptions,
    private readonly addresses: AddressPolicy,
    private readonly timing: RenderTiming,
  ) {}

  async render(request: RenderRequest): Promise<RenderedPage> {
    await this.pool.acquirePage();
    try {
      try {
        return await this.renderOnce(request);
      } catch (error) {
        if (!isBrowserLoss(error) || request.signal.aborted || this.closed) throw asFailure(error);
        return await this.renderOnce(request).catch((retryError: unknown) => {
          throw asFailure(retryError);
        });
      }
    } finally {
      this.pool.releasePage();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.idleTabs = [];
    const context = await this.context?.catch(() => undefined);
    this.context = undefined;
    await context?.close().catch(() => undefined);
  }

  private async renderOnce(request: RenderRequest): Promise<RenderedPage> {
    const tab = await this.takeTab();
    let reusable = false;
    try {
      const page = await this.withinLimit(request.signal, tab.render(request));
      reusable = !tab.crashed && tab.uses < RENDERS_PER_TAB && !this.closed;
      return page;
    } finally {
      if (reusable) this.idleTabs.push(tab);
      else void tab.close();
    }
  }

  private async takeTab(): Promise<RenderTab> {
    if (this.closed) throw new RenderFailure('run stopped');
    const context = await this.liveContext();
    const tab = this.idleTabs.pop();
    if (tab !== undefined) return tab;
    return RenderTab.open(context, this.options, this.addresses, this.timing);
  }

  /** The run's context, made again (with a browser started again) when the browser was lost. */
  private async liveContext(): Promise<BrowserContext> {
    const current = await this.context?.catch(() => undefined);
    if (current?.browser()?.isConnected()) return current;
    this.idleTabs = [];
    const { userAgent, language, viewport } = this.options;
    this.context = this.pool.newContext({
      viewport,
      deviceScaleFactor: 1,
      userAgent,
      extraHTTPHeaders: language === null ? {} : { 'accept-language': language },
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    return this.context;
  }

  /** Ends the render when the page limit passes or the run stops; its tab is then closed. */
  private async withinLimit<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
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
    });
    work.catch(() => undefined);
    try {
      return await Promise.race([work, limit]);
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
