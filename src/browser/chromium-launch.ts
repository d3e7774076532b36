import { execFile } from 'node:child_process';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import path from 'node:path';
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

/**
 * Executables that printed their version in this process: asked once, since each service start
 * would otherwise run `chromium --version` again (tenths of a second, more on a busy machine). A
 * failed probe is not kept, so a Chromium installed later is found at the next start.
 */
const runningVersions = new Map<string, Promise<BrowserAvailability>>();

/** Whether the configured Chromium exists and runs, without starting a browser session. */
export function probeChromium(executablePath: string): Promise<BrowserAvailability> {
  const known = runningVersions.get(executablePath);
  if (known !== undefined) return known;
  const probe = probeOnce(executablePath);
  runningVersions.set(executablePath, probe);
  void probe.then((availability) => {
    if (!availability.available) runningVersions.delete(executablePath);
  });
  return probe;
}

async function probeOnce(executablePath: string): Promise<BrowserAvailability> {
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

/** Whether Chromium runs with its sandbox, and why (logged at start; docs/operations.md, Browser). */
export interface SandboxDecision {
  enabled: boolean;
  reason: string;
}

/** What decides whether Chromium's sandbox can start on this machine. */
export interface SandboxHost {
  /** The service's user id; undefined where the platform has none. */
  uid: number | undefined;
  /** Whether unprivileged user namespaces (the namespace sandbox's basis) are available. */
  userNamespaces: boolean;
  /** Whether a setuid-root chrome-sandbox helper sits beside the browser (the other basis). */
  setuidHelper: boolean;
}

/**
 * The sandbox setting (KUMO_BROWSER_SANDBOX) applied to this machine: `auto` turns the sandbox on
 * where it can start and says why not where it cannot (as root Chromium refuses it; without
 * user namespaces or a setuid helper it has nothing to build on). `on` and `off` are obeyed.
 */
export function decideSandbox(setting: 'auto' | 'on' | 'off', host: SandboxHost): SandboxDecision {
  if (setting === 'off') return { enabled: false, reason: 'KUMO_BROWSER_SANDBOX is off' };
  if (setting === 'on') return { enabled: true, reason: 'KUMO_BROWSER_SANDBOX is on' };
  if (host.uid === 0) {
    return { enabled: false, reason: 'the service runs as root, where Chromium cannot use its sandbox' };
  }
  if (!host.userNamespaces && !host.setuidHelper) {
    return {
      enabled: false,
      reason: 'unprivileged user namespaces are off and there is no setuid chrome-sandbox helper',
    };
  }
  return { enabled: true, reason: 'the sandbox can start here' };
}

/** The facts of this machine for decideSandbox (Linux /proc settings; others count as able). */
export function localSandboxHost(executablePath: string): SandboxHost {
  return {
    uid: process.getuid?.(),
    userNamespaces: userNamespacesAvailable(),
    setuidHelper: setuidHelperBeside(executablePath),
  };
}

function userNamespacesAvailable(): boolean {
  // Debian's switch, and the general limit: either at 0 turns unprivileged namespaces off.
  for (const file of ['/proc/sys/kernel/unprivileged_userns_clone', '/proc/sys/user/max_user_namespaces']) {
    if (readSetting(file) === '0') return false;
  }
  return true;
}

function setuidHelperBeside(executablePath: string): boolean {
  let folder: string;
  try {
    folder = path.dirname(realpathSync(executablePath));
  } catch {
    return false;
  }
  // Debian's /usr/bin/chromium is a wrapper script; the browser and its helper live here.
  for (const candidate of [path.join(folder, 'chrome-sandbox'), '/usr/lib/chromium/chrome-sandbox']) {
    try {
      const stats = statSync(candidate);
      if (stats.uid === 0 && (stats.mode & 0o4000) !== 0) return true;
    } catch {
      // not there
    }
  }
  return false;
}

function readSetting(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}
