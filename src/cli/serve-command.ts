import type { Command } from 'commander';
import type { CommandHost } from './command-host.js';
import { parseRoles } from '../config/index.js';

/** Adds `kumo serve`. */
export function addServeCommand(program: Command, host: CommandHost): void {
  program
    .command('serve')
    .summary('run the API service (instant crawl, downloads, search) on KUMO_HOST:KUMO_PORT')
    .description(
      'Runs every API group on one port until SIGINT or SIGTERM, with the data in KUMO_DATA_DIR; ' +
        'kumo config lists the settings. With --roles (or KUMO_ROLES) it is a process of a cluster on ' +
        'a shared database and bucket: api, worker, scheduler, search, any of them.',
    )
    .option(
      '--roles <roles>',
      'all (the default), or roles among api, worker, scheduler, search separated by commas (KUMO_ROLES)',
    )
    .action(async (options: { roles?: string }) => {
      // The service's modules load only for this command: the others start in half the time.
      const { serveCommand } = await import('./serve-action.js');
      host.exitCode = await serveCommand(
        host.config({}, options.roles === undefined ? {} : { roles: parseRoles(options.roles, '--roles') }),
      );
    });
}
