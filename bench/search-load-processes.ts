/**
 * The processes of load:search and the API calls it makes besides the load: a real `kumo serve`
 * (node dist/src/cli/main.js serve) on 127.0.0.1, and the slow fixture site (search-load-site.ts)
 * it crawls. Both are children of the load process, and both are stopped by it.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Agent, fetch } from 'undici';
import type { SearchServiceConfig } from '../src/domain/schemas.js';
import { kilobyteField, readProcFile } from './process-tree-rss.js';
import type { LoadSiteOptions } from './search-load-site.js';

/** The demo tenant `kumo serve` creates at first start: contract 1, service group 1, search service 1. */
const TENANT_PATH = '/contracts/1/servicegroups/1';
const CRAWLER_PATH = `/api/v1${TENANT_PATH}/crawler`;
/** How long `kumo serve` may take to stop before it is killed (its own bound is 30 s). */
const STOP_BOUND_MS = 40_000;

export interface LoadSite {
  baseUrl: string;
  close(): Promise<void>;
}

/** Starts the fixture site in a child process and waits for its port. */
export async function startLoadSite(options: LoadSiteOptions): Promise<LoadSite> {
  const child = fork(new URL('./search-load-site.js', import.meta.url), [JSON.stringify(options)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const [message] = (await Promise.race([
    once(child, 'message'),
    exited.then(([code]) => {
      throw new Error(`the fixture site exited (${String(code)}) before listening`);
    }),
  ])) as [{ port: number }];
  return {
    baseUrl: `http://127.0.0.1:${message.port}`,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill();
      await exited;
    },
  };
}

/** A port that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** A crawl as the status (while active) or history (once finished) API reports it. */
export interface CrawlProgress {
  state: string;
  active: boolean;
  crawled: number;
  /** URLs known so far, crawled or queued. */
  total: number;
}

export interface KumoServe {
  url: string;
  pid: number;
  /** GET of a path without credentials (the search API): the status and the body parsed as JSON. */
  get(path: string): Promise<{ status: number; body: unknown }>;
  /** Replaces the configuration of search service 1 through the management API. */
  configureSearchService(config: SearchServiceConfig): Promise<void>;
  /** Requests an instant crawl for the demo tenant; returns its request id. */
  requestCrawl(setting: Record<string, unknown>): Promise<number>;
  crawlProgress(requestId: number): Promise<CrawlProgress>;
  cancelCrawl(requestId: number): Promise<void>;
  /** A call of the management API with the operator's token; the answer's JSON (throws unless 200). */
  admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  /** The Prometheus metrics of the server, as text (read with the management token). */
  metricsText(): Promise<string>;
  /** Resident set size of the server process in bytes, undefined once it is gone (Linux only). */
  rss(): number | undefined;
  /** SIGTERM, then SIGKILL if it has not exited within STOP_BOUND_MS. */
  stop(): Promise<void>;
}

/**
 * Starts `kumo serve` on a free loopback port over `dataDir` (search service 1 may already hold
 * an index there) and waits until it says it is listening. Inherited KUMO_* variables are left
 * out, so only this configuration applies. Its logs after the start go to stderr, prefixed.
 */
export async function startKumoServe(
  dataDir: string,
  /** `env`: further variables (a database, object storage), over the defaults below. */
  options: { browser?: boolean; env?: Record<string, string> } = {},
): Promise<KumoServe> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const apiKey = `kumo_load_${randomBytes(16).toString('hex')}`;
  const adminToken = `kumo_load_admin_${randomBytes(16).toString('hex')}`;
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('KUMO_')));
  const child: ChildProcess = spawn(
    process.execPath,
    [fileURLToPath(new URL('../src/cli/main.js', import.meta.url)), 'serve'],
    {
      env: {
        ...env,
        KUMO_DATA_DIR: dataDir,
        KUMO_HOST: '127.0.0.1',
        KUMO_PORT: String(port),
        KUMO_BOOTSTRAP_API_KEY: apiKey,
        KUMO_ADMIN_TOKEN: adminToken,
        KUMO_ALLOW_PRIVATE_NETWORKS: 'true',
        KUMO_LOG_LEVEL: 'warn',
        // No browser unless asked for: neither the search API nor a plain crawl renders, and probing
        // one costs a start.
        ...(options.browser ? {} : { KUMO_CHROMIUM_PATH: '/nonexistent/chromium' }),
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = once(child, 'exit');
  let ready = false;
  const startupOutput: string[] = [];
  let listening: () => void = () => undefined;
  const listened = new Promise<void>((resolve) => (listening = resolve));
  const follow = (stream: NodeJS.ReadableStream, forward: (line: string) => boolean) => {
    createInterface({ input: stream }).on('line', (line) => {
      if (!ready) {
        startupOutput.push(line);
        if (line.startsWith('kumo serve: listening on')) listening();
      } else if (forward(line)) process.stderr.write(`  [kumo serve] ${line}\n`);
    });
  };
  // After the start: logs (JSON lines) and the stop messages, not the banner with the demo key.
  follow(child.stdout!, (line) => line.startsWith('{') || line.startsWith('kumo serve:'));
  follow(child.stderr!, () => true);
  // Its own pool, closed before the stop: a kept-alive connection would hold the server's close.
  const agent = new Agent();
  const stop = async () => {
    await agent.close();
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_BOUND_MS);
    await exited;
    clearTimeout(timer);
  };

  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const response = await fetch(url + path, {
      method,
      dispatcher: agent,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const tenantCall = (method: string, path: string, body?: unknown) =>
    call(method, CRAWLER_PATH + path, { 'x-mf-apikey': apiKey }, body);

  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    listened.then(() => 'listening' as const),
    exited.then(([code]) => `exited (${String(code)})`),
    new Promise<string>(
      (resolve) => (timer = setTimeout(() => resolve('did not listen within 60 s'), 60_000)),
    ),
  ]);
  clearTimeout(timer);
  if (outcome !== 'listening') {
    await stop();
    throw new Error(`kumo serve ${outcome}:\n${startupOutput.join('\n')}`);
  }
  ready = true;

  return {
    url,
    pid: child.pid!,
    async get(path) {
      const response = await fetch(url + path, { dispatcher: agent });
      return { status: response.status, body: await response.json() };
    },
    async configureSearchService(config) {
      await call(
        'PUT',
        `/admin/v1${TENANT_PATH}/search_services/1`,
        { authorization: `Bearer ${adminToken}` },
        {
          config,
        },
      );
    },
    admin: (method, path, body) =>
      call(method, `/admin/v1${path}`, { authorization: `Bearer ${adminToken}` }, body),
    async metricsText() {
      const response = await fetch(`${url}/metrics`, {
        dispatcher: agent,
        headers: { authorization: `Bearer ${adminToken}` },
      });
      if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
      return response.text();
    },
    async requestCrawl(setting) {
      const answer = await tenantCall('POST', '/request', { setting });
      return answer.instant_crawl_request_id as number;
    },
    async crawlProgress(requestId) {
      type Run = {
        crawl_execution_status_dtype_name: string;
        crawled_url_count: number;
        total_url_count: number;
      };
      const statuses = await tenantCall('GET', `/statuses?instant_crawl_request_ids=${requestId}`);
      let run = statuses.crawl_status as Partial<Run>;
      const active = run.crawl_execution_status_dtype_name !== undefined;
      if (!active) {
        const histories = await tenantCall('GET', `/histories?instant_crawl_request_id=${requestId}`);
        const found = (histories.crawl_histories as Run[])[0];
        if (found === undefined) throw new Error(`no crawl request ${requestId}`);
        run = found;
      }
      return {
        state: run.crawl_execution_status_dtype_name!,
        active,
        crawled: run.crawled_url_count!,
        total: run.total_url_count!,
      };
    },
    async cancelCrawl(requestId) {
      await tenantCall('PUT', `/statuses/requests/${requestId}/cancel`);
    },
    rss() {
      const status = readProcFile(child.pid!, 'status');
      const rss = status === undefined ? 0 : kilobyteField(status, 'VmRSS');
      return rss > 0 ? rss : undefined;
    },
    stop,
  };
}
