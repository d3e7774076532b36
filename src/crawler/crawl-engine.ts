import { CHROMIUM_INSTALL_HINT, type RenderSession } from '../browser/index.js';
import { type CrawlSettings, DEFAULT_VIEWPORT, rendersPages } from '../domain/index.js';
import type { CrawlControl, CrawlEngineDeps } from './crawl-engine-deps.js';
import { CrawlLoop } from './crawl-loop.js';
import { notFetchedRowsOf } from './host-health.js';
import { CredentialRules } from './credential-rules.js';

/** How a run ended; an internal failure is thrown instead (state 2040). */
export type CrawlOutcome = 'completed' | 'limit_reached' | 'cancelled' | 'timed_out' | 'interrupted';

/**
 * Runs one crawl over its stored frontier until nothing is left, the documents limit is reached,
 * or it is cancelled or timed out. Safe to call again on the same store after a crash: it
 * continues with the URLs not yet fetched.
 */
export async function runCrawl(
  settings: CrawlSettings,
  deps: CrawlEngineDeps,
  control: CrawlControl,
): Promise<CrawlOutcome> {
  const session = rendersPages(settings) ? await openRenderSession(settings, deps) : undefined;
  const stop = new AbortController();
  const onCancel = () => stop.abort('cancelled');
  control.cancelSignal.addEventListener('abort', onCancel, { once: true });
  if (control.cancelSignal.aborted) stop.abort('cancelled');
  const remainingMs = Math.max(0, (control.deadlineMicros - deps.clock.nowMicros()) / 1000);
  const deadlineTimer = setTimeout(() => stop.abort('timed_out'), Math.min(remainingMs, 2 ** 31 - 1));
  try {
    const crawl = new CrawlLoop(settings, deps, control, stop.signal, session);
    crawl.seed();
    await crawl.run();
  } finally {
    clearTimeout(deadlineTimer);
    await session?.close();
    control.cancelSignal.removeEventListener('abort', onCancel);
  }
  if (stop.signal.aborted) return stop.signal.reason === 'timed_out' ? 'timed_out' : 'cancelled';
  if (control.drainSignal?.aborted) return 'interrupted';
  // Rows of URLs a given-up host kept from being fetched are no fetches (host-health.ts).
  const fetched = deps.store.progress().crawled - notFetchedRowsOf(deps.store);
  return settings.documentsLimit !== null && fetched >= settings.documentsLimit
    ? 'limit_reached'
    : 'completed';
}

/**
 * The run's browser session. A run that needs the browser fails at once (state 2040) when there
 * is none, saying how to get one.
 */
async function openRenderSession(settings: CrawlSettings, deps: CrawlEngineDeps): Promise<RenderSession> {
  const renderer = deps.renderer;
  if (renderer === undefined) {
    throw new Error(`browser rendering is not available in this process: ${CHROMIUM_INSTALL_HINT}`);
  }
  await renderer.ensureAvailable();
  const userAgent = settings.userAgent ?? deps.defaultUserAgent;
  const credentials = new CredentialRules(settings);
  return renderer.openSession({
    userAgent,
    language: settings.language,
    viewport: settings.screenshot
      ? { width: settings.screenshot.width, height: settings.screenshot.height }
      : DEFAULT_VIEWPORT,
    authorizationFor: (url) => credentials.authorizationFor(url),
  });
}
