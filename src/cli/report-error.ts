import { inspect } from 'node:util';
import { CommanderError } from 'commander';
import { ConfigError } from '../config/index.js';
import { UsageError } from './usage-error.js';

/** The exit code of a mistake in the command line or in the settings. */
export const USAGE_EXIT_CODE = 2;

export interface ReportOptions {
  /** --verbose or KUMO_DEBUG: the stack trace (and cause) instead of the message alone. */
  verbose: boolean;
  /** The usage of the command that failed, if one ran. */
  usage: () => string | undefined;
  write?: (text: string) => void;
}

/**
 * Says on stderr why a command failed and returns the exit code (docs/operations.md, "Command
 * line"): one `kumo: <message>` line, exit 2 for a usage or settings mistake (with the command's
 * usage below a required option left out) and 1 for anything else. Commander has printed its own
 * errors and help already; only its exit code is decided here.
 */
export function reportError(error: unknown, options: ReportOptions): number {
  const write = options.write ?? ((text: string) => process.stderr.write(text));
  // --help and --version end with 0; an unknown option, a missing argument or a missing
  // subcommand (its help was printed) is a usage mistake.
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
  const message = options.verbose ? inspect(error) : error instanceof Error ? error.message : String(error);
  write(`kumo: ${message}\n`);
  if (error instanceof UsageError && error.withUsage) {
    const usage = options.usage();
    if (usage !== undefined) write(`\n${usage}`);
  }
  return error instanceof UsageError || error instanceof ConfigError ? USAGE_EXIT_CODE : 1;
}
