import type { HttpFetcher } from '../src/crawler/engine.js';
import { resolveCrawlSettings } from '../src/domain/index.js';
import type { BenchOptions } from './bench-options.js';
import { BenchReport, megabytes } from './bench-report.js';
import type { BenchSite } from './bench-site.js';
import { floorCrawl } from './floor-crawl.js';
import { runKumoCrawl } from './kumo-crawl.js';

/** The HTTP-only crawl: Node does all the work, so Node's own RSS is the memory figure. */
export async function plainBench(
  options: BenchOptions,
  site: BenchSite,
  folder: string,
  fetcher: HttpFetcher,
): Promise<void> {
  const seed = `${site.baseUrl}${options.site?.start ?? '/'}`;
  // A first pass of the floor fills the site server's cache, so both measured crawls find it warm.
  const warm = await floorCrawl(seed, fetcher, options.concurrency);
  process.stderr.write(`  warm-up: ${warm.pages} pages in ${warm.seconds.toFixed(2)} s\n`);
  if (warm.pages === 0) throw new Error(`${seed} is not an HTML page of the site (see --start)`);
  const servedBefore = await site.requestCount();
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 50);
  let run;
  try {
    const settings = resolveCrawlSettings({
      seed_urls: [seed],
      base_concurrent_requests: options.concurrency,
    });
    run = await runKumoCrawl(settings, folder, fetcher, undefined);
  } finally {
    clearInterval(sampler);
  }
  const served = (await site.requestCount()) - servedBefore;
  const floor = await floorCrawl(seed, fetcher, options.concurrency);
  const report = new BenchReport(19);
  report.crawl(run, served, false);
  report.line('peak RSS', megabytes(peakRss));
  const kumoRate = run.execution.progress.crawled / run.crawlSeconds;
  const floorRate = floor.pages / floor.seconds;
  report.line(
    'floor pages/s',
    `${floorRate.toFixed(1)} (${floor.pages} pages in ${floor.seconds.toFixed(2)} s: fetch + link extraction, nothing stored)`,
  );
  report.line(
    'share of the floor',
    `${((kumoRate / floorRate) * 100).toFixed(0)}% (crawl pages/s over floor pages/s)`,
  );
  report.artifacts(run);
}
