import { type RenderedPage, RenderFailure, type RenderSession } from '../browser/index.js';
import { type CrawlSettings, takesLinksFromRenderedDom } from '../domain/index.js';
import type { FrontierEntry } from '../run-data/index.js';
import { kindByContentType } from './file-kinds.js';
import type { PageFetchResult } from './page-fetch.js';

/** What the browser made of a fetched page. */
export type RenderOutcome = { kind: 'rendered'; page: RenderedPage } | { kind: 'failed'; reason: string };

export interface RenderContext {
  session: RenderSession;
  settings: CrawlSettings;
  signal: AbortSignal;
}

/**
 * Renders a fetched page when it is an HTML page that was fetched fine; other results (failures,
 * redirects not followed, files) are not pages a browser could show. The browser is handed the
 * response the crawler got, so the row keeps the facts of that response and nothing is fetched twice.
 */
export async function renderFetchedPage(
  entry: FrontierEntry,
  result: PageFetchResult,
  context: RenderContext,
): Promise<RenderOutcome | undefined> {
  if (result.kind !== 'response' || result.body === undefined || result.refusedRedirect !== undefined) {
    return undefined;
  }
  if (result.status >= 300 || kindByContentType(result.headers['content-type']) !== 'html') return undefined;
  const { settings } = context;
  const shownAt = new URL(result.finalUrl);
  // keep_fragment 1: a hash-routed page is shown at its own route (#/a), which HTTP never sends.
  if (shownAt.hash === '') shownAt.hash = new URL(entry.url).hash;
  const screenshot = settings.screenshot;
  try {
    const page = await context.session.render({
      url: shownAt.href,
      document: { status: result.status, headers: result.headers, body: result.body },
      screenshot: screenshot === null ? 'none' : screenshot.fullPage ? 'full' : 'viewport',
      waitForNetworkIdle: takesLinksFromRenderedDom(settings),
      signal: context.signal,
    });
    return { kind: 'rendered', page };
  } catch (error) {
    if (error instanceof RenderFailure) return { kind: 'failed', reason: error.message };
    throw error;
  }
}
