/**
 * `npm run bench:crawl`: crawls a generated local site through the engine with HTML collection on
 * and prints pages/s, peak RSS and artifact sizes, beside the floor of the same crawl measured in
 * the same run (floor-crawl.ts: the same fetches and link extraction, nothing stored) and the share
 * of it Kumo reaches. `-- --site <folder> [--start <path>]` crawls a local copy of a real site
 * instead (a folder of HTML, such as Debian's postgresql-doc). Options (environment): BENCH_PAGES
 * (5000, or 400 when rendering), BENCH_LINKS (50), BENCH_PAGE_BYTES (15000), BENCH_CONCURRENCY (16).
 *
 * Browser rendering (`npm run bench:crawl -- --screenshot [--full-page] [--spa]`): every page
 * goes through Chromium (KUMO_CHROMIUM_PATH, KUMO_BROWSER_PAGES); memory is then measured over
 * the whole process tree, and a plain Playwright loop over the same pages is run after the
 * crawl as the yardstick.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createUndiciFetcher } from '../src/crawler/engine.js';
import { type BenchOptions, benchOptions, USAGE } from './bench-options.js';
import { startBenchSite, startFolderSite } from './bench-site.js';
import { plainBench } from './plain-bench.js';

let options: BenchOptions;
try {
  options = benchOptions();
} catch (error) {
  // A mistyped flag should say what the flags are, not show a stack.
  process.stderr.write(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
const { pages, linksPerPage, pageBytes, concurrency } = options;

const site =
  options.site === undefined
    ? await startBenchSite({ pages, linksPerPage, pageBytes })
    : await startFolderSite(options.site.folder);
const folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-bench-'));
const fetcher = createUndiciFetcher();
process.stdout.write(
  options.site === undefined
    ? `bench:crawl  ${pages} pages of ~${pageBytes} bytes, ${linksPerPage} links each, concurrency ${concurrency}\n`
    : `bench:crawl  the site in ${options.site.folder} from ${options.site.start}, concurrency ${concurrency}\n`,
);
try {
  if (options.rendering) {
    // Loaded only when rendering, so the plain crawl's RSS does not include Playwright.
    const { renderedBench } = await import('./rendered-bench.js');
    await renderedBench(options, options.rendering, site, folder, fetcher);
  } else await plainBench(options, site, folder, fetcher);
} finally {
  await fetcher.close();
  await site.close();
  await rm(folder, { recursive: true, force: true });
}
