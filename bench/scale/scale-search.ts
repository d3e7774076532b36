/**
 * The search part of `npm run bench:scale`: `kumo serve` started on the data directory `kumo index`
 * filled (scale-index.ts), as a user starts it, then: the time from starting the process to its
 * first answer, the first search alone once the service answers its health check (it opens the
 * index), latency of the corpus's queries (scale-queries.ts) over HTTP at 1 and at 16 kept-alive
 * connections with full answers (titles, snippets, facets, as a result page shows them), and the
 * RSS of the search process after that load.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from '../engines/free-port.js';
import { type LoadFigures, runLoad } from '../engines/http-load.js';
import { processMemory } from '../engines/process-memory.js';
import type { RunResources } from '../engines/run-resources.js';
import type { CreatedService } from './scale-index.js';
import { KUMO, kumoEnv } from './kumo-command.js';

const HEALTH_PATH = '/api/v1.0/finder_service/health_check';
const START_BOUND_MS = 120_000;

export interface ScaleSearchResult {
  /** From spawning `kumo serve` to its health check's first 200. */
  startMs: number;
  /** The first search request alone, sent once the service is up: opens the index. */
  firstSearchMs: number;
  /** Hits of each query, as its first answer gave them. */
  hits: number[];
  loads: LoadFigures[];
  /** The search process's RSS after the loads, and its peak (VmHWM) since it started. */
  rss: number;
  peakRss: number;
}

export function searchPathOf(service: CreatedService, query: string): string {
  const q = encodeURIComponent(query);
  return `/api/v1.0/finder_service/documents/${service.contract}/${service.group}/${service.service}/search?q=${q}`;
}

/** `kumo serve` on `dataDir`, searched with `queries` for `seconds` at each connection count. */
export async function scaleSearch(
  dataDir: string,
  service: CreatedService,
  queries: readonly string[],
  seconds: number,
  resources: RunResources,
): Promise<ScaleSearchResult> {
  const started = performance.now();
  const serve = await startKumoServe(dataDir, {}, resources);
  const { base, child } = serve;
  try {
    const startMs = performance.now() - started;
    const paths = queries.map((query) => searchPathOf(service, query));
    const first = performance.now();
    const firstAnswer = await fetch(base + paths[0]!);
    if (firstAnswer.status !== 200)
      throw new Error(`${paths[0]!} answered ${firstAnswer.status}: ${await firstAnswer.text()}`);
    await firstAnswer.arrayBuffer();
    const firstSearchMs = performance.now() - first;
    const hits: number[] = [];
    for (const path of paths) {
      const response = await fetch(base + path);
      const body = (await response.json()) as { organic?: { hits: number } };
      if (response.status !== 200 || body.organic === undefined)
        throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body)}`);
      hits.push(body.organic.hits);
    }
    const loads: LoadFigures[] = [];
    for (const connections of [1, 16]) loads.push(await runLoad(base, paths, connections, seconds));
    const memory = processMemory(child.pid!);
    if (memory === undefined) throw new Error('kumo serve exited during the search load');
    return { startMs, firstSearchMs, hits, loads, rss: memory.rss, peakRss: memory.peakRss };
  } finally {
    await serve.stop();
  }
}

/** A `kumo serve` on `dataDir` started as a user starts it, up once its health check answers. */
export async function startKumoServe(
  dataDir: string,
  env: Record<string, string>,
  resources: RunResources,
): Promise<{ base: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = resources.track(
    spawn(process.execPath, [KUMO, 'serve'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: kumoEnv({ KUMO_DATA_DIR: dataDir, KUMO_PORT: String(port), KUMO_HOST: '127.0.0.1', ...env }),
    }),
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitUntilUp(
      base,
      () => child.exitCode !== null,
      () => stderr,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, child, stop };
}

/** Waits for the health check's first 200, failing when the process exits or takes too long. */
export async function waitUntilUp(base: string, gone: () => boolean, said: () => string): Promise<void> {
  const deadline = performance.now() + START_BOUND_MS;
  while (performance.now() < deadline) {
    if (gone()) throw new Error(`kumo serve exited before answering: ${said().trim()}`);
    try {
      const response = await fetch(base + HEALTH_PATH);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`kumo serve did not answer within ${START_BOUND_MS / 1000} s: ${said().trim()}`);
}
