/**
 * `npm run bench:crawl`: crawls a generated local site through the engine with HTML collection on
 * and prints pages/s, peak RSS and artifact sizes. Options (environment): BENCH_PAGES (5000),
 * BENCH_LINKS (50), BENCH_PAGE_BYTES (15000), BENCH_CONCURRENCY (16).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createUndiciFetcher } from '../src/crawler/http-fetcher.js';
import { resolveCrawlSettings } from '../src/domain/crawl-settings.js';
import { systemClock } from '../src/util/clock.js';
import { executeCrawl } from '../src/worker/execute-crawl.js';
import { startBenchSite } from './bench-site.js';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  return raw === undefined ? fallback : Number.parseInt(raw, 10);
}

const pages = envInt('BENCH_PAGES', 5000);
const linksPerPage = envInt('BENCH_LINKS', 50);
const pageBytes = envInt('BENCH_PAGE_BYTES', 15000);
const concurrency = envInt('BENCH_CONCURRENCY', 16);

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 50);

const site = await startBenchSite({ pages, linksPerPage, pageBytes });
const folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-bench-'));
const fetcher = createUndiciFetcher();
process.stdout.write(
  `bench:crawl  ${pages} pages of ~${pageBytes} bytes, ${linksPerPage} links each, concurrency ${concurrency}\n`,
);
try {
  const settings = resolveCrawlSettings({
    seed_urls: [`${site.baseUrl}/`],
    base_concurrent_requests: concurrency,
  });
  const started = performance.now();
  let crawlEnded = started;
  let lastPrint = 0;
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
    },
    {
      cancelSignal: new AbortController().signal,
      deadlineMicros: systemClock.nowMicros() + 3600 * 1_000_000,
      onProgress: (progress) => {
        crawlEnded = performance.now();
        if (crawlEnded - lastPrint > 1000) {
          lastPrint = crawlEnded;
          process.stderr.write(`  ${progress.crawled} pages, ${progress.total - progress.crawled} queued\n`);
        }
      },
    },
    new Set(['completed', 'limit_reached']),
  );
  const finished = performance.now();
  const crawlSeconds = (crawlEnded - started) / 1000;
  const totalSeconds = (finished - started) / 1000;
  const served = await site.requestCount();
  process.stdout.write(`outcome            ${execution.outcome}\n`);
  process.stdout.write(`pages crawled      ${execution.progress.crawled} (site served ${served} requests)\n`);
  process.stdout.write(`crawl time         ${crawlSeconds.toFixed(2)} s\n`);
  process.stdout.write(`pages/s (crawl)    ${(execution.progress.crawled / crawlSeconds).toFixed(1)}\n`);
  process.stdout.write(`pages/s (w/ pack)  ${(execution.progress.crawled / totalSeconds).toFixed(1)}\n`);
  process.stdout.write(`packaging time     ${(totalSeconds - crawlSeconds).toFixed(2)} s\n`);
  process.stdout.write(`peak RSS           ${(peakRss / 1024 / 1024).toFixed(1)} MB\n`);
  for (const artifact of execution.artifacts) {
    process.stdout.write(`${artifact.name.padEnd(22)}${(artifact.bytes / 1024 / 1024).toFixed(2)} MB\n`);
  }
} finally {
  clearInterval(sampler);
  await fetcher.close();
  await site.close();
  await rm(folder, { recursive: true, force: true });
}
