/**
 * The first step of `npm test` (docs/operations.md, Running the tests): finds what the suite needs
 * beyond `npm ci` (Chromium and a PostgreSQL server) and installs what is missing through apt-get
 * on Debian and Ubuntu; elsewhere it stops before any test runs, naming the packages and the
 * command to install them.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { postgresBinDir } from '../../test/support/postgres-server.js';
import { planPrerequisites, type Prerequisite } from './prerequisites-plan.js';

const CHROMIUM_PATH = process.env.KUMO_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where each prerequisite was found, or undefined when it is missing. */
function locate(): Record<Prerequisite, string | undefined> {
  return { chromium: executable(CHROMIUM_PATH) ? CHROMIUM_PATH : undefined, postgresql: postgresBinDir() };
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function readOsRelease(): string | undefined {
  for (const file of ['/etc/os-release', '/usr/lib/os-release']) {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      // os-release(5): the second path is the fallback when the first is absent.
    }
  }
  return undefined;
}

function say(line: string): void {
  process.stdout.write(`test prerequisites: ${line}\n`);
}

function missingOf(found: Record<Prerequisite, string | undefined>): Prerequisite[] {
  return (Object.keys(found) as Prerequisite[]).filter((item) => found[item] === undefined);
}

const found = locate();
for (const [item, where] of Object.entries(found))
  say(`${item} ${where === undefined ? 'missing' : `present at ${where}`}`);
const plan = planPrerequisites({
  platform: process.platform,
  osRelease: readOsRelease(),
  missing: missingOf(found),
  root: process.getuid?.() === 0,
});
if (plan.kind === 'manual') {
  say(`cannot install on ${plan.system}; install ${plan.packages.join(' ')} and run the tests again:`);
  process.stdout.write(`  ${plan.command}\n`);
  if (plan.packages.some((name) => name.includes('chromium')) && CHROMIUM_PATH === '/usr/bin/chromium')
    say('where the browser is not /usr/bin/chromium, set KUMO_CHROMIUM_PATH to its executable');
  process.exit(1);
}
if (plan.kind === 'install') {
  say(`installing ${plan.packages.join(' ')} on ${plan.system}`);
  for (const command of plan.commands) {
    say(`running ${command.join(' ')}`);
    const result = spawnSync(command[0]!, command.slice(1), { stdio: 'inherit' });
    if (result.status !== 0) {
      say(`${command.join(' ')} failed (${result.error?.message ?? `exit code ${String(result.status)}`})`);
      process.exit(1);
    }
  }
  const still = missingOf(locate());
  if (still.length > 0) {
    say(`still missing after the install: ${still.join(', ')}`);
    if (still.includes('chromium'))
      say(`no browser at ${CHROMIUM_PATH}: set KUMO_CHROMIUM_PATH to its executable`);
    process.exit(1);
  }
  say('installed');
}
say('ready');
