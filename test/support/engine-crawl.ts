/** One crawl through the engine as a worker runs it, for tests of crawl rules over loopback sites. */
import path from 'node:path';
import { createUndiciFetcher } from '../../src/crawler/engine.js';
import type { FetchLimits } from '../../src/crawler/index.js';
import type { InstantCrawlerSetting } from '../../src/domain/schemas.js';
import { resolveCrawlSettings } from '../../src/domain/index.js';
import { systemClock } from '../../src/util/index.js';
import { type CrawlExecution, executeCrawl } from '../../src/worker/execute-crawl.js';

/** Short limits and no retries, so a failing fixture fails fast. */
export const TEST_FETCH_LIMITS: FetchLimits = {
  timeoutMs: 5000,
  maxRedirects: 5,
  maxBodyBytes: 1 << 20,
  retryCount: 0,
  retryBaseDelayMs: 10,
};

/**
 * Crawls `setting` with its own fetcher, the run store in `<folder>/work` and the artifacts in
 * `<folder>/out`; artifacts are written for a completed run or one that reached its limit.
 */
export async function crawlInto(
  folder: string,
  setting: InstantCrawlerSetting,
  limits: Partial<FetchLimits> = {},
): Promise<{ execution: CrawlExecution; out: string }> {
  const out = path.join(folder, 'out');
  const fetcher = createUndiciFetcher();
  try {
    const execution = await executeCrawl(
      resolveCrawlSettings(setting),
      { workFolder: path.join(folder, 'work'), artifactFolder: out },
      {
        fetcher,
        clock: systemClock,
        limits: { ...TEST_FETCH_LIMITS, ...limits },
        defaultUserAgent: 'KumoTest/1.0',
        timezone: 'UTC',
      },
      { cancelSignal: new AbortController().signal, deadlineMicros: systemClock.nowMicros() + 60_000_000 },
      new Set(['completed', 'limit_reached']),
    );
    return { execution, out };
  } finally {
    await fetcher.close();
  }
}
