/**
 * A supervisor may stop `kumo serve` the instant it prints its address: the stop must then be the
 * orderly one (docs/operations.md, Stopping and restarting), never the default action of a signal
 * that found no listener. The signal is sent from the output handler the moment the line arrives,
 * several times over, while a busy loop in another process competes for the CPU as other services
 * would.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { test } from 'node:test';
import { MAIN_JS } from '../support/cli-runner.js';
import { serveEnvironment } from '../support/serve-process.js';
import { freePort, makeTempDir } from '../support/service-harness.js';

interface Stopped {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

async function serveStoppedOnListening(dataDir: string, port: number): Promise<Stopped> {
  const child = spawn(process.execPath, [MAIN_JS, 'serve'], {
    env: serveEnvironment({ dataDir, port, env: { KUMO_LOG_LEVEL: 'silent' } }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let signalled = false;
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
    if (!signalled && output.includes('listening on')) {
      signalled = true;
      child.kill('SIGTERM');
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, output })));
}

test('SIGTERM the moment kumo serve says it listens stops it in order, every time', async () => {
  // A competitor for the CPU, so the service is descheduled at awkward moments as on a busy host.
  const busy = spawn(process.execPath, ['-e', 'const end = Date.now() + 60000; while (Date.now() < end);'], {
    stdio: 'ignore',
  });
  try {
    for (let round = 1; round <= 6; round += 1) {
      const dataDir = await makeTempDir('kumo-stop-');
      try {
        const stopped = await serveStoppedOnListening(dataDir, await freePort());
        assert.deepEqual(
          { code: stopped.code, signal: stopped.signal },
          { code: 0, signal: null },
          `round ${round}: ${stopped.output}`,
        );
        assert.match(stopped.output, /SIGTERM received, stopping/);
        assert.match(stopped.output, /kumo serve: stopped/);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    busy.kill('SIGKILL');
  }
});
