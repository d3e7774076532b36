/**
 * `kumo serve` in a child process on a temporary data directory with the embedded defaults, as an
 * operator starts it: the attacks and the victim's probes reach it over real sockets only, and
 * the bench's own work does not share its event loop.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ADMIN_TOKEN = 'kumo_attack_bench_admin_token_0123456789';

export interface KumoServe {
  url: string;
  /** Everything the process printed. */
  output(): string;
  stop(): Promise<void>;
}

const MAIN_JS = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** Starts `kumo serve` and waits until it says it listens. */
export async function startKumoServe(): Promise<KumoServe> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kumo-attack-bench-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('KUMO_')) env[name] = value;
  const child: ChildProcess = spawn(process.execPath, [MAIN_JS, 'serve'], {
    env: {
      ...env,
      KUMO_DATA_DIR: dataDir,
      KUMO_HOST: '127.0.0.1',
      KUMO_PORT: String(port),
      KUMO_ADMIN_TOKEN: ADMIN_TOKEN,
      // The fixture site, the webhook receivers and the attackers are all on the loopback.
      KUMO_ALLOW_PRIVATE_NETWORKS: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    await rm(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (!output.includes('listening on')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`kumo serve did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
}
