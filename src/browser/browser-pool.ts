import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { Semaphore } from '../util/index.js';
import { CHROMIUM_ARGS } from './chromium-launch.js';

/** A browser that has not started by then will not: the run fails instead of waiting. */
const LAUNCH_TIMEOUT_MS = 30_000;

export interface BrowserPoolOptions {
  executablePath: string;
  /** Chromium's own sandbox for renderer processes (cannot be used when running as root). */
  sandbox: boolean;
  /** Pages rendering at once, over all runs. */
  pages: number;
  /** The browser is closed after this long without a page in use, to give its memory back. */
  idleCloseMs: number;
}

/** Pages rendering at once: a semaphore of this pool, or one shared over threads. */
export interface PageSlots {
  acquire(): Promise<void>;
  release(): void;
  readonly inUse: number;
}

/**
 * A browser started elsewhere and shared (docs/design/crawl.md, Crawl threads): the pool connects
 * to it instead of launching its own, and takes page slots from the owner of the browser.
 */
export interface SharedBrowser {
  /** Connects to the shared browser (the owner starts it first if need be). */
  connect(): Promise<Browser>;
  slots: PageSlots;
}

/** Logs of the pool, for the service log. */
export interface BrowserPoolEvents {
  launched?(version: string): void;
  lost?(): void;
}

/**
 * One Chromium for the whole process, shared by every run, started on first use (or connected to,
 * when shared with other threads), with a bound on the pages rendering at once. Runs hold contexts
 * of their own (see ChromiumRenderSession). A browser that crashed or was killed is started again
 * by the next caller.
 */
export class BrowserPool {
  private readonly slots: PageSlots;
  private browser: Promise<Browser> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Runs holding a context: the browser is not closed for idleness under them. */
  private sessions = 0;
  /** Set while the pool itself closes the browser, which is then not reported as lost. */
  private closingBrowser = false;

  constructor(
    private readonly options: BrowserPoolOptions,
    private readonly events: BrowserPoolEvents = {},
    private readonly shared?: SharedBrowser,
  ) {
    this.slots = shared?.slots ?? new Semaphore(options.pages);
  }

  /** Waits for one of the `pages` slots; every render holds one. */
  async acquirePage(): Promise<void> {
    await this.slots.acquire();
    clearTimeout(this.idleTimer);
  }

  releasePage(): void {
    this.slots.release();
    this.scheduleIdleClose();
  }

  sessionOpened(): void {
    this.sessions += 1;
    clearTimeout(this.idleTimer);
  }

  sessionClosed(): void {
    this.sessions -= 1;
    this.scheduleIdleClose();
  }

  /** A new context in the running browser (started first if need be). */
  async newContext(options: BrowserContextOptions): Promise<BrowserContext> {
    const browser = await this.connected();
    return browser.newContext(options);
  }

  get executablePath(): string {
    return this.options.executablePath;
  }

  /** Starts the browser now (or reuses it), so a launch failure surfaces before any page. */
  async warmUp(): Promise<string> {
    const browser = await this.connected();
    this.scheduleIdleClose();
    return browser.version();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    await this.shutDownBrowser();
  }

  private async connected(): Promise<Browser> {
    if (this.closed) throw new Error('the browser pool is closed');
    const current = this.browser;
    if (current !== undefined) {
      const browser = await current.catch(() => undefined);
      if (browser?.isConnected()) return browser;
      if (this.browser === current) this.browser = undefined;
    }
    this.browser ??= this.launch();
    return this.browser;
  }

  private async launch(): Promise<Browser> {
    try {
      // Loaded on first use: playwright-core adds tens of megabytes to a process that never renders.
      const { chromium } = await import('playwright-core');
      const browser =
        this.shared !== undefined
          ? await this.shared.connect()
          : await chromium.launch({
              executablePath: this.options.executablePath,
              timeout: LAUNCH_TIMEOUT_MS,
              headless: true,
              args: CHROMIUM_ARGS,
              chromiumSandbox: this.options.sandbox,
              handleSIGINT: false,
              handleSIGTERM: false,
              handleSIGHUP: false,
            });
      browser.on('disconnected', () => {
        if (!this.closed && !this.closingBrowser) this.events.lost?.();
      });
      this.events.launched?.(browser.version());
      return browser;
    } catch (error) {
      this.browser = undefined;
      throw error;
    }
  }

  private scheduleIdleClose(): void {
    clearTimeout(this.idleTimer);
    if (this.slots.inUse > 0 || this.sessions > 0 || this.closed) return;
    this.idleTimer = setTimeout(() => {
      if (this.slots.inUse === 0 && this.sessions === 0) void this.shutDownBrowser();
    }, this.options.idleCloseMs);
    this.idleTimer.unref();
  }

  private async shutDownBrowser(): Promise<void> {
    const current = this.browser;
    this.browser = undefined;
    const browser = await current?.catch(() => undefined);
    this.closingBrowser = true;
    try {
      await browser?.close().catch(() => undefined);
    } finally {
      this.closingBrowser = false;
    }
  }
}
