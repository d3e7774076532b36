/**
 * One engine's HTTP server measured the same way as the other: its memory at idle, every query
 * asked once (which checks the answers and warms the server), an unmeasured load, then the
 * measured loads in turn, and its memory after them.
 */
import { runFreshConnectionLoad } from './fresh-connection-load.js';
import { type LoadFigures, runLoad } from './http-load.js';
import { processCpuMs } from './process-cpu.js';
import { type ProcessMemory, processMemory } from './process-memory.js';

/** The idle reading waits this long after the start, so start-up work still running is done. */
const IDLE_SETTLE_MS = 1_000;

export interface Served {
  url: string;
  pid: number;
}

/**
 * `kept-alive`: autocannon, each connection kept open for its requests; `fresh`: a new
 * connection per request (fresh-connection-load.ts), the only way Groonga's server answers.
 */
export type LoadClient = 'kept-alive' | 'fresh';

export interface LoadPlan {
  client: LoadClient;
  connections: number;
}

export interface ServedFigures {
  idle: ProcessMemory;
  /** After the measured loads; its peakRss covers the whole life of the process. */
  afterLoad: ProcessMemory;
  /** In the order of the plans. */
  loads: LoadFigures[];
  /** Milliseconds of the first answer (an index opened, caches filled). */
  firstAnswerMs: number;
  /** Queries answered with no match. */
  emptyAnswers: number;
}

export interface ServedOptions {
  seconds: number;
  warmupSeconds: number;
}

/**
 * `hitsOf` reads the number of matches from an answer's JSON, or says why the answer is wrong;
 * a wrong answer stops the measurement, since the load would measure errors. The warm-up load
 * uses the first plan.
 */
export async function measureServed(
  name: string,
  server: Served,
  paths: readonly string[],
  hitsOf: (answer: unknown) => number | Error,
  plans: readonly LoadPlan[],
  options: ServedOptions,
): Promise<ServedFigures> {
  await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
  const idle = readMemory(name, server.pid);
  process.stderr.write(`${name}: asking each of the ${paths.length} queries once\n`);
  let firstAnswerMs = 0;
  let emptyAnswers = 0;
  for (const [at, path] of paths.entries()) {
    const started = performance.now();
    const response = await fetch(server.url + path);
    const answer = (await response.json()) as unknown;
    if (at === 0) firstAnswerMs = performance.now() - started;
    const hits = response.status === 200 ? hitsOf(answer) : new Error(`status ${response.status}`);
    if (hits instanceof Error) throw new Error(`${name}: ${path} answered wrongly: ${hits.message}`);
    if (hits === 0) emptyAnswers += 1;
  }
  const load = (plan: LoadPlan, seconds: number) =>
    plan.client === 'fresh'
      ? runFreshConnectionLoad(server.url, paths, plan.connections, seconds)
      : runLoad(server.url, paths, plan.connections, seconds);
  if (options.warmupSeconds > 0 && plans[0] !== undefined) {
    process.stderr.write(`${name}: ${options.warmupSeconds} s of unmeasured load\n`);
    await load(plans[0], options.warmupSeconds);
  }
  const loads: LoadFigures[] = [];
  for (const plan of plans) {
    process.stderr.write(
      `${name}: ${options.seconds} s at ${plan.connections} connection${plan.connections === 1 ? '' : 's'} (${plan.client})\n`,
    );
    const cpuBefore = processCpuMs(server.pid);
    const figures = await load(plan, options.seconds);
    const cpuAfter = processCpuMs(server.pid);
    const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
    loads.push(
      cpuMs === undefined ? figures : { ...figures, serverCpuMsPerRequest: cpuMs / figures.requests },
    );
  }
  const afterLoad = readMemory(name, server.pid);
  return { idle, afterLoad, loads, firstAnswerMs, emptyAnswers };
}

function readMemory(name: string, pid: number): ProcessMemory {
  const memory = processMemory(pid);
  if (memory === undefined) throw new Error(`${name}: the server process ${pid} is gone`);
  return memory;
}
