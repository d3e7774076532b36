/**
 * The shared Chromium across threads (docs/design/crawl.md, Crawl threads): the service keeps one
 * browser server; a run thread asks for its endpoint, connects to it, and asks for a page slot
 * before each render, so KUMO_BROWSER_PAGES bounds the pages rendering over all runs.
 */
export type BrowserRequest =
  /** The endpoint of the running browser, started first if need be. */
  | { type: 'browser-open'; id: number }
  /** The thread's connection to the browser ended (closed for idleness, or lost). */
  | { type: 'browser-released' }
  /** The thread's connection reached a browser of this version (the service reports it). */
  | { type: 'browser-version'; version: string }
  | { type: 'page-slot-acquire'; id: number }
  | { type: 'page-slot-release' };

export type BrowserAnswer =
  | { type: 'browser-endpoint'; id: number; endpoint: string }
  | { type: 'browser-endpoint'; id: number; error: string }
  | { type: 'page-slot-granted'; id: number };

/** Between the service and the thread that hosts the browser server. */
export type ToBrowserThread =
  | {
      type: 'launch';
      executablePath: string;
      sandbox: boolean;
      args: string[];
      timeoutMs: number;
      /** Path of the WebSocket endpoint: unguessable, since whoever knows it controls the browser. */
      wsPath: string;
    }
  | { type: 'close' };

export type FromBrowserThread =
  | { type: 'launched'; endpoint: string }
  | { type: 'launch-failed'; message: string }
  /** The browser server closed: asked to, or the browser exited. */
  | { type: 'closed' };
