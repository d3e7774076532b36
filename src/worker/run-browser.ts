import { type BrowserPoolEvents, configuredBrowser, type SandboxDecision } from '../browser/index.js';
import type { KumoConfig } from '../config/index.js';
import { BrowserHost } from './browser-host.js';
import type { RunBrowserSettings } from './run-thread-protocol.js';

/** The Chromium a process's run threads share, and what each run renders with. */
export interface RunBrowser {
  host: BrowserHost;
  settings: RunBrowserSettings;
  /** Whether the browser renders inside its sandbox, and why not when it does not. */
  sandbox: SandboxDecision;
}

/**
 * The run threads' browser as configured (KUMO_CHROMIUM_PATH, KUMO_BROWSER_*): the service's
 * worker and `kumo crawl` render the same way. Nothing starts until a run first renders a page.
 */
export function configuredRunBrowser(config: KumoConfig, events: BrowserPoolEvents = {}): RunBrowser {
  const { options, sandbox } = configuredBrowser(config);
  return {
    host: new BrowserHost(options, events),
    settings: {
      executablePath: config.chromiumPath,
      idleWaitMs: config.browserIdleWaitSeconds * 1000,
      pageTimeoutMs: config.browserPageTimeoutSeconds * 1000,
    },
    sandbox,
  };
}
