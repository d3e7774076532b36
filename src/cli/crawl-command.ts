import type { Command } from 'commander';
import type { CommandHost } from './command-host.js';
import { type CrawlOptionValues, rangeText } from './crawl-options.js';

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
    .option('--sitemaps', "read the sitemaps the seeds' robots.txt names (else /sitemap.xml)")
    .option('--sitemap <url>', 'read this sitemap file (repeatable)', collect)
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
      const config = host.config({ allowPrivateNetworks: true });
      // The crawler is loaded only by the command that runs it (not by kumo serve).
      const { crawlCommand } = await import('./crawl-action.js');
      host.exitCode = await crawlCommand(urls, values, config);
    });
}
