import type { AddressPolicy } from '../net/index.js';
import type { BrowserPool } from './browser-pool.js';
import { CHROMIUM_INSTALL_HINT, probeChromium } from './chromium-launch.js';
import { ChromiumRenderSession, firstLine } from './render-session.js';
import type { PageRenderer, RenderSession, RenderTiming, SessionOptions } from './render-types.js';

/** Renders pages in the process's shared Chromium; each run gets a session of its own. */
export class ChromiumRenderer implements PageRenderer {
  constructor(
    private readonly pool: BrowserPool,
    private readonly addresses: AddressPolicy,
    private readonly timing: RenderTiming,
  ) {}

  async ensureAvailable(): Promise<void> {
    try {
      await this.pool.warmUp();
    } catch (error) {
      const probe = await probeChromium(this.pool.executablePath);
      const reason =
        probe.reason ??
        `Chromium at ${probe.executablePath} did not start (${firstLine(error)}): ${CHROMIUM_INSTALL_HINT}`;
      throw new Error(`browser rendering is not available: ${reason}`);
    }
  }

  openSession(options: SessionOptions): RenderSession {
    return new ChromiumRenderSession(this.pool, options, this.addresses, this.timing);
  }
}
