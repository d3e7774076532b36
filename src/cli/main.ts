#!/usr/bin/env node
import { endQuietlyWhenOutputCloses } from './closed-output.js';
import { CommandHost } from './command-host.js';
import { buildProgram } from './kumo-program.js';
import { reportError } from './report-error.js';

const host = new CommandHost();
const program = buildProgram(host);
endQuietlyWhenOutputCloses(() => host.running?.name() === 'serve');

/**
 * KUMO_DEBUG is read here rather than with the settings: it must work when loading the settings
 * is what failed.
 */
function verbose(): boolean {
  const debug = process.env.KUMO_DEBUG;
  return (
    program.opts<{ verbose?: boolean }>().verbose === true ||
    (debug !== undefined && !['', '0', 'false'].includes(debug))
  );
}

program.parseAsync(process.argv.slice(2), { from: 'user' }).then(
  () => {
    process.exitCode = host.exitCode;
  },
  (error: unknown) => {
    process.exitCode = reportError(error, {
      verbose: verbose(),
      usage: () => host.running?.helpInformation(),
    });
  },
);
