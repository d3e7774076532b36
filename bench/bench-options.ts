import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** Browser rendering asked for on the command line; absent for the plain HTTP crawl. */
export interface RenderingOptions {
  /** --screenshot: viewport capture; with --full-page, the whole page height. */
  screenshot: 'none' | 'viewport' | 'full';
  /** --spa: wait_type 2, links taken from the DOM once the network went idle. */
  spa: boolean;
  /** False with --no-baseline: skip the plain Playwright loop (quicker iterations). */
  baseline: boolean;
}

export interface BenchOptions {
  /**
   * --site <folder> [--start <path>]: crawl a local copy of a real site (a folder of HTML) from
   * `start` instead of the generated one; BENCH_PAGES and the other sizes do not apply then.
   */
  site: { folder: string; start: string } | undefined;
  pages: number;
  linksPerPage: number;
  pageBytes: number;
  concurrency: number;
  rendering: RenderingOptions | undefined;
}

export const USAGE =
  'usage: npm run bench:crawl [-- [--site <folder> [--start <path>]] [--screenshot [--full-page]] [--spa] [--no-baseline]]\n' +
  '  sizes: BENCH_PAGES, BENCH_LINKS, BENCH_PAGE_BYTES, BENCH_CONCURRENCY\n';

/** Rendering runs at tens of pages/s, so the default site is smaller than the plain crawl's. */
const DEFAULT_PAGES = 5000;
const DEFAULT_RENDERED_PAGES = 400;

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  return raw === undefined ? fallback : Number.parseInt(raw, 10);
}

/** Flags from argv (`npm run bench:crawl -- --screenshot`), sizes from BENCH_* variables. */
export function benchOptions(args: string[] = process.argv.slice(2)): BenchOptions {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      screenshot: { type: 'boolean', default: false },
      'full-page': { type: 'boolean', default: false },
      spa: { type: 'boolean', default: false },
      'no-baseline': { type: 'boolean', default: false },
      site: { type: 'string' },
      start: { type: 'string', default: '/' },
    },
  });
  if (values.start !== '/' && values.site === undefined) throw new Error('--start needs --site');
  if (!values.start.startsWith('/')) throw new Error('--start: expected a path starting with /');
  if (values.site !== undefined && !statSync(values.site, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`--site: ${values.site} is not a folder`);
  if (values['full-page'] && !values.screenshot) throw new Error('--full-page needs --screenshot');
  const screenshot: RenderingOptions['screenshot'] = !values.screenshot
    ? 'none'
    : values['full-page']
      ? 'full'
      : 'viewport';
  const rendering =
    screenshot !== 'none' || values.spa
      ? { screenshot, spa: values.spa, baseline: !values['no-baseline'] }
      : undefined;
  return {
    site: values.site === undefined ? undefined : { folder: values.site, start: values.start },
    pages: envInt('BENCH_PAGES', rendering ? DEFAULT_RENDERED_PAGES : DEFAULT_PAGES),
    linksPerPage: envInt('BENCH_LINKS', 50),
    pageBytes: envInt('BENCH_PAGE_BYTES', 15000),
    concurrency: envInt('BENCH_CONCURRENCY', 16),
    rendering,
  };
}
