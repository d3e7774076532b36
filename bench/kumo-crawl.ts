import path from 'node:path';
import type { PageRenderer } from '../src/browser/index.js';
import type { HttpFetcher } from '../src/crawler/engine.js';
import type { CrawlSettings } from '../src/domain/index.js';
import { systemClock } from '../src/util/index.js';
import { type CrawlExecution, executeCrawl } from '../src/worker/execute-crawl.js';

export interface CrawlRun {
  execution: CrawlExecution;
  /** Pages whose row failed (a fetch or render error), from the last progress report. */
  errors: number;
  /** Until the last page was stored. */
  crawlSeconds: number;
  /** Including packaging of the artifacts. */
  totalSeconds: number;
}

/**
 * One crawl through the engine as a worker runs it, printing progress to stderr once a second.
 * `pageOutcomes` asks for what the URL rows tell a search index, as a run feeding one does.
 */
export async function runKumoCrawl(
  settings: CrawlSettings,
  folder: string,
  fetcher: HttpFetcher,
  renderer: PageRenderer | undefined,
  options: { pageOutcomes?: boolean } = {},
): Promise<CrawlRun> {
  const started = performance.now();
  let crawlEnded = started;
  let lastPrint = 0;
  let errors = 0;
  const execution = await executeCrawl(
    settings,
    { workFolder: path.join(folder, 'work'), artifactFolder: path.join(folder, 'out') },
    {
      fetcher,
      clock: systemClock,
      limits: {
        timeoutMs: 30_000,
        maxRedirects: 10,
        maxBodyBytes: 32 * 1024 * 1024,
        retryCount: 2,
        retryBaseDelayMs: 1000,
      },
      defaultUserAgent: 'KumoBench',
      timezone: 'UTC',
      ...(renderer && { renderer }),
    },
    {
      cancelSignal: new AbortController().signal,
      deadlineMicros: systemClock.nowMicros() + 3600 * 1_000_000,
      onProgress: (progress) => {
        crawlEnded = performance.now();
        errors = progress.errors;
        if (crawlEnded - lastPrint > 1000) {
          lastPrint = crawlEnded;
          process.stderr.write(`  ${progress.crawled} pages, ${progress.total - progress.crawled} queued\n`);
        }
      },
    },
    new Set(['completed', 'limit_reached']),
    options,
  );
  const finished = performance.now();
  return {
    execution,
    errors,
    crawlSeconds: (crawlEnded - started) / 1000,
    totalSeconds: (finished - started) / 1000,
  };
}
