import type { HttpFetcher } from '../src/crawler/http-fetcher.js';
import { resolveCrawlSettings } from '../src/domain/crawl-settings.js';
import type { BenchOptions } from './bench-options.js';
import { BenchReport, megabytes } from './bench-report.js';
import type { BenchSite } from './bench-site.js';
import { runKumoCrawl } from './kumo-crawl.js';

/** The HTTP-only crawl: Node does all the work, so Node's own RSS is the memory figure. */
export async function plainBench(
  options: BenchOptions,
  site: BenchSite,
  folder: string,
  fetcher: HttpFetcher,
): Promise<void> {
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 50);
  try {
    const settings = resolveCrawlSettings({
      seed_urls: [`${site.baseUrl}/`],
      base_concurrent_requests: options.concurrency,
    });
    const run = await runKumoCrawl(settings, folder, fetcher, undefined);
    const report = new BenchReport(19);
    report.crawl(run, await site.requestCount(), false);
    report.line('peak RSS', megabytes(peakRss));
    report.artifacts(run);
  } finally {
    clearInterval(sampler);
  }
}
