import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { type BrowserPoolEvents, CHROMIUM_ARGS } from '../browser/index.js';
import { Semaphore } from '../util/index.js';
import type {
  BrowserAnswer,
  BrowserRequest,
  FromBrowserThread,
  ToBrowserThread,
} from './browser-protocol.js';

/** A browser that has not started by then will not: the run fails instead of waiting. */
const LAUNCH_TIMEOUT_MS = 30_000;

export interface BrowserHostOptions {
  executablePath: string;
  sandbox: boolean;
  /** Pages rendering at once, over all runs (KUMO_BROWSER_PAGES). */
  pages: number;
  /** The browser is closed after this long without a run connected, to give its memory back. */
  idleCloseMs: number;
}

/**
 * The service's one Chromium, shared by the run threads (docs/design/crawl.md, Crawl threads): a
 * browser server in a thread of its own, started when a run first asks for it and closed when no
 * run has been connected for a while. The page slots of every render are taken here, so the
 * bound on pages rendering at once holds over all runs.
 */
export class BrowserHost {
  readonly slots: Semaphore;
  private thread: Worker | undefined;
  private endpoint: Promise<string> | undefined;
  private readonly users = new Set<object>();
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Set while the host itself closes the browser, which is then not reported as lost. */
  private closing = false;

  constructor(
    private readonly options: BrowserHostOptions,
    private readonly events: BrowserPoolEvents = {},
  ) {
    this.slots = new Semaphore(options.pages);
  }

  /** The endpoint of the running browser for `user` (a run thread), started first if need be. */
  open(user: object): Promise<string> {
    if (this.closed) return Promise.reject(new Error('the browser is closed: the service is stopping'));
    this.users.add(user);
    clearTimeout(this.idleTimer);
    this.endpoint ??= this.launch();
    return this.endpoint;
  }

  /** `user` no longer holds a connection. */
  released(user: object): void {
    this.users.delete(user);
    this.scheduleIdleClose();
  }

  reportVersion(version: string): void {
    this.events.launched?.(version);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    await this.shutDown();
  }

  private launch(): Promise<string> {
    const thread = new Worker(new URL('./browser-thread.js', import.meta.url));
    this.thread = thread;
    const ended = () => {
      if (this.thread !== thread) return;
      this.thread = undefined;
      this.endpoint = undefined;
      if (!this.closing && !this.closed) this.events.lost?.();
    };
    const endpoint = new Promise<string>((resolve, reject) => {
      thread.on('message', (message: FromBrowserThread) => {
        if (message.type === 'launched') resolve(message.endpoint);
        else if (message.type === 'launch-failed') {
          reject(new Error(message.message));
          this.forget(thread);
        } else ended();
      });
      thread.on('error', (error) => {
        reject(error);
        ended();
      });
      thread.on('exit', () => {
        reject(new Error('the browser thread exited'));
        ended();
      });
    });
    const launch: ToBrowserThread = {
      type: 'launch',
      executablePath: this.options.executablePath,
      sandbox: this.options.sandbox,
      args: CHROMIUM_ARGS,
      timeoutMs: LAUNCH_TIMEOUT_MS,
      wsPath: `/${randomBytes(24).toString('hex')}`,
    };
    thread.postMessage(launch);
    return endpoint;
  }

  /** A launch that failed: the next caller tries again. */
  private forget(thread: Worker): void {
    if (this.thread === thread) {
      this.thread = undefined;
      this.endpoint = undefined;
    }
    void thread.terminate();
  }

  private scheduleIdleClose(): void {
    clearTimeout(this.idleTimer);
    if (this.users.size > 0 || this.closed || this.thread === undefined) return;
    this.idleTimer = setTimeout(() => {
      if (this.users.size === 0) void this.shutDown();
    }, this.options.idleCloseMs);
    this.idleTimer.unref();
  }

  private async shutDown(): Promise<void> {
    const thread = this.thread;
    if (thread === undefined) return;
    this.closing = true;
    this.thread = undefined;
    this.endpoint = undefined;
    try {
      const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
      thread.postMessage({ type: 'close' } satisfies ToBrowserThread);
      // The browser closes in well under this; a thread that does not is ended all the same.
      const timer = setTimeout(() => void thread.terminate(), 10_000);
      await exited;
      clearTimeout(timer);
    } finally {
      this.closing = false;
    }
  }
}

/**
 * The service's side of the browser for one run thread; when the thread ends, its page slots and
 * its connection are given back, so a crashed run never holds the browser.
 */
export class BrowserBroker {
  private held = 0;
  private ended = false;

  constructor(
    private readonly host: BrowserHost,
    private readonly answer: (answer: BrowserAnswer) => void,
  ) {}

  handle(request: BrowserRequest): void {
    switch (request.type) {
      case 'browser-open':
        this.host.open(this).then(
          (endpoint) => this.answer({ type: 'browser-endpoint', id: request.id, endpoint }),
          (error: unknown) =>
            this.answer({
              type: 'browser-endpoint',
              id: request.id,
              error: error instanceof Error ? error.message : String(error),
            }),
        );
        return;
      case 'browser-released':
        this.host.released(this);
        return;
      case 'browser-version':
        this.host.reportVersion(request.version);
        return;
      case 'page-slot-acquire':
        void this.host.slots.acquire().then(() => {
          if (this.ended) return this.host.slots.release();
          this.held += 1;
          this.answer({ type: 'page-slot-granted', id: request.id });
        });
        return;
      case 'page-slot-release':
        if (this.held === 0) return;
        this.held -= 1;
        this.host.slots.release();
        return;
    }
  }

  close(): void {
    this.ended = true;
    for (; this.held > 0; this.held -= 1) this.host.slots.release();
    this.host.released(this);
  }
}
