/**
 * What bench:engines needs besides the project: the anchor engines and the manuals, all from
 * Debian packages. Checked before anything is measured, so a missing one is named at once with
 * the command that installs it, instead of failing minutes into the run.
 */
import { spawnSync } from 'node:child_process';

/**
 * Debian's interpreter, which the python3-xapian bindings are installed for; a `python3` found
 * first on PATH (a pyenv, a virtual environment) usually cannot import them.
 */
export const SYSTEM_PYTHON = '/usr/bin/python3';

export function runs(command: string, args: readonly string[]): boolean {
  const result = spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 });
  return result.error === undefined && result.status === 0;
}

/** The Debian packages of the anchor engines that are not usable here. */
export function missingAnchorPackages(): string[] {
  const missing: string[] = [];
  if (!runs('groonga', ['--version'])) missing.push('groonga-bin');
  if (!runs(SYSTEM_PYTHON, ['-c', 'import xapian'])) missing.push('python3-xapian');
  return missing;
}

/** The message that stops the run: what is missing and the command that installs it. */
export function missingPackagesMessage(missing: readonly string[]): string {
  return (
    `bench:engines measures Kumo beside engines and manuals installed by Debian packages; missing: ${missing.join(', ')}\n` +
    `  install: sudo apt-get install ${missing.join(' ')}\n` +
    '  (everything it uses: groonga-bin python3-xapian postgresql-doc-15 apache2-doc)\n'
  );
}
