/**
 * Runs `kumo serve` as a child process, as an operator does: for the tests of signals, crashes,
 * restarts on the same data directory and of what the process prints. The instant crawl API of the
 * demo tenant is reachable over HTTP through the returned handle.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { MAIN_JS } from './cli-runner.js';
import { crawlerPathOf, DEMO_TENANT, pollUntil, type RunView, TEST_API_KEY } from './service-harness.js';

/** How the process exited. */
export interface ServeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServeProcessOptions {
  /** Data directory (a restart test passes the same one again). */
  dataDir: string;
  /** Port to listen on, on 127.0.0.1. */
  port: number;
  /**
   * Further variables, over the defaults: the bootstrap key TEST_API_KEY, private networks
   * allowed, a 5 s fetch timeout. The KUMO_* variables of the test's own environment are dropped.
   */
  env?: NodeJS.ProcessEnv;
  /** A test's cleanup list: a SIGKILL of the process (if it still runs) is pushed onto it. */
  cleanups?: (() => Promise<unknown>)[];
}

export interface ServeProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  child: ChildProcess;
  exited: Promise<ServeExit>;
  /** Everything printed so far, stdout and stderr together. */
  output(): string;
  /** Sends `signal` unless the process has exited; resolves once it has. */
  stop(signal?: NodeJS.Signals): Promise<ServeExit>;
  /** `stop('SIGKILL')` */
  kill(): Promise<ServeExit>;
  /** Requests an instant crawl for the demo tenant; returns the request id. */
  requestCrawl(setting: Record<string, unknown>): Promise<number>;
  /** The demo tenant's status record of the run, undefined once it is not pending or running. */
  statusOf(requestId: number): Promise<RunView | undefined>;
  /** Polls the histories every 100 ms until the run has finished; returns its history record. */
  waitForFinished(requestId: number, timeoutMs?: number): Promise<RunView>;
}

const LISTEN_TIMEOUT_MS = 30_000;

/** Starts `kumo serve` and waits until it says it listens (killing it if it does not). */
export async function startServeProcess(options: ServeProcessOptions): Promise<ServeProcess> {
  const serve = spawnServe(options);
  options.cleanups?.push(serve.kill);
  let exit: ServeExit | undefined;
  void serve.exited.then((result) => (exit = result));
  try {
    // A cluster test starts several processes at once beside the other test files on two
    // cores: a start there has taken over 10 s.
    await pollUntil(
      'kumo serve to listen',
      () => {
        if (exit) throw new Error(`kumo serve exited (${exit.code ?? exit.signal}): ${serve.output()}`);
        return serve.output().includes('listening on') ? true : undefined;
      },
      LISTEN_TIMEOUT_MS,
    );
  } catch (error) {
    await serve.kill();
    throw error;
  }
  return serve;
}

/** The environment of a test's `kumo serve`: this process's, without its KUMO_ settings, plus the test's. */
export function serveEnvironment({ dataDir, port, env = {} }: ServeProcessOptions): NodeJS.ProcessEnv {
  const inherited: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('KUMO_')) inherited[name] = value;
  return {
    ...inherited,
    KUMO_DATA_DIR: dataDir,
    KUMO_HOST: '127.0.0.1',
    KUMO_PORT: String(port),
    KUMO_BOOTSTRAP_API_KEY: TEST_API_KEY,
    KUMO_ALLOW_PRIVATE_NETWORKS: 'true',
    KUMO_FETCH_TIMEOUT_SECONDS: '5',
    ...env,
  };
}

function spawnServe(options: ServeProcessOptions): ServeProcess {
  const { port, env = {} } = options;
  const child = spawn(process.execPath, [MAIN_JS, 'serve'], {
    env: serveEnvironment(options),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<ServeExit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<ServeExit> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };

  const url = `http://127.0.0.1:${port}`;
  const crawler = `${url}${crawlerPathOf(DEMO_TENANT)}`;
  const apiKey = env.KUMO_BOOTSTRAP_API_KEY ?? TEST_API_KEY;
  const getJson = async (pathAndQuery: string): Promise<unknown> =>
    (await fetch(`${crawler}${pathAndQuery}`, { headers: { 'x-mf-apikey': apiKey } })).json();

  return {
    url,
    child,
    exited,
    output: () => output,
    stop,
    kill: () => stop('SIGKILL'),
    async requestCrawl(setting) {
      const response = await fetch(`${crawler}/request`, {
        method: 'POST',
        headers: { 'x-mf-apikey': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ setting }),
      });
      assert.equal(response.status, 200, await response.clone().text());
      return ((await response.json()) as { instant_crawl_request_id: number }).instant_crawl_request_id;
    },
    async statusOf(requestId) {
      const body = (await getJson(`/statuses?instant_crawl_request_ids=${requestId}`)) as {
        crawl_status: RunView | Record<string, never>;
      };
      return 'instant_crawl_request_id' in body.crawl_status ? (body.crawl_status as RunView) : undefined;
    },
    waitForFinished(requestId, timeoutMs = 15_000) {
      return pollUntil(
        `request ${requestId} to finish`,
        async () => {
          const body = (await getJson(`/histories?instant_crawl_request_id=${requestId}`)) as {
            crawl_histories: RunView[];
          };
          return body.crawl_histories[0];
        },
        timeoutMs,
        100,
      );
    },
  };
}
