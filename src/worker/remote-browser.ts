import type { Browser } from 'playwright-core';
import type { PageSlots, SharedBrowser } from '../browser/index.js';
import { idCounter } from '../util/index.js';
import type { BrowserAnswer, BrowserRequest } from './browser-protocol.js';

/** How long connecting to the service's running browser may take. */
const CONNECT_TIMEOUT_MS = 30_000;

/**
 * A run thread's view of the service's shared Chromium (see BrowserHost): the endpoint and the
 * page slots are asked for by message, the browser is reached over its WebSocket.
 */
export class RemoteBrowser implements SharedBrowser {
  private readonly endpoints = new Map<
    number,
    { resolve(endpoint: string): void; reject(error: Error): void }
  >();

  readonly slots: RemotePageSlots;

  /**
   * `nextId` numbers the requests; a thread that serves one run after another passes one counter
   * to every run, so a late answer to an ended run never matches a request of the next.
   */
  constructor(
    private readonly send: (request: BrowserRequest) => void,
    private readonly nextId: () => number = idCounter(),
  ) {
    this.slots = new RemotePageSlots(send, nextId);
  }

  async connect(): Promise<Browser> {
    const id = this.nextId();
    const endpoint = new Promise<string>((resolve, reject) => this.endpoints.set(id, { resolve, reject }));
    this.send({ type: 'browser-open', id });
    try {
      const { chromium } = await import('playwright-core');
      const browser = await chromium.connect(await endpoint, { timeout: CONNECT_TIMEOUT_MS });
      browser.on('disconnected', () => this.send({ type: 'browser-released' }));
      return browser;
    } catch (error) {
      this.send({ type: 'browser-released' });
      throw error;
    }
  }

  versionSeen(version: string): void {
    this.send({ type: 'browser-version', version });
  }

  answered(answer: BrowserAnswer): void {
    if (answer.type === 'page-slot-granted') return this.slots.granted(answer.id);
    const waiter = this.endpoints.get(answer.id);
    this.endpoints.delete(answer.id);
    if (waiter === undefined) return;
    if ('error' in answer) waiter.reject(new Error(answer.error));
    else waiter.resolve(answer.endpoint);
  }
}

/** Page slots granted by the service, so the bound on pages rendering holds over all runs. */
class RemotePageSlots implements PageSlots {
  private readonly waits = new Map<number, () => void>();
  private held = 0;

  constructor(
    private readonly send: (request: BrowserRequest) => void,
    private readonly nextId: () => number,
  ) {}

  get inUse(): number {
    return this.held;
  }

  acquire(): Promise<void> {
    const id = this.nextId();
    return new Promise<void>((resolve) => {
      this.waits.set(id, () => {
        this.held += 1;
        resolve();
      });
      this.send({ type: 'page-slot-acquire', id });
    });
  }

  release(): void {
    this.held -= 1;
    this.send({ type: 'page-slot-release' });
  }

  granted(id: number): void {
    const grant = this.waits.get(id);
    this.waits.delete(id);
    grant?.();
  }
}
