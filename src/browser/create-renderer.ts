import type { KumoConfig } from '../config/config.js';
import type { AddressPolicy } from '../net/address-policy.js';
import { BrowserPool, type BrowserPoolEvents } from './browser-pool.js';
import { ChromiumRenderer } from './page-renderer.js';

/** A browser nobody used for this long is closed; the next rendered page starts a new one. */
const BROWSER_IDLE_CLOSE_MS = 60_000;

export interface RendererHandle {
  renderer: ChromiumRenderer;
  pool: BrowserPool;
}

/** The process's renderer as configured (KUMO_CHROMIUM_PATH, KUMO_BROWSER_*). Starts nothing yet. */
export function createRenderer(
  config: KumoConfig,
  addresses: AddressPolicy,
  events: BrowserPoolEvents = {},
): RendererHandle {
  const pool = new BrowserPool(
    {
      executablePath: config.chromiumPath,
      sandbox: sandboxOf(config.browserSandbox),
      pages: config.browserPages,
      idleCloseMs: BROWSER_IDLE_CLOSE_MS,
    },
    events,
  );
  const renderer = new ChromiumRenderer(pool, addresses, {
    idleWaitMs: config.browserIdleWaitSeconds * 1000,
    pageTimeoutMs: config.browserPageTimeoutSeconds * 1000,
  });
  return { renderer, pool };
}

/** auto: the sandbox, unless the process runs as root, where Chromium refuses to start with it. */
export function sandboxOf(setting: KumoConfig['browserSandbox']): boolean {
  if (setting === 'auto') return process.getuid?.() !== 0;
  return setting === 'on';
}
