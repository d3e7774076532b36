import type { Command } from 'commander';
import type { CommandHost } from './command-host.js';
import type { SearchOptionValues } from './search-action.js';

/** Adds `kumo search --service N [--limit N] <query...>`. */
export function addSearchCommand(program: Command, host: CommandHost): void {
  program
    .command('search')
    .summary("search a search service's index from the terminal")
    .description(
      'Prints how many pages match, the did-you-mean correction, the best-ranked pages (rank, ' +
        'title, URL) and the related keywords, as the site search API answers them.',
    )
    .argument(
      '<query...>',
      'the query: words, "a phrase", -excluded, a OR b (put -- before a query starting with -)',
    )
    .option('--service <n>', 'search service id (required)')
    .option('--limit <n>', 'pages to print (default 10, 1..100)')
    .action(async (query: string[], values: SearchOptionValues) => {
      const config = host.config();
      // The search engine is loaded only by the command that runs it.
      const { searchCommand } = await import('./search-action.js');
      host.exitCode = await searchCommand(query, values, config);
    });
}
