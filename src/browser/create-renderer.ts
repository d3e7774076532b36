import type { KumoConfig } from '../config/index.js';
import type { AddressPolicy } from '../net/index.js';
import { BrowserPool, type BrowserPoolEvents } from './browser-pool.js';
import type { SandboxDecision } from './chromium-launch.js';
import { configuredBrowser } from './configured-browser.js';
import { ChromiumRenderer } from './page-renderer.js';

export interface RendererHandle {
  renderer: ChromiumRenderer;
  pool: BrowserPool;
  /** Whether pages render inside Chromium's sandbox, and why; the service logs it at start. */
  sandbox: SandboxDecision;
}

/**
 * A renderer in this thread, as configured (KUMO_CHROMIUM_PATH, KUMO_BROWSER_*), for the rendering
 * bench. Runs render from their run threads through the process's shared browser instead
 * (worker/run-browser.ts). Starts nothing yet.
 */
export function createRenderer(
  config: KumoConfig,
  addresses: AddressPolicy,
  events: BrowserPoolEvents = {},
): RendererHandle {
  const { options, sandbox } = configuredBrowser(config);
  const pool = new BrowserPool(options, events);
  const renderer = new ChromiumRenderer(pool, addresses, {
    idleWaitMs: config.browserIdleWaitSeconds * 1000,
    pageTimeoutMs: config.browserPageTimeoutSeconds * 1000,
  });
  return { renderer, pool, sandbox };
}
