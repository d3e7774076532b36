/**
 * `kumo serve` says at start when rendered pages run without Chromium's sandbox, and why
 * (docs/operations.md, Browser); nothing is said when the sandbox is used.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { startKumo } from '../../src/startup/service.js';
import { freePort, makeTempDir, TEST_ADMIN_TOKEN, TEST_API_KEY } from '../support/service-harness.js';

async function startLog(browserSandbox: 'on' | 'off'): Promise<string> {
  const dataDir = await makeTempDir('kumo-sandbox-log-');
  const port = await freePort();
  const config = loadConfig(
    {},
    {
      dataDir,
      host: '127.0.0.1',
      port,
      publicUrl: `http://127.0.0.1:${port}`,
      bootstrapApiKey: TEST_API_KEY,
      adminToken: TEST_ADMIN_TOKEN,
      chromiumPath: '/nonexistent/chromium',
      browserSandbox,
      logLevel: 'info',
    },
  );
  const lines: string[] = [];
  const service = await startKumo(config, undefined, {
    logStream: { write: (line: string) => void lines.push(line) },
  });
  try {
    return lines.join('');
  } finally {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

test('without the sandbox the start log warns with the reason; with it, it says nothing', async () => {
  assert.match(
    await startLog('off'),
    /the browser renders pages without its sandbox: KUMO_BROWSER_SANDBOX is off/,
  );
  assert.doesNotMatch(await startLog('on'), /without its sandbox/);
});
