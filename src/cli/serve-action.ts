import path from 'node:path';
import { type KumoConfig, rolesText, takesEveryRole } from '../config/index.js';
import { type RunningKumo, startKumo } from '../startup/service.js';
import { StartupError } from '../startup/index.js';
import { StopSignals } from './stop-signals.js';

/** `kumo serve`: runs the configured roles (every API group by default) until SIGINT / SIGTERM. */
export async function serveCommand(config: KumoConfig): Promise<number> {
  let service: RunningKumo;
  try {
    service = await startKumo(config);
  } catch (error) {
    // A setting to change (port in use, data directory taken): one line, no stack trace.
    if (!(error instanceof StartupError)) throw error;
    process.stderr.write(`kumo: ${error.message}\n`);
    return 1;
  }
  // Listening before saying so: a supervisor may stop the service the moment the line appears, and
  // a signal with no listener yet would end the process without the stop.
  const signals = new StopSignals();
  // One write: a reader of the output (a supervisor, a log shipper) that acts on the first line
  // finds the rest of the banner with it, not in a later read.
  process.stdout.write(startBanner(config, service));
  const signal = await signals.first;
  process.stdout.write(`kumo serve: ${signal} received, stopping: ${howItStops(config)}\n`);
  return stopService(service, signals);
}

/** What `kumo serve` prints once it listens: where it listens, its addresses, what it created. */
function startBanner(config: KumoConfig, service: RunningKumo): string {
  const lines = [`kumo serve: listening on ${service.url} ${whatItRuns(config)}`];
  if (config.roles.includes('api')) {
    // The first thing a new operator opens (docs/operations.md, First start).
    lines.push(
      `Console: ${config.publicUrl}/console/`,
      `API docs: ${config.publicUrl}/docs`,
      siteSearchLine(config),
    );
  }
  const browser = service.browserStatus();
  if (browser !== undefined)
    lines.push(
      browser.available
        ? `browser rendering: available (${browser.version})`
        : `browser rendering: unavailable, runs with a screenshot or wait_type 2 fail (${browser.reason})`,
    );
  if (service.createdDemoKey !== undefined || service.pinnedDemoKeyIssued) {
    // A key the operator chose (KUMO_BOOTSTRAP_API_KEY) is never echoed: output is often kept in
    // logs that more people read than the environment (docs/operations.md, First start).
    const keyLine =
      service.createdDemoKey === undefined
        ? 'API key: the one set in KUMO_BOOTSTRAP_API_KEY'
        : `API key (shown once, keep it): ${service.createdDemoKey}`;
    lines.push(
      '',
      'Demo tenant created: contract 1, service group 1, search service 1.',
      keyLine,
      `Site search (fill it with: kumo index --service 1 <crawl folder>): ${demoSearchAddress(config)}`,
      '',
    );
  }
  if (service.createdAdminToken !== undefined) {
    // Without the api role the token guards /metrics alone.
    const example = config.roles.includes('api') ? '/admin/v1/contracts' : '/metrics';
    lines.push(
      `Management API token (shown once; kept in the data directory as admin-token): ${service.createdAdminToken}`,
      `  curl -H "Authorization: Bearer <token>" ${config.publicUrl}${example}`,
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Where site search is reached, which the console's snippet and Try it use; an API process that
 * does not serve it and was not told where it is says so, rather than name an address answering
 * 404 (docs/operations.md, Roles).
 */
function siteSearchLine(config: KumoConfig): string {
  if (config.searchPublicUrl !== undefined)
    return `Site search, widget and hosted search pages: ${config.searchPublicUrl}`;
  return (
    'Site search: not served by this process, and KUMO_SEARCH_PUBLIC_URL is unset: ' +
    "the console's snippet and Try it need it (the address of the search nodes or of the load balancer)"
  );
}

/** The demo search service's search address, or where to look for it. */
function demoSearchAddress(config: KumoConfig): string {
  if (config.searchPublicUrl === undefined)
    return 'on the search nodes, at KUMO_SEARCH_PUBLIC_URL (unset here)';
  return `${config.searchPublicUrl}${config.finderBasePath}/documents/1/1/1/search?q=...`;
}

/** The rest of the line saying the service listens: its roles and its data directory. */
function whatItRuns(config: KumoConfig): string {
  const dataDir = path.resolve(config.dataDir);
  if (takesEveryRole(config.roles)) return `(data in ${dataDir})`;
  if (config.roles.length === 1 && config.roles[0] === 'search')
    return `as a search node (site search from the published indexes, cache in ${dataDir})`;
  return `with the roles ${rolesText(config.roles)} of a cluster (data in ${dataDir})`;
}

/** What the stop does, said when it begins. */
function howItStops(config: KumoConfig): string {
  if (!config.roles.includes('worker')) return 'requests answer 503';
  const resumed = takesEveryRole(config.roles) ? 'resume at next start' : 'go back to the other workers';
  return `requests answer 503, running crawls drain (at most ${SHUTDOWN_BOUND_SECONDS} s) and ${resumed}`;
}

/** The stop is bounded: the pool drains 10 s, then aborted pages unwind a few seconds more. */
const SHUTDOWN_BOUND_SECONDS = 30;
/** After the stop, how long a handle left open (a stray socket or timer) may keep the process. */
const EXIT_GRACE_MS = 5000;

/**
 * Closes the service. A second signal, or a stop taking longer than SHUTDOWN_BOUND_SECONDS, ends
 * the process at once: running crawls are then in the state a crash leaves them in, and resume
 * at the next start as well.
 */
async function stopService(service: { close(): Promise<void> }, signals: StopSignals): Promise<number> {
  const forced = new Promise<number>((resolve) => {
    const now = (signal: string) => {
      process.stderr.write(`kumo serve: ${signal} received again, exiting without waiting for the drain\n`);
      resolve(1);
    };
    signals.onAgain(now);
    setTimeout(() => {
      process.stderr.write(`kumo serve: the stop took longer than ${SHUTDOWN_BOUND_SECONDS} s, exiting\n`);
      resolve(1);
    }, SHUTDOWN_BOUND_SECONDS * 1000).unref();
  });
  const closed = service.close().then(
    () => 0,
    (error: unknown) => {
      process.stderr.write(`kumo serve: the stop failed: ${(error as Error).stack ?? String(error)}\n`);
      return 1;
    },
  );
  const code = await Promise.race([closed, forced]);
  if (code === 0) process.stdout.write('kumo serve: stopped\n');
  // Nothing should be left running; if something is, it may not hold the process (or its restart).
  setTimeout(() => process.exit(code), code === 0 ? EXIT_GRACE_MS : 0).unref();
  return code;
}
