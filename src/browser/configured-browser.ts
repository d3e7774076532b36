import type { KumoConfig } from '../config/index.js';
import type { BrowserPoolOptions } from './browser-pool.js';
import { decideSandbox, localSandboxHost, type SandboxDecision } from './chromium-launch.js';

/** A browser nobody used for this long is closed; the next rendered page starts a new one. */
const BROWSER_IDLE_CLOSE_MS = 60_000;

/**
 * The browser as configured (KUMO_CHROMIUM_PATH, KUMO_BROWSER_PAGES, KUMO_BROWSER_SANDBOX applied
 * to this machine), for a pool in this process or the service's shared browser alike. Apart from
 * create-renderer.ts: the service's main thread needs these options, not the renderer.
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
