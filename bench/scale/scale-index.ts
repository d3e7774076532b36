/**
 * The indexing part of `npm run bench:scale`: the crawl's bundle loaded by `kumo index` into a
 * search service of a fresh data directory, as a user runs it (docs/scaling.md, Large sites),
 * with its time and peak RSS (VmHWM read every 100 ms), then what the index file holds: its
 * size by part and the pages in it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import Database from 'better-sqlite3';
import { searchIndexFile } from '../../src/config/index.js';
import { ensureDataDir, openRecordStore } from '../../src/startup/index.js';
import { indexFileSize, type IndexFileSize } from '../index-file-size.js';
import { kilobyteField, readProcFile } from '../process-tree-rss.js';
import { KUMO, kumoEnv } from './kumo-command.js';

const SAMPLE_MS = 100;

export interface FollowedRun {
  exitCode: number | null;
  seconds: number;
  /** Peak RSS the kernel recorded for the process (VmHWM), at the last reading before it exited. */
  peakRss: number;
  /** The last lines the process wrote to stderr. */
  lastLines: string[];
}

/** The ids `kumo admin` gave the search service and what holds it. */
export interface CreatedService {
  contract: number;
  group: number;
  service: number;
}

export interface ScaleIndexResult extends FollowedRun {
  service: CreatedService;
  indexFile: string;
  /** Pages in the index (its `documents` rows). */
  pages: number;
  size: IndexFileSize;
}

/**
 * A data directory as `kumo serve` leaves it at its first start, then a contract, service group
 * and search service made with `kumo admin`; returns their ids.
 */
export async function prepareSearchService(dataDir: string): Promise<CreatedService> {
  const store = await openRecordStore(
    { databaseUrl: undefined, secretKey: undefined },
    ensureDataDir(dataDir),
  );
  await store.close();
  const env = { KUMO_DATA_DIR: dataDir };
  const contract = createdId(await kumoOutput(['admin', 'contract', 'create', '--name', 'bench'], env));
  const group = createdId(
    await kumoOutput(['admin', 'servicegroup', 'create', '--contract', contract, '--name', 'bench'], env),
  );
  const service = await kumoOutput(
    ['admin', 'searchservice', 'create', '--contract', contract, '--servicegroup', group, '--name', 'bench'],
    env,
  );
  return {
    contract: Number.parseInt(contract, 10),
    group: Number.parseInt(group, 10),
    service: Number.parseInt(createdId(service), 10),
  };
}

/** `kumo index` of the bundle in `bundleFolder` into the data directory's search service. */
export async function scaleIndex(bundleFolder: string, dataDir: string): Promise<ScaleIndexResult> {
  const service = await prepareSearchService(dataDir);
  const serviceId = service.service;
  const run = await followKumo(['index', '--service', String(serviceId), bundleFolder], {
    KUMO_DATA_DIR: dataDir,
  });
  const indexFile = searchIndexFile(dataDir, serviceId);
  const db = new Database(indexFile, { readonly: true, fileMustExist: true });
  const pages = db.prepare('SELECT count(*) FROM documents').pluck().get() as number;
  db.close();
  return { ...run, service, indexFile, pages, size: indexFileSize(indexFile) };
}

/** Runs a `kumo` command to its exit, following its peak RSS and echoing its progress line. */
export async function followKumo(args: readonly string[], env: Record<string, string>): Promise<FollowedRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [KUMO, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: kumoEnv(env),
  });
  const lines: string[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split(/[\r\n]/)) if (line.trim() !== '') lines.push(line);
    if (lines.length > 200) lines.splice(0, lines.length - 50);
    const last = lines.at(-1);
    if (last !== undefined) process.stderr.write(`\r  ${last.slice(0, 150)}`.padEnd(160));
  });
  let peakRss = 0;
  const timer = setInterval(() => {
    const status = child.pid === undefined ? undefined : readProcFile(child.pid, 'status');
    if (status !== undefined) peakRss = Math.max(peakRss, kilobyteField(status, 'VmHWM'));
  }, SAMPLE_MS);
  const [exitCode] = (await once(child, 'close')) as [number | null];
  clearInterval(timer);
  process.stderr.write('\n');
  return { exitCode, seconds: (performance.now() - started) / 1000, peakRss, lastLines: lines.slice(-3) };
}

/** The trimmed stdout of a short `kumo` command; throws with its stderr when it fails. */
async function kumoOutput(args: readonly string[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [KUMO, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: kumoEnv(env),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`kumo ${args.join(' ')} exited ${String(code)}: ${stderr.trim()}`);
  return stdout.trim();
}

/** The id a `kumo admin ... create` printed ("contract 1 created (bench)"). */
function createdId(printed: string): string {
  const id = /\b(\d+)\b/.exec(printed)?.[1];
  if (id === undefined) throw new Error(`kumo admin printed no id: ${printed}`);
  return id;
}
