import type { Request, Route } from 'playwright-core';
import type { HostVerdicts } from './host-verdicts.js';
import type { SubrequestFetcher } from './subrequest-fetcher.js';

/** Response headers that described the wire encoding of a body the browser now gets decoded. */
const WIRE_HEADERS = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

export interface InterceptedDocument {
  /** Where the page is shown (fragment included); its request is answered with `response`. */
  url: URL;
  response: { status: number; headers: Record<string, string>; body: Buffer };
  /** Authorization header value for a sub-request, where the crawl's credentials apply. */
  authorizationFor(url: URL): string | undefined;
}

/**
 * Every request of a rendered page passes here. The main document is answered with the response
 * the crawler already fetched; a later top-level navigation (a script redirect) is refused and
 * remembered, because which URLs are crawled is the crawler's decision; sub-requests are checked
 * against the address policy and get the crawl's credentials where they apply. Unless the policy
 * allows every address, they are fetched by the SubrequestFetcher, whose connections are checked
 * on the addresses actually connected to (the browser's or Playwright's own fetch would resolve
 * the host again, after the check, and a rebinding DNS answer could slip through).
 */
export class RequestInterceptor {
  readonly scriptNavigations: string[] = [];
  readonly blockedRequests: string[] = [];
  private documentServed = false;
  /** Verdicts on WebSockets still being judged; the render waits for them before reporting. */
  private readonly pendingJudgements = new Set<Promise<void>>();

  constructor(
    private readonly document: InterceptedDocument,
    private readonly verdicts: HostVerdicts,
    /** Fetches sub-requests over guarded connections; undefined when every address is allowed. */
    private readonly subrequests: SubrequestFetcher | undefined,
  ) {}

  /** Route handler; never throws (a route of a page closed meanwhile simply fails). */
  async handle(route: Route, request: Request): Promise<void> {
    try {
      await this.decide(route, request);
    } catch {
      // The context was closed (timeout, stop) while the request waited: nothing left to answer.
    }
  }

  /**
   * A WebSocket the page (a frame or a worker) opened. Chromium connects it itself, beside the
   * route handler, through the run's egress gate (egress-gate.ts), which refuses what the policy
   * refuses; here a refused one is listed like any other refused request.
   */
  noteWebSocket(url: string): void {
    const judged = this.judgeWebSocket(url);
    this.pendingJudgements.add(judged);
    void judged.finally(() => this.pendingJudgements.delete(judged));
  }

  /** Resolves once every WebSocket noted so far has been judged. */
  async settled(): Promise<void> {
    await Promise.all([...this.pendingJudgements]);
  }

  private async judgeWebSocket(url: string): Promise<void> {
    let hostname: string;
    try {
      hostname = new URL(url).hostname;
    } catch {
      return; // Chromium refuses a malformed URL before connecting
    }
    const reason = await this.verdicts.refusalOf(hostname).catch((error: unknown) => String(error));
    if (reason !== undefined) this.blockedRequests.push(`${url}: ${reason}`);
  }

  private async decide(route: Route, request: Request): Promise<void> {
    if (this.isTopNavigation(request)) {
      if (!this.documentServed && sameDocument(request.url(), this.document.url)) {
        this.documentServed = true;
        const { status, headers, body } = this.document.response;
        return route.fulfill({ status, headers: servedHeaders(headers), body });
      }
      this.scriptNavigations.push(request.url());
      return route.abort('aborted');
    }
    const url = new URL(request.url());
    const reason = await this.verdicts.refusalOf(url.hostname);
    if (reason !== undefined) {
      this.blockedRequests.push(`${request.url()}: ${reason}`);
      return route.abort('blockedbyclient');
    }
    const authorization = this.document.authorizationFor(url);
    if (authorization === undefined && this.verdicts.allowsEverything) return route.continue();
    // Fetched hop by hop: a redirect goes back to the browser as a new request, checked here
    // again, so credentials never follow it to another host and no hop reaches a refused address.
    const headers = authorization === undefined ? request.headers() : { ...request.headers(), authorization };
    if (this.subrequests === undefined || this.verdicts.allowsEverything) {
      const response = await route.fetch({ headers, maxRedirects: 0 });
      return route.fulfill({ response });
    }
    const cookie = await cookieHeaderFor(request, url);
    const outcome = await this.subrequests.fetch({
      url,
      method: request.method(),
      headers: cookie === undefined || 'cookie' in headers ? headers : { ...headers, cookie },
      body: request.postDataBuffer(),
    });
    switch (outcome.kind) {
      case 'response':
        return route.fulfill({
          status: outcome.status,
          headers: servedHeaders(outcome.headers),
          body: outcome.body,
        });
      case 'refused':
        this.blockedRequests.push(`${request.url()}: ${outcome.reason}`);
        return route.abort('blockedbyclient');
      case 'failed':
        return route.abort(outcome.timedOut ? 'timedout' : 'failed');
    }
  }

  private isTopNavigation(request: Request): boolean {
    if (!request.isNavigationRequest()) return false;
    try {
      const frame = request.frame();
      return frame === frame.page().mainFrame();
    } catch {
      return false; // a request without a frame (a service worker's) is no page navigation
    }
  }
}

/**
 * The Cookie header the browser would send: its provisional request headers leave cookies out
 * (the network stack adds them later), and this request never reaches that stack.
 */
async function cookieHeaderFor(request: Request, url: URL): Promise<string | undefined> {
  try {
    const cookies = await request.frame().page().context().cookies(url.href);
    if (cookies.length === 0) return undefined;
    return cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
  } catch {
    return undefined; // a request without a frame (a service worker's) carries no page cookies
  }
}

function sameDocument(requested: string, target: URL): boolean {
  const url = new URL(requested);
  url.hash = '';
  const bare = new URL(target);
  bare.hash = '';
  return url.href === bare.href;
}

function servedHeaders(headers: Record<string, string>): Record<string, string> {
  const served: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!WIRE_HEADERS.has(name)) served[name] = value;
  }
  return served;
}
