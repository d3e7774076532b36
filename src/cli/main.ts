#!/usr/bin/env node
import { ConfigError, describeSettings, loadConfig } from '../config/config.js';
import { ADMIN_USAGE, adminCommand } from './admin-command.js';
import { CRAWL_USAGE, crawlCommand } from './crawl-command.js';
import { INDEX_USAGE, indexCommand } from './index-command.js';
import { searchCommand } from './search-command.js';
import { serveCommand } from './serve-command.js';
import { UsageError } from './usage-error.js';

const USAGE = `usage: kumo <command>
  serve      run the API service (instant crawl, downloads, search) on KUMO_HOST:KUMO_PORT
  crawl      crawl a site on this machine into a folder, no server needed
  admin      manage contracts, service groups, API keys, search services, crawl service settings and webhooks
  index      load a crawl bundle into a search service's index
  search     search a search service's index from the terminal
  config     list the settings with their environment variables and defaults

${CRAWL_USAGE}

${ADMIN_USAGE}

${INDEX_USAGE}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === 'config') {
    for (const setting of describeSettings())
      process.stdout.write(`${setting.env}\t${setting.fallback}\t${setting.doc}\n`);
    return 0;
  }
  // kumo crawl runs on the user's own machine, where crawling private addresses is the point.
  // (KUMO_ALLOW_PRIVATE_NETWORKS, set in the environment or the config file, still narrows it.)
  const config = loadConfig(undefined, {}, command === 'crawl' ? { allowPrivateNetworks: true } : {});
  switch (command) {
    case 'serve':
      return serveCommand(config);
    case 'crawl':
      return crawlCommand(rest, config);
    case 'admin':
      return adminCommand(rest, config);
    case 'index':
      return indexCommand(rest, config);
    case 'search':
      return searchCommand(rest, config);
    default:
      throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`kumo: ${error.message}\n`);
      process.exitCode = 2;
    } else if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`kumo: ${(error as Error).message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`kumo: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
