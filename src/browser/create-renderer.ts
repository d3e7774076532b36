import type { KumoConfig } from '../config/config.js';
import type { AddressPolicy } from '../net/address-policy.js';
import { BrowserPool, type BrowserPoolEvents, type BrowserPoolOptions } from './browser-pool.js';
import { decideSandbox, localSandboxHost, type SandboxDecision } from './chromium-launch.js';
import { ChromiumRenderer } from './page-renderer.js';

/** A browser nobody used for this long is closed; the next rendered page starts a new one. */
const BROWSER_IDLE_CLOSE_MS = 60_000;

export interface RendererHandle {
  renderer: ChromiumRenderer;
  pool: BrowserPool;
  /** Whether pages render inside Chromium's sandbox, and why; the service logs it at start. */
  sandbox: SandboxDecision;
}

/**
 * The browser as configured (KUMO_CHROMIUM_PATH, KUMO_BROWSER_PAGES, KUMO_BROWSER_SANDBOX applied
 * to this machine), for a pool in this process or the service's shared browser alike.
 */
export function configuredBrowser(config: KumoConfig): {
  options: BrowserPoolOptions;
  sandbox: SandboxDecision;
} {
  const sandbox = decideSandbox(config.browserSandbox, localSandboxHost(config.chromiumPath));
  return {
    options: {
      executablePath: config.chromiumPath,
      sandbox: sandbox.enabled,
      pages: config.browserPages,
      idleCloseMs: BROWSER_IDLE_CLOSE_MS,
    },
    sandbox,
  };
}

/** The process's renderer as configured (KUMO_CHROMIUM_PATH, KUMO_BROWSER_*). Starts nothing yet. */
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
