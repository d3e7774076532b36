/**
 * The HTTP part of bench:search: the real service over the benchmark's data directory, driven by
 * autocannon at 4 connections over the query mix (each connection cycles through it). The
 * server runs in a child process by default (BENCH_HTTP_SERVER=inprocess: in this process, where
 * autocannon's client work competes with it for the event loop).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { RunningKumo } from '../src/startup/service.js';
import { type BenchQuery, searchPath } from './search-queries.js';
import { startBenchService } from './search-service.js';

export type ServerMode = 'child' | 'inprocess';

export interface HttpFigures {
  mode: ServerMode;
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  latencyMax: number;
  non2xx: number;
  errors: number;
  /** Hits of each query as the API answered in the warm-up, by query text. */
  hits: Map<BenchQuery, number>;
  /** Milliseconds of the first request (opening the index, building facets). */
  firstRequestMs: number;
}

const CONNECTIONS = 4;

interface Server {
  url: string;
  stop(): Promise<void>;
}

/** `profileDirectory`: where the child writes its CPU profile (http-server.cpuprofile), if anywhere. */
async function startChild(dataDir: string, profileDirectory: string | undefined): Promise<Server> {
  const script = fileURLToPath(new URL('./search-serve.js', import.meta.url));
  const profiling =
    profileDirectory === undefined
      ? []
      : ['--cpu-prof', `--cpu-prof-dir=${profileDirectory}`, '--cpu-prof-name=http-server.cpuprofile'];
  const child: ChildProcess = spawn(process.execPath, [...profiling, script, dataDir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => String(line)),
    exited.then(([code]) => {
      throw new Error(`the search server exited (${String(code)}) before listening`);
    }),
  ]);
  const { url } = JSON.parse(first) as { url: string };
  return {
    url,
    async stop() {
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function startInProcess(dataDir: string): Promise<Server> {
  const running: RunningKumo = await startBenchService(dataDir);
  return { url: running.url, stop: () => running.close() };
}

export async function measureHttp(
  dataDir: string,
  queries: readonly BenchQuery[],
  seconds: number,
  mode: ServerMode,
  profileDirectory?: string,
): Promise<HttpFigures> {
  const server =
    mode === 'child' ? await startChild(dataDir, profileDirectory) : await startInProcess(dataDir);
  try {
    const hits = new Map<BenchQuery, number>();
    let firstRequestMs = 0;
    for (const query of queries) {
      const started = performance.now();
      const response = await fetch(server.url + searchPath(query));
      const body = (await response.json()) as { organic?: { hits: number } };
      if (hits.size === 0) firstRequestMs = performance.now() - started;
      if (response.status !== 200 || body.organic === undefined) {
        throw new Error(`${searchPath(query)} answered ${response.status}: ${JSON.stringify(body)}`);
      }
      hits.set(query, body.organic.hits);
    }
    const result = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: seconds,
      requests: queries.map((query) => ({ method: 'GET', path: searchPath(query) })),
    });
    return {
      mode,
      connections: CONNECTIONS,
      seconds: result.duration,
      requests: result.requests.total,
      requestsPerSecond: result.requests.total / result.duration,
      latencyP50: result.latency.p50,
      latencyP99: result.latency.p99,
      latencyMax: result.latency.max,
      non2xx: result.non2xx,
      errors: result.errors,
      hits,
      firstRequestMs,
    };
  } finally {
    await server.stop();
  }
}
