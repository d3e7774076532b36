/**
 * Groonga's own HTTP server (`groonga -s --protocol http`) over the loaded database, in the
 * foreground as a child of the benchmark so that its process is the one measured and stopped.
 * It runs with its defaults (2 worker threads) except its query cache, which is off: Kumo has
 * no answer cache, and the benchmark repeats a fixed set of queries.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { freePort } from './free-port.js';
import { type RunResources, stopChild } from './run-resources.js';

const START_BOUND_MS = 15_000;
const POLL_MS = 50;

export interface GroongaServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startGroongaServer(
  database: string,
  logFolder: string,
  resources: RunResources,
): Promise<GroongaServer> {
  const port = await freePort();
  const child: ChildProcess = resources.track(
    spawn(
      'groonga',
      [
        '-s',
        '--protocol',
        'http',
        '--bind-address',
        '127.0.0.1',
        '--port',
        String(port),
        '--cache-limit',
        '0',
        '--log-path',
        path.join(logFolder, 'groonga.log'),
        database,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    ),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(url, child);
  return {
    url,
    pid: child.pid!,
    async stop() {
      // A shutdown request ends the server cleanly; a signal is the fallback.
      const exited = child.exitCode === null ? once(child, 'exit') : Promise.resolve();
      await fetch(`${url}/d/shutdown`).catch(() => undefined);
      const timer = setTimeout(() => void stopChild(child), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  const deadline = performance.now() + START_BOUND_MS;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `the groonga server exited (${String(child.exitCode ?? child.signalCode)}) before answering`,
      );
    try {
      const response = await fetch(`${url}/d/status`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`the groonga server did not answer ${url}/d/status within ${START_BOUND_MS / 1000} s`);
}
