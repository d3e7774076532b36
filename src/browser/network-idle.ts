import type { Page, Request } from 'playwright-core';

/** No request in flight for this long counts as idle (the usual "networkidle" window). */
const QUIET_MS = 500;

/**
 * Counts the requests a page has in flight, to wait until the network has gone quiet: what a
 * script-built page needs before its links exist. Listens until disposed.
 */
export class NetworkIdleTracker {
  private inFlight = 0;
  private lastChange = Date.now();
  private listener: (() => void) | undefined;
  private readonly onStart = (_request: Request) => this.change(+1);
  private readonly onEnd = (_request: Request) => this.change(-1);

  constructor(private readonly page: Page) {
    page.on('request', this.onStart);
    page.on('requestfinished', this.onEnd);
    page.on('requestfailed', this.onEnd);
  }

  dispose(): void {
    this.page.off('request', this.onStart);
    this.page.off('requestfinished', this.onEnd);
    this.page.off('requestfailed', this.onEnd);
  }

  /**
   * Resolves true once nothing was in flight for QUIET_MS, or false when `boundMs` passed first
   * (a page that never stops talking is captured as it is then).
   */
  idle(boundMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const deadline = Date.now() + boundMs;
      let timer: NodeJS.Timeout | undefined;
      const check = () => {
        clearTimeout(timer);
        const now = Date.now();
        if (this.inFlight === 0 && now - this.lastChange >= QUIET_MS) return finish(true);
        if (now >= deadline) return finish(false);
        const untilQuiet = this.inFlight === 0 ? QUIET_MS - (now - this.lastChange) : QUIET_MS;
        timer = setTimeout(check, Math.max(1, Math.min(untilQuiet, deadline - now)));
      };
      const finish = (quiet: boolean) => {
        clearTimeout(timer);
        this.listener = undefined;
        resolve(quiet);
      };
      this.listener = check;
      check();
    });
  }

  private change(delta: number): void {
    this.inFlight = Math.max(0, this.inFlight + delta);
    this.lastChange = Date.now();
    this.listener?.();
  }
}
