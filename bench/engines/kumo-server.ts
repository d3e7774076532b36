/**
 * The Kumo service of the HTTP part (engines-serve.ts) as a child process: its address, its
 * pid for reading its memory, and its stop.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { SearchServiceConfig } from '../../src/domain/schemas.js';
import type { RunResources } from './run-resources.js';

/** `kumo serve` bounds its own stop at 30 s; past this it is killed. */
const STOP_BOUND_MS = 40_000;

export interface KumoServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startKumoServer(
  dataDir: string,
  config: SearchServiceConfig,
  resources: RunResources,
): Promise<KumoServer> {
  const script = fileURLToPath(new URL('./engines-serve.js', import.meta.url));
  const child = resources.track(
    spawn(process.execPath, [script, dataDir, JSON.stringify(config)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => String(line)),
    exited.then(([code]) => {
      throw new Error(`the Kumo service exited (${String(code)}) before listening`);
    }),
  ]);
  const { url } = JSON.parse(first) as { url: string };
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_BOUND_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
