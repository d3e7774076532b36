#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node
import { debugRequested } from '../config/index.js';
import { endQuietlyWhenOutputCloses } from './closed-output.js';
import { CommandHost } from './command-host.js';
import { buildProgram } from './kumo-program.js';
import { reportError } from './report-error.js';

const host = new CommandHost();
const program = buildProgram(host);
endQuietlyWhenOutputCloses(() => host.running?.name() === 'serve');

/** Stack traces with errors: `--verbose` anywhere on the line, or KUMO_DEBUG. */
function verbose(): boolean {
  return program.opts<{ verbose?: boolean }>().verbose === true || debugRequested();
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
