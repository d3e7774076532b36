import { rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRenderer } from '../browser/create-renderer.js';
import type { KumoConfig } from '../config/config.js';
import { createUndiciFetcher } from '../crawler/http-fetcher.js';
import { fetchLimitsOf } from '../crawler/page-fetch.js';
import type { InstantCrawlerSetting } from '../domain/crawl-setting-schema.js';
import { rendersPages, resolveCrawlSettings } from '../domain/crawl-settings.js';
import { validateCrawlSetting } from '../domain/validate-crawl-setting.js';
import { AddressPolicy } from '../net/address-policy.js';
import { systemClock } from '../util/clock.js';
import { defaultUserAgent } from '../util/version.js';
import { executeCrawl } from '../worker/execute-crawl.js';
import { ProgressReporter } from './progress-line.js';
import { reportSeedFailures } from './seed-failures.js';
import { UsageError } from './usage-error.js';

export const CRAWL_USAGE = `usage: kumo crawl <url> [<url> ...] --out DIR [options]
  --depth N          follow links at most N hops from the seeds (seeds are 0)
  --limit N          fetch at most N documents
  --concurrency N    concurrent fetches (default 8, 1..64)
  --delay S          seconds between two requests to one host (default 0)
  --allow RE         only URLs matching this regular expression (repeatable; default: the seed hosts)
  --deny RE          never URLs matching this regular expression (repeatable)
  --no-robots        ignore robots.txt and meta robots
  --user-agent UA    User-Agent header
  --timeout S        stop after S seconds (default 86400)
  --screenshot       render every HTML page in Chromium: cap_org.jpg and dom.html in the bundle
  --viewport WxH     screenshot viewport (default 1280x800; implies --screenshot)
  --full-page        capture the whole page height (implies --screenshot)
  --spa              render pages and take links from the DOM after scripts ran (wait_type 2)
Rendering needs Chromium (KUMO_CHROMIUM_PATH, default /usr/bin/chromium).
An interrupted crawl resumes when the same command is run again with the same --out DIR.
Exit status 3 when no seed could be fetched (each reason on stderr; the URL list has their rows).`;

function integerOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name}: expected a whole number, got "${value}"`);
  return Number(value);
}

function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed))
    throw new UsageError(`--${name}: expected a number, got "${value}"`);
  return parsed;
}

/** `kumo crawl`: one crawl on this machine, no server, artifacts written into --out. */
export async function crawlCommand(argv: string[], config: KumoConfig): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      depth: { type: 'string' },
      limit: { type: 'string' },
      concurrency: { type: 'string' },
      delay: { type: 'string' },
      allow: { type: 'string', multiple: true },
      deny: { type: 'string', multiple: true },
      'no-robots': { type: 'boolean' },
      'user-agent': { type: 'string' },
      timeout: { type: 'string' },
      screenshot: { type: 'boolean' },
      viewport: { type: 'string' },
      'full-page': { type: 'boolean' },
      spa: { type: 'boolean' },
    },
  });
  if (positionals.length === 0) throw new UsageError('kumo crawl: give at least one URL');
  if (values.out === undefined) throw new UsageError('kumo crawl: --out DIR is required');
  const setting: InstantCrawlerSetting = {
    seed_urls: positionals,
    depth_limit: integerOption(values.depth, 'depth') ?? null,
    documents_limit: integerOption(values.limit, 'limit') ?? null,
    base_concurrent_requests: integerOption(values.concurrency, 'concurrency') ?? null,
    download_delay: numberOption(values.delay, 'delay') ?? null,
    allow_urls_patterns: values.allow ?? null,
    deny_urls_patterns: values.deny ?? null,
    robots_txt: values['no-robots'] ? false : null,
    user_agent: values['user-agent'] ?? null,
    execution_timeout: integerOption(values.timeout, 'timeout') ?? null,
    wait_type: values.spa ? 2 : null,
    screenshot: screenshotOption(values),
  };
  const errors = validateCrawlSetting(setting, 'crawl');
  if (errors.length > 0) {
    throw new UsageError(errors.map((e) => `${cliName(e.field)}: ${e.reason}`).join('\n'));
  }
  const settings = resolveCrawlSettings(setting);
  const outFolder = path.resolve(values.out);
  const workFolder = path.join(outFolder, '.kumo-work');
  const cancel = new AbortController();
  const onSignal = () => {
    process.stderr.write('\ninterrupted: stopping; run the same command again to resume\n');
    cancel.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const progress = new ProgressReporter(process.stderr);
  // main.ts allows private networks for kumo crawl by default: intranet and localhost sites are
  // the point on the user's own machine. The policy still applies when the config narrows it.
  const addresses = new AddressPolicy(config.allowPrivateNetworks);
  const fetcher = createUndiciFetcher({ addresses });
  const browser = rendersPages(settings) ? createRenderer(config, addresses) : undefined;
  try {
    const started = systemClock.nowMicros();
    const execution = await executeCrawl(
      settings,
      { workFolder, artifactFolder: outFolder },
      {
        fetcher,
        clock: systemClock,
        limits: fetchLimitsOf(config),
        defaultUserAgent: defaultUserAgent(config.publicUrl),
        timezone: config.timezone,
        renderer: browser?.renderer,
      },
      {
        cancelSignal: cancel.signal,
        deadlineMicros: started + settings.executionTimeoutSeconds * 1_000_000,
        onProgress: (snapshot) => progress.update(snapshot),
      },
      new Set(['completed', 'limit_reached', 'timed_out']),
    );
    progress.finish(execution.progress);
    if (execution.outcome === 'cancelled') return 130;
    await rm(workFolder, { recursive: true, force: true });
    for (const artifact of execution.artifacts) {
      process.stdout.write(`${path.join(outFolder, artifact.name)}\t${artifact.bytes} bytes\n`);
    }
    if (execution.outcome === 'timed_out')
      process.stderr.write('stopped by --timeout; artifacts hold what was crawled\n');
    return reportSeedFailures(execution.seeds, process.stderr);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await Promise.all([fetcher.close(), browser?.pool.close()]);
  }
}

/** --screenshot, --viewport WxH and --full-page as the setting's screenshot object. */
function screenshotOption(values: {
  screenshot?: boolean;
  viewport?: string;
  'full-page'?: boolean;
}): InstantCrawlerSetting['screenshot'] {
  if (!values.screenshot && values.viewport === undefined && !values['full-page']) return null;
  let size: { viewport_width: number; viewport_height: number } | undefined;
  if (values.viewport !== undefined) {
    const match = /^(\d+)x(\d+)$/.exec(values.viewport);
    if (!match)
      throw new UsageError(`--viewport: expected WIDTHxHEIGHT such as 1366x768, got "${values.viewport}"`);
    size = { viewport_width: Number(match[1]), viewport_height: Number(match[2]) };
  }
  return { ...size, render_all: values['full-page'] ?? false };
}

function cliName(field: string): string {
  const names: Record<string, string> = {
    'crawl.depth_limit': '--depth',
    'crawl.documents_limit': '--limit',
    'crawl.base_concurrent_requests': '--concurrency',
    'crawl.download_delay': '--delay',
    'crawl.execution_timeout': '--timeout',
    'crawl.screenshot.viewport_width': '--viewport (width)',
    'crawl.screenshot.viewport_height': '--viewport (height)',
  };
  const allow = /^crawl\.allow_urls_patterns\[(\d+)\]$/.exec(field);
  if (allow) return `--allow #${Number(allow[1]) + 1}`;
  const deny = /^crawl\.deny_urls_patterns\[(\d+)\]$/.exec(field);
  if (deny) return `--deny #${Number(deny[1]) + 1}`;
  const seed = /^crawl\.seed_urls\[(\d+)\]$/.exec(field);
  if (seed) return `URL #${Number(seed[1]) + 1}`;
  return names[field] ?? field;
}
