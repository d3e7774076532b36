import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Said wherever a missing browser stops something, so the reader knows the fix. */
export const CHROMIUM_INSTALL_HINT =
  "install Debian's chromium package (`sudo scripts/install-chromium.sh`, or `apt-get install chromium`) " +
  'or set KUMO_CHROMIUM_PATH to a Chromium executable';

/**
 * Flags for a headless server whose only network is the crawl target: nothing in the background
 * (component updates, sync, metrics, first-run pages) may call home, and no GPU is assumed.
 * Nothing may leave beside the request interceptor and the run's egress gate (egress-gate.ts):
 * WebRTC gets no UDP (its TCP goes through the gate like every proxied connection), QUIC is off
 * (HTTP/3 and WebTransport would not go through a proxy), and no host name is resolved ahead
 * (DNS prefetch). See docs/security.md, Rendered pages.
 * Playwright adds its own defaults, including a fresh temporary profile per launch.
 */
export const CHROMIUM_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--no-first-run',
  '--no-default-browser-check',
  '--no-pings',
  '--metrics-recording-only',
  '--disable-gpu',
  '--mute-audio',
  '--hide-scrollbars',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--disable-quic',
  '--dns-prefetch-disable',
];

export interface BrowserAvailability {
  available: boolean;
  executablePath: string;
  /** Version line the executable prints, when it ran. */
  version?: string;
  /** Why it is not available. */
  reason?: string;
}

/** Whether the configured Chromium exists and runs, without starting a browser session. */
export async function probeChromium(executablePath: string): Promise<BrowserAvailability> {
  try {
    await access(executablePath, constants.X_OK);
  } catch {
    return {
      available: false,
      executablePath,
      reason: `no Chromium executable at ${executablePath}: ${CHROMIUM_INSTALL_HINT}`,
    };
  }
  try {
    const { stdout } = await execFileAsync(executablePath, ['--version'], { timeout: 20_000 });
    return { available: true, executablePath, version: stdout.trim() };
  } catch (error) {
    return {
      available: false,
      executablePath,
      reason: `${executablePath} --version failed (${(error as Error).message.split('\n')[0]}): ${CHROMIUM_INSTALL_HINT}`,
    };
  }
}
