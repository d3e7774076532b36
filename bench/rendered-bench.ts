import { createRenderer } from '../src/browser/rendering.js';
import { loadConfig } from '../src/config/index.js';
import type { HttpFetcher } from '../src/crawler/engine.js';
import { type CrawlSettings, resolveCrawlSettings } from '../src/domain/index.js';
import { AddressPolicy } from '../src/net/index.js';
import type { BenchOptions, RenderingOptions } from './bench-options.js';
import { BenchReport } from './bench-report.js';
import type { BenchSite } from './bench-site.js';
import { pagePath } from './bench-site-pages.js';
import { type CrawlRun, runKumoCrawl } from './kumo-crawl.js';
import { runPlaywrightBaseline } from './playwright-baseline.js';
import { ProcessTreeSampler, type TreePeaks } from './process-tree-rss.js';

const VIEWPORT = { width: 1280, height: 800 };
/** Wide enough for the longest label, "baseline peak RSS (chromium)". */
const LABEL_WIDTH = 30;

function renderingSettings(
  options: BenchOptions,
  rendering: RenderingOptions,
  site: BenchSite,
): CrawlSettings {
  return resolveCrawlSettings({
    seed_urls: [`${site.baseUrl}/`],
    base_concurrent_requests: options.concurrency,
    ...(rendering.screenshot !== 'none' && {
      screenshot: {
        viewport_width: VIEWPORT.width,
        viewport_height: VIEWPORT.height,
        render_all: rendering.screenshot === 'full',
      },
    }),
    ...(rendering.spa && { wait_type: 2 }),
  });
}

function describe(rendering: RenderingOptions): string {
  const screenshot =
    rendering.screenshot === 'none'
      ? 'no screenshot'
      : `screenshot ${VIEWPORT.width}x${VIEWPORT.height} ${rendering.screenshot === 'full' ? 'full page' : 'viewport'}`;
  return `${screenshot}, wait_type ${rendering.spa ? 2 : 0}`;
}

/**
 * The crawl with Chromium rendering, then, with Kumo's browser closed so the two do not share the
 * cores, a plain Playwright loop over the same pages as the yardstick.
 */
export async function renderedBench(
  options: BenchOptions,
  rendering: RenderingOptions,
  site: BenchSite,
  folder: string,
  fetcher: HttpFetcher,
): Promise<void> {
  const config = loadConfig();
  const excluded = new Set([site.pid]);
  const report = new BenchReport(LABEL_WIDTH);
  let chromium = 'not started';
  const { renderer, pool } = createRenderer(config, new AddressPolicy(true), {
    launched: (version) => (chromium = version),
  });
  report.line('rendering', `${describe(rendering)}, ${config.browserPages} browser pages`);

  let run: CrawlRun;
  let crawlPeaks: TreePeaks;
  const sampler = new ProcessTreeSampler(excluded);
  try {
    run = await runKumoCrawl(renderingSettings(options, rendering, site), folder, fetcher, renderer);
  } finally {
    crawlPeaks = sampler.stop();
    await pool.close();
  }
  report.line('chromium', chromium);
  report.crawl(run, await site.requestCount(), true);
  report.memory('', crawlPeaks);
  report.artifacts(run);

  if (!rendering.baseline) return;
  // The same pages the crawl rendered: the site's pages are numbered from 0 (the home page).
  const count = Math.min(run.execution.progress.crawled, options.pages);
  const urls = Array.from({ length: count }, (_, index) => `${site.baseUrl}${pagePath(index)}`);
  const waitUntil = rendering.spa ? 'networkidle' : 'load';
  const capture =
    rendering.screenshot === 'none'
      ? ''
      : ` + screenshot(jpeg${rendering.screenshot === 'full' ? ', full page' : ''})`;
  report.line(
    'baseline',
    `playwright-core, ${config.browserPages} pages in parallel, ${count} URLs: goto(${waitUntil}) + content()${capture}`,
  );
  const baselineSampler = new ProcessTreeSampler(excluded);
  let baselinePeaks: TreePeaks;
  let baseline: Awaited<ReturnType<typeof runPlaywrightBaseline>>;
  try {
    baseline = await runPlaywrightBaseline({
      executablePath: config.chromiumPath,
      urls,
      parallel: config.browserPages,
      viewport: VIEWPORT,
      rendering,
    });
  } finally {
    baselinePeaks = baselineSampler.stop();
  }
  report.line(
    'baseline failed pages',
    `${baseline.failures}${baseline.firstFailure ? ` (${baseline.firstFailure})` : ''}`,
  );
  report.line('baseline time', `${baseline.seconds.toFixed(2)} s (browser launch included)`);
  report.line('baseline pages/s', (baseline.pages / baseline.seconds).toFixed(1));
  report.memory('baseline ', baselinePeaks);
  const heights = baseline.screenshotHeights;
  if (heights) {
    const range = heights.min === heights.max ? `${heights.min}` : `${heights.min}-${heights.max}`;
    report.line('screenshot height', `${range} px (baseline JPEGs at ${VIEWPORT.width} wide)`);
  }
  const kumoRate = run.execution.progress.crawled / run.crawlSeconds;
  report.line(
    'kumo / baseline pages/s',
    `${(kumoRate / (baseline.pages / baseline.seconds)).toFixed(2)}x (crawl phase)`,
  );
}
