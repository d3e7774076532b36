import type { Command } from 'commander';
import type { CommandHost } from './command-host.js';
import type { IndexOptionValues } from './index-action.js';

/** Adds `kumo index --service N <bundle>` and `kumo index --service N --run ID`. */
export function addIndexCommand(program: Command, host: CommandHost): void {
  program
    .command('index')
    .summary("load a crawl bundle into a search service's index")
    .description(
      'Loads the pages of a crawl bundle (HTML, and PDF / office files when crawled) into the index ' +
        'of search service N. --run takes the bundle of finished instant crawl request ID of the ' +
        "service's own tenant. Pages already indexed are replaced by URL, unchanged ones skipped; " +
        'noindex pages are left out.',
    )
    .usage('--service <n> <bundle> | --service <n> --run <id>')
    .argument('[bundle]', 'a crawl_objects.tar.gz, or a folder holding one (kumo crawl --out)')
    .option('--service <n>', 'search service id (required)')
    .option('--run <id>', 'instant_crawl_request_id of a finished crawl of kumo serve, instead of a bundle')
    .action(async (bundle: string | undefined, values: IndexOptionValues) => {
      const config = host.config();
      // The indexer is loaded only by the command that runs it (not by kumo serve).
      const { indexCommand } = await import('./index-action.js');
      host.exitCode = await indexCommand(bundle === undefined ? [] : [bundle], values, config);
    });
}
