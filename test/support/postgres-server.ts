/**
 * A throwaway PostgreSQL server for the tests of the PostgreSQL store: Debian's server binaries
 * (installed by `npm test` when missing: scripts/test-machine/install-prerequisites.ts) run on
 * 127.0.0.1 with a free port, a data directory in a temporary folder, trust authentication on
 * loopback and no durability (fsync off), since the data is removed when the test file ends.
 * One server per test file; `createDatabase` gives each test its own database.
 *
 * The server refuses to run as root: as root, it runs as the `postgres` user that Debian's package
 * creates (through runuser), the temporary folder handed to that user.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { freePort } from './service-harness.js';

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/kumo`: a database made when the server started. */
  url: string;
  /** Creates a new empty database; its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
}

const POSTGRES_ROOT = '/usr/lib/postgresql';
const SERVER_USER = 'postgres';
const START_TIMEOUT_MS = 30_000;

let databases = 0;

/**
 * Creates a new empty database on the server of `serverUrl` (a URL of any of its databases); the
 * new database's URL. Names carry the process id, so the test files sharing one server never meet.
 */
export async function createDatabaseOn(serverUrl: string): Promise<string> {
  const name = `kumo_${process.pid}_${++databases}`;
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await sql.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The bin folder of the newest PostgreSQL version installed, or undefined when none is. */
export function postgresBinDir(): string | undefined {
  if (!existsSync(POSTGRES_ROOT)) return undefined;
  const versions = readdirSync(POSTGRES_ROOT)
    .filter((name) => /^\d+$/.test(name) && existsSync(path.join(POSTGRES_ROOT, name, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(POSTGRES_ROOT, versions[0], 'bin');
}

/** Starts a server; throws when PostgreSQL is not installed or does not start. */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (bin === undefined)
    throw new Error(
      `PostgreSQL is not installed under ${POSTGRES_ROOT} (npm test installs it on Debian and Ubuntu)`,
    );
  const asRoot = process.getuid?.() === 0;
  const root = mkdtempSync(path.join(os.tmpdir(), 'kumo-postgres-'));
  const dataDir = path.join(root, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', SERVER_USER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', SERVER_USER], { encoding: 'utf8' }).trim());
    chownSync(root, uid, gid);
    chownSync(dataDir, uid, gid);
  }
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot
      ? ['runuser', ['-u', SERVER_USER, '--', path.join(bin, program), ...args]]
      : [path.join(bin, program), args];

  try {
    const [initdb, initArgs] = command('initdb', [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    execFileSync(initdb, initArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }

  const port = await freePort();
  const [program, args] = command('postgres', [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-h',
    '127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
    '-c',
    'shared_buffers=32MB',
  ]);
  const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (log = (log + chunk).slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => signalServer(dataDir, child, 'SIGQUIT');
  process.once('exit', killOnExit);

  const base = `postgres://postgres@127.0.0.1:${port}`;
  const admin = async <T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> => {
    const sql = postgres(`${base}/postgres`, { max: 1, onnotice: () => {}, connect_timeout: 5 });
    try {
      return await work(sql);
    } finally {
      await sql.end({ timeout: 5 });
    }
  };
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    signalServer(dataDir, child, 'SIGINT');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    rmSync(root, { recursive: true, force: true });
  };

  try {
    await waitUntilReady(`${base}/postgres`, child, () => log);
    await admin((sql) => sql.unsafe('CREATE DATABASE kumo'));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `${base}/kumo`,
    createDatabase: () => createDatabaseOn(`${base}/postgres`),
    stop,
  };
}

/** Signals the postmaster (named in its pid file; runuser stands between it and `child` as root). */
function signalServer(dataDir: string, child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (pid > 0) process.kill(pid, signal);
  } catch {
    if (child.exitCode === null) child.kill(signal);
  }
}

async function waitUntilReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`postgres exited while starting:\n${log()}`);
    const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 2 });
    try {
      await sql`SELECT 1`;
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`postgres did not start in time: ${String(error)}\n${log()}`);
    } finally {
      await sql.end({ timeout: 1 });
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
