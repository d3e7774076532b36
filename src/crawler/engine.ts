/**
 * A crawl's engine, its HTTP fetcher, page extraction and records, and the previous run's answers:
 * loaded by a run's thread and `kumo crawl`, never by an idle service. (docs/design/layers.md,
 * Surfaces)
 */
export type { CrawlControl, CrawlEngineDeps, CrawlObserver } from './crawl-engine-deps.js';
export { type CrawlOutcome, runCrawl } from './crawl-engine.js';
export { extractPage } from './html-extract.js';
export { createUndiciFetcher, type HttpFetcher } from './http-fetcher.js';
export { withoutCredentials } from './page-record.js';
export type { RenderOutcome } from './page-rendering.js';
export { PreviousAnswers, type PreviousRunFiles } from './previous-answers.js';
