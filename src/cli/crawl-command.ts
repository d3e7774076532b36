import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { createRenderer } from '../browser/create-renderer.js';
import type { KumoConfig } from '../config/config.js';
import { createUndiciFetcher } from '../crawler/http-fetcher.js';
import { fetchLimitsOf } from '../crawler/page-fetch.js';
import { rendersPages, resolveCrawlSettings } from '../domain/crawl-settings.js';
import { AddressPolicy } from '../net/address-policy.js';
import { systemClock } from '../util/clock.js';
import { defaultUserAgent } from '../util/version.js';
import { executeCrawl } from '../worker/execute-crawl.js';
import type { CommandHost } from './command-host.js';
import { type CrawlOptionValues, crawlSettingOf, rangeText } from './crawl-options.js';
import { prepareWorkFolder } from './crawl-work-folder.js';
import { ProgressReporter } from './progress-line.js';
import { reportSeedFailures } from './seed-failures.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Adds `kumo crawl <url...> --out DIR [options]`. */
export function addCrawlCommand(program: Command, host: CommandHost): void {
  program
    .command('crawl')
    .summary('crawl a site on this machine into a folder, no server needed')
    .description(
      'Crawls from the seed URLs into --out: url_list.csv.gz and crawl_objects.tar.gz, with a ' +
        'progress line on stderr and the written files on stdout.',
    )
    .argument('<url...>', 'seed URLs (http or https)')
    .requiredOption('--out <dir>', 'folder the artifacts are written to')
    .option('--depth <n>', `follow links at most N hops from the seeds (seeds are 0; ${rangeText('depth')})`)
    .option('--limit <n>', `fetch at most N documents (${rangeText('limit')})`)
    .option('--concurrency <n>', `concurrent fetches (default 8, ${rangeText('concurrency')})`)
    .option('--delay <s>', `seconds between two requests to one host (default 0, ${rangeText('delay')})`)
    .option(
      '--allow <re>',
      "only URLs matching this regular expression (repeatable; default: the seeds' sites, host and port)",
      collect,
    )
    .option('--deny <re>', 'never URLs matching this regular expression (repeatable)', collect)
    .option('--no-robots', 'ignore robots.txt and meta robots')
    .option('--user-agent <ua>', 'User-Agent header')
    .option('--timeout <s>', `stop after S seconds (default 86400, ${rangeText('timeout')})`)
    .option('--screenshot', 'render every HTML page in Chromium: cap_org.jpg and dom.html in the bundle')
    .option('--viewport <WxH>', 'screenshot viewport (default 1280x800; implies --screenshot)')
    .option('--full-page', 'capture the whole page height (implies --screenshot)')
    .option('--spa', 'render pages and take links from the DOM after scripts ran (wait_type 2)')
    .option('--fresh', 'discard an interrupted crawl in --out and start again')
    .addHelpText(
      'after',
      '\nRendering needs Chromium (KUMO_CHROMIUM_PATH, default /usr/bin/chromium).\n' +
        'An interrupted crawl resumes when the same command is run again with the same --out DIR;\n' +
        'a crawl with other seeds or options is refused there until --fresh discards the old one.\n' +
        'Exit status 3 when no seed could be fetched (each reason on stderr; the URL list has their rows).',
    )
    .action(async (urls: string[], values: CrawlOptionValues) => {
      // kumo crawl runs on the user's own machine, where crawling private addresses is the point.
      // (KUMO_ALLOW_PRIVATE_NETWORKS, set in the environment or the config file, still narrows it.)
      host.exitCode = await crawlCommand(urls, values, host.config({ allowPrivateNetworks: true }));
    });
}

/** `kumo crawl`: one crawl on this machine, no server, artifacts written into --out. */
export async function crawlCommand(
  urls: string[],
  values: CrawlOptionValues,
  config: KumoConfig,
): Promise<number> {
  const setting = crawlSettingOf(urls, values);
  const settings = resolveCrawlSettings(setting);
  const outFolder = path.resolve(values.out);
  const workFolder = path.join(outFolder, '.kumo-work');
  const resumed = await prepareWorkFolder(workFolder, outFolder, setting, values.fresh ?? false);
  if (resumed !== undefined)
    process.stderr.write(`resuming: ${resumed.done} pages done, ${resumed.queued} queued\n`);
  const cancel = new AbortController();
  const onSignal = () => {
    process.stderr.write('\ninterrupted: stopping; run the same command again to resume\n');
    cancel.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const progress = new ProgressReporter(process.stderr, resumed?.done ?? 0);
  // addCrawlCommand allows private networks for kumo crawl by default: intranet and localhost sites are
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
        defaultUserAgent: defaultUserAgent(config.botInfoUrl),
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
