/** What a run asks of the browser, and what it gets back. */

/** Settings shared by every page of one run: they define its browser context. */
export interface SessionOptions {
  userAgent: string;
  /** Accept-Language, or null for the browser's default. */
  language: string | null;
  viewport: { width: number; height: number };
  /** Authorization header value for a sub-request, where the crawl's credentials apply. */
  authorizationFor(url: URL): string | undefined;
}

/** One HTML page to render: the main document was already fetched by the crawler. */
export interface RenderRequest {
  /** URL to show the page at: the last URL after redirects, with the crawl URL's fragment. */
  url: string;
  /** The main document response, served to the browser as it was received. */
  document: { status: number; headers: Record<string, string>; body: Buffer };
  /** none: DOM only; viewport: the first screen; full: the whole page height. */
  screenshot: 'none' | 'viewport' | 'full';
  /** wait_type 2: wait for the network to go idle before taking the DOM. */
  waitForNetworkIdle: boolean;
  /** Aborting it (run cancelled or timed out) ends the render at once. */
  signal: AbortSignal;
}

export interface RenderedPage {
  /** The DOM serialized after rendering (UTF-8 text). */
  dom: string;
  /** The address the page shows once rendered; the base of its relative links. */
  location: string;
  /** JPEG, when a screenshot was asked for. */
  screenshot: Buffer | undefined;
  /** Top-level navigations the page's scripts started (a script redirect); not followed here. */
  scriptNavigations: string[];
  /** Sub-requests refused by the address policy, with the reason. */
  blockedRequests: string[];
  /**
   * wait_type 2: false when the network was still busy at the end of the bounded idle wait;
   * null when idleness was not waited for.
   */
  networkIdle: boolean | null;
}

export interface RenderTiming {
  /** Longest wait for the load event and, with wait_type 2, for the network to go idle. */
  idleWaitMs: number;
  /** Hard limit of one page: navigation, waits and capture. */
  pageTimeoutMs: number;
}

/** A page that could not be rendered: its row is marked failed. */
export class RenderFailure extends Error {
  override name = 'RenderFailure';
}

/** The pages of one run: one browser context, its pages reused from page to page. */
export interface RenderSession {
  render(request: RenderRequest): Promise<RenderedPage>;
  /** Closes the run's context; pending renders fail. */
  close(): Promise<void>;
}

export interface PageRenderer {
  /** Throws, with how to fix it, when no browser can be started. */
  ensureAvailable(): Promise<void>;
  openSession(options: SessionOptions): RenderSession;
}
