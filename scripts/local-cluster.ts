/**
 * `npm run cluster:local`: a Kumo cluster on this machine, for trying one (docs/operations.md,
 * Roles): Debian's PostgreSQL (scripts/install-postgresql.sh) and an S3-compatible server (s3rver)
 * in a temporary folder; one `kumo serve --roles api,scheduler` answering the crawl, management
 * and download APIs and the console; worker processes (`--roles worker`) crawling; and search
 * nodes (`--roles search`), each with a data directory of its own; and in front of them a front
 * door (src/startup/front-door.ts), the one address where the console, the APIs, the widget and
 * site search are reached, as behind a production cluster's load balancer. Prints that address,
 * what is behind it and the credentials, then runs until Ctrl-C, which stops everything and
 * removes the temporary files.
 *
 * Options: --workers N (2; with 0, one process takes every role instead of the API process and the
 * workers), --search-nodes M (2), --port P (8080: the front door; the API process, the workers and
 * then the search nodes take the next ports).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type FrontDoor, startFrontDoor } from '../src/startup/front-door.js';
import { startPostgresServer } from '../test/support/postgres-server.js';
import { startS3Server } from '../test/support/s3-server.js';

const MAIN_JS = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const ADMIN_TOKEN = 'kumo_local_cluster_admin_token_0123456789';
const API_KEY = 'kumo_local_cluster_api_key_0123456789abcdef';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '2' },
    'search-nodes': { type: 'string', default: '2' },
    port: { type: 'string', default: '8080' },
  },
});
/** The value of a count option, or the process ends naming the option. */
function countOption(name: 'workers' | 'search-nodes'): number {
  const count = Number(values[name]);
  if (Number.isInteger(count) && count >= 0 && count <= 16) return count;
  process.stderr.write(`--${name}: expected a whole number from 0 to 16\n`);
  process.exit(2);
}
const workers = countOption('workers');
const searchNodes = countOption('search-nodes');
const firstPort = Number(values.port);
if (!Number.isInteger(firstPort) || firstPort < 1024 || firstPort + 1 + workers + searchNodes > 65535) {
  process.stderr.write(
    '--port: expected a port from 1024 on, with room for the API process, the workers and search nodes after it\n',
  );
  process.exit(2);
}

interface Member {
  name: string;
  url: string;
  child: ChildProcess;
  dataDir: string;
}

const FINDER_BASE_PATH = '/api/v1.0/finder_service';
const frontDoorUrl = `http://127.0.0.1:${firstPort}`;
const apiPort = firstPort + 1;
const memberUrl = (port: number) => `http://127.0.0.1:${port}`;
const searchUrls = Array.from({ length: searchNodes }, (_, at) => memberUrl(apiPort + workers + 1 + at));

// The front door first: a port already taken stops the start before anything else runs.
let frontDoor: FrontDoor;
try {
  frontDoor = await startFrontDoor({
    host: '127.0.0.1',
    port: firstPort,
    api: [memberUrl(apiPort)],
    search: searchUrls,
    finderBasePath: FINDER_BASE_PATH,
  });
} catch (error) {
  process.stderr.write(
    `--port: the front door cannot listen on ${frontDoorUrl}: ${(error as Error).message}\n`,
  );
  process.exit(2);
}

process.stdout.write('starting PostgreSQL and the S3-compatible server...\n');
const [postgres, s3] = await Promise.all([startPostgresServer(), startS3Server('kumo')]);
const databaseUrl = await postgres.createDatabase();
const env: Record<string, string> = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('KUMO_'))),
  ...s3.env,
  KUMO_DATABASE_URL: databaseUrl,
  KUMO_SECRET_KEY: '5a'.repeat(32),
  KUMO_BLOB_URL: `s3://${s3.bucket}/cluster`,
  KUMO_ADMIN_TOKEN: ADMIN_TOKEN,
  KUMO_SIGNING_SECRET: 'kumo-local-cluster-signing-secret',
  KUMO_BOOTSTRAP_API_KEY: API_KEY,
  KUMO_ALLOW_PRIVATE_NETWORKS: 'true',
  KUMO_HOST: '127.0.0.1',
  KUMO_FINDER_BASE_PATH: FINDER_BASE_PATH,
  // Every process is reached through the front door, as behind a load balancer: the console's
  // links, snippet and Try it name it (docs/operations.md, Roles).
  KUMO_PUBLIC_URL: frontDoorUrl,
  KUMO_SEARCH_PUBLIC_URL: frontDoorUrl,
};

/** Starts one `kumo serve` and waits for it to listen; its lines are shown with its name. */
async function startMember(name: string, port: number, roles: string): Promise<Member> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `kumo-${name}-`));
  const child = spawn(process.execPath, [MAIN_JS, 'serve', '--roles', roles], {
    env: { ...env, KUMO_DATA_DIR: dataDir, KUMO_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const listening = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name} exited (${String(code)}) before listening`)));
    for (const stream of [child.stdout!, child.stderr!])
      createInterface({ input: stream }).on('line', (line) => {
        process.stdout.write(`[${name}] ${line}\n`);
        if (line.startsWith('kumo serve: listening on')) resolve();
      });
  });
  await listening;
  return { name, url: memberUrl(port), child, dataDir };
}

const members: Member[] = [];
const stopAll = async () => {
  await Promise.all(
    members.map(async (member) => {
      if (member.child.exitCode === null && member.child.signalCode === null) {
        const exited = once(member.child, 'exit');
        member.child.kill('SIGTERM');
        await exited;
      }
      await rm(member.dataDir, { recursive: true, force: true });
    }),
  );
  await Promise.all([s3.stop(), postgres.stop(), frontDoor.close()]);
};

try {
  // The API process first: it creates the demo tenant the others serve.
  members.push(await startMember('api', apiPort, workers === 0 ? 'all' : 'api,scheduler'));
  for (let worker = 1; worker <= workers; worker++)
    members.push(await startMember(`worker-${worker}`, apiPort + worker, 'worker'));
  for (let node = 1; node <= searchNodes; node++)
    members.push(await startMember(`search-${node}`, apiPort + workers + node, 'search'));
} catch (error) {
  await stopAll();
  throw error;
}

const line = (member: Member, what: string) => `  ${member.name.padEnd(10)} ${what}: ${member.url}\n`;
const [api, ...others] = members;
const searchBehind = searchNodes > 0 ? 'the search nodes' : 'the API process';
process.stdout.write(
  `\nLocal cluster running (Ctrl-C stops it and removes its files).\n` +
    `Open ${frontDoorUrl}/console/ : one address for everything, as behind a load balancer.\n` +
    `  front door ${frontDoorUrl}\n` +
    `    ${FINDER_BASE_PATH}/, /widget/, /search/ -> ${searchBehind}, in turn\n` +
    `    everything else (console, crawl, management and download APIs) -> the API process\n` +
    `Behind it:\n` +
    line(
      api!,
      workers === 0
        ? 'every role, every API and the console'
        : 'crawl, management and download APIs, console, scheduler',
    ) +
    others
      .map((member) =>
        member.name.startsWith('worker')
          ? line(member, 'crawls (health and metrics only)')
          : line(member, 'site search API, widget, hosted search pages'),
      )
      .join('') +
    `  PostgreSQL: ${databaseUrl}\n` +
    `  object storage: ${s3.endpoint}, bucket ${s3.bucket}\n` +
    `  management API token: ${ADMIN_TOKEN}\n` +
    `  demo tenant (contract 1, service group 1, search service 1) API key: ${API_KEY}\n\n`,
);

const signal = await new Promise<string>((resolve) => {
  process.once('SIGINT', () => resolve('SIGINT'));
  process.once('SIGTERM', () => resolve('SIGTERM'));
});
process.stdout.write(`\n${signal} received: stopping the cluster\n`);
// Ctrl-C reaches the members too, and may be pressed again: the stop goes on and cleans up.
for (const again of ['SIGINT', 'SIGTERM'] as const)
  process.on(again, () => process.stdout.write('still stopping the cluster...\n'));
await stopAll();
process.stdout.write('stopped\n');
