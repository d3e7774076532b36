import { Command } from 'commander';
import { describeSettings } from '../config/index.js';
import { KUMO_VERSION } from '../util/index.js';
import { addAdminCommand } from './admin-program.js';
import type { CommandHost } from './command-host.js';
import { addCrawlCommand } from './crawl-command.js';
import { addIndexCommand } from './index-command.js';
import { addSearchCommand } from './search-command.js';
import { addServeCommand } from './serve-command.js';

/**
 * The `kumo` command line (docs/operations.md, "Command line"): every command and subcommand
 * answers --help / -h; an unknown option or a missing argument prints `kumo: <what>` and the
 * command's usage on stderr. Commander throws instead of exiting, so main.ts decides the exit
 * code (2 for such mistakes) in one place.
 */
export function buildProgram(host: CommandHost): Command {
  const program = new Command('kumo')
    .description('Web-site crawling and site search: the API service, local crawls, search indexes')
    .version(KUMO_VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print this help')
    .helpCommand('help [command]', 'print the help of a command')
    .option('--verbose', 'print the stack trace of an error (also KUMO_DEBUG=1)')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`kumo: ${oneLine(text)}\n`) })
    .showHelpAfterError()
    .addHelpText(
      'after',
      '\nkumo <command> --help shows the options of a command; kumo config lists the settings,\n' +
        'which come from environment variables (or KUMO_CONFIG_FILE).',
    );
  program.hook('preAction', (_program, command) => {
    host.running = command;
  });
  addServeCommand(program, host);
  addCrawlCommand(program, host);
  addAdminCommand(program, host);
  addIndexCommand(program, host);
  addSearchCommand(program, host);
  program
    .command('config')
    .summary('list the settings with their environment variables and defaults')
    .description('Prints one line per setting: environment variable, default and meaning, separated by tabs.')
    .action(() => {
      for (const setting of describeSettings())
        process.stdout.write(`${setting.env}\t${setting.fallback}\t${setting.doc}\n`);
    });
  return program;
}

/** Commander's "error: unknown option '--x'\n(Did you mean --y?)" as one line without "error: ". */
function oneLine(text: string): string {
  return text
    .replace(/^error: /, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
}
