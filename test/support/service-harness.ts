/**
 * Starts the real Kumo service (store, worker pool, HTTP server) on a temporary data directory for
 * API and end-to-end tests, with helpers for a second tenant and for waiting on runs.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { InjectOptions } from 'fastify';
import { Agent, fetch as undiciFetch } from 'undici';
import { type KumoConfig, loadConfig } from '../../src/config/index.js';
import { apiKeyPrefix, hashApiKey } from '../../src/usecases/index.js';
import { type RunningKumo, startKumo } from '../../src/startup/service.js';
import { type Clock, systemClock } from '../../src/util/index.js';
import { testDatabaseUrl } from './test-store.js';

export const TEST_API_KEY = 'kumo_test_bootstrap_key_0123456789';
export const TEST_ADMIN_TOKEN = 'kumo_test_admin_token_0123456789';

/** The demo tenant the bootstrap creates. */
export const DEMO_TENANT = { contractId: 1, servicegroupId: 1 } as const;

export interface TestTenant {
  contractId: number;
  servicegroupId: number;
  apiKey: string;
  /** `/api/v1/contracts/{c}/servicegroups/{g}/crawler` */
  crawlerPath: string;
}

/** One CrawlHistory / CrawlStatus record as the API writes it. */
export interface RunView {
  id: number;
  instant_crawl_request_id: number;
  crawl_execution_status_dtype_id: number;
  crawl_execution_status_dtype_name: string;
  is_cancel_request: boolean;
  start_datetime?: string;
  end_datetime?: string;
  crawled_url_count: number;
  total_url_count: number;
  crawl_url_list_path?: string;
  /** Why a pending run waits (status), or how a run ended (history). */
  message?: string;
}

export interface TestService {
  /** `http://127.0.0.1:<port>`: the listening address, also the public URL. */
  url: string;
  port: number;
  apiKey: string;
  dataDir: string;
  service: RunningKumo;
  /** The demo tenant (contract 1, service group 1) with the bootstrap key. */
  tenant: TestTenant;
  /** Creates a new contract + service group with its own API key, straight in the store. */
  createTenant(name?: string): Promise<TestTenant>;
  /** Adds a service group with its own API key to the contract of `tenant`, straight in the store. */
  createServiceGroup(tenant: TestTenant, name?: string): Promise<TestTenant>;
  /** `app.inject` with the JSON body parsed (undefined when the body is not JSON). */
  inject(options: InjectOptions): Promise<InjectResult>;
  /** Polls the histories until the run of `requestId` has finished; returns its history record. */
  waitForFinished(requestId: number, options?: { tenant?: TestTenant; timeoutMs?: number }): Promise<RunView>;
  /** Polls the statuses until `predicate` holds for the run; returns its status record. */
  waitForStatus(
    requestId: number,
    predicate: (status: RunView) => boolean,
    options?: { tenant?: TestTenant; timeoutMs?: number },
  ): Promise<RunView>;
  /** Requests a crawl for `tenant` (default: demo tenant); returns the request id. */
  requestCrawl(setting: Record<string, unknown>, tenant?: TestTenant): Promise<number>;
  /** Stops the service; removes the data directory unless the caller owns it. */
  close(): Promise<void>;
}

export interface InjectResult {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are inspected loosely
  json: any;
}

export interface StartTestServiceOptions {
  /** Data directory to use and keep (a restart test passes the same one twice). */
  dataDir?: string;
  /** Port to listen on (default: a free one). */
  port?: number;
  /** Further configuration overrides. */
  overrides?: Partial<KumoConfig>;
  /** The service's clock (a test moves it to reach schedule slots); default the system clock. */
  clock?: Clock;
  /** Where the service's log lines go (set `overrides.logLevel` too: the default is silent). */
  logStream?: { write(line: string): void };
  /** The folder of the browser build (default dist/web, as `kumo serve` finds it). */
  webFolder?: URL;
  /**
   * Environment variables of the start: KUMO_* settings (parsed as `kumo serve` would, before the
   * overrides) and the AWS_* variables of the object storage client.
   */
  env?: Record<string, string>;
}

/**
 * A port that was free a moment ago, for a child process to listen on. Chosen below the range the
 * system hands out to outgoing connections (Linux's ip_local_port_range): a port of that range,
 * free when checked, can be taken by a connection another test opens before the child binds it.
 */
export async function freePort(): Promise<number> {
  const floor = ephemeralFloor();
  const lowest = Math.max(1024, floor - 12_000);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = lowest + Math.floor(Math.random() * (floor - lowest));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${lowest} and ${floor}`);
}

/** The first port of the system's range for outgoing connections (32768 when it cannot be read). */
function ephemeralFloor(): number {
  try {
    const first = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    return Number.isInteger(first) && first > 2048 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function makeTempDir(prefix = 'kumo-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every `intervalMs` until it returns a value other than undefined. */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** RFC 4180 CSV text into rows of fields (the same reader the engine tests use). */
export { parseCsvText as parseCsv } from './artifact-readers.js';

/** `/instant_crawler/contracts/{c}/servicegroups/{g}/instant_crawl_requests/{id}/{file}` */
/** The value of an unlabelled counter or gauge on the service's /metrics; 0 before it is first set. */
export async function metricValue(kumo: TestService, name: string): Promise<number> {
  const response = await kumo.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });
  if (response.statusCode !== 200)
    throw new Error(`/metrics answered ${response.statusCode}: ${response.body}`);
  const line = new RegExp(`^${name} (\\S+)$`, 'm').exec(response.body);
  return line === null ? 0 : Number(line[1]);
}

export function downloadPathOf(
  tenant: { contractId: number; servicegroupId: number },
  requestId: number,
  file: string,
): string {
  return `/instant_crawler/contracts/${tenant.contractId}/servicegroups/${tenant.servicegroupId}/instant_crawl_requests/${requestId}/${file}`;
}

/**
 * Downloads an artifact over HTTP the way a client does: the keyed request answers 302 to a signed
 * URL, which is then fetched without the key. Returns the gunzipped bytes.
 *
 * Uses its own connection pool and closes it afterwards: a kept-alive connection whose response
 * ends just after the service starts to stop would hold the stop for the keep-alive time (see the
 * "stopping the service" test in downloads.test.ts).
 */
export async function downloadArtifact(
  baseUrl: string,
  apiKey: string,
  tenant: { contractId: number; servicegroupId: number },
  requestId: number,
  file: string,
): Promise<Buffer> {
  const client = new Agent();
  try {
    const first = await undiciFetch(`${baseUrl}${downloadPathOf(tenant, requestId, file)}`, {
      headers: { 'x-mf-apikey': apiKey },
      redirect: 'manual',
      dispatcher: client,
    });
    const firstBody = await first.text();
    if (first.status !== 302) throw new Error(`download answered ${first.status}: ${firstBody}`);
    const location = first.headers.get('location');
    if (location === null) throw new Error('302 without Location');
    const second = await undiciFetch(location, { dispatcher: client });
    const body = Buffer.from(await second.arrayBuffer());
    if (second.status !== 200) throw new Error(`signed download answered ${second.status}: ${body}`);
    return gunzipSync(body);
  } finally {
    await client.close();
  }
}

export function crawlerPathOf(tenant: { contractId: number; servicegroupId: number }): string {
  return `/api/v1/contracts/${tenant.contractId}/servicegroups/${tenant.servicegroupId}/crawler`;
}

export async function startTestService(options: StartTestServiceOptions = {}): Promise<TestService> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await makeTempDir());
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const databaseUrl = await testDatabaseUrl(dataDir);
  const config = loadConfig(
    // The browser the machine has, as `kumo serve` would find it.
    { KUMO_CHROMIUM_PATH: process.env.KUMO_CHROMIUM_PATH, ...options.env },
    {
      dataDir,
      host: '127.0.0.1',
      port,
      publicUrl: url,
      bootstrapApiKey: TEST_API_KEY,
      adminToken: TEST_ADMIN_TOKEN,
      allowPrivateNetworks: true,
      retryBaseDelayMs: 50,
      fetchTimeoutSeconds: 5,
      logLevel: 'silent',
      // Tests poll the API far faster than a client may: the limits are tested where asked for.
      rateLimitPerMinute: 0,
      maxActiveRunsPerTenant: 0,
      ...(databaseUrl !== undefined && { databaseUrl }),
      ...options.overrides,
    },
  );
  let service: RunningKumo;
  try {
    service = await startKumo(config, options.clock, {
      logStream: options.logStream,
      webFolder: options.webFolder,
      ...(options.env !== undefined && { env: { ...process.env, ...options.env } }),
    });
  } catch (error) {
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const tenant: TestTenant = {
    ...DEMO_TENANT,
    apiKey: TEST_API_KEY,
    crawlerPath: crawlerPathOf(DEMO_TENANT),
  };

  const inject = async (injectOptions: InjectOptions): Promise<InjectResult> => {
    const response = await service.app.inject(injectOptions);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are inspected loosely
    let json: any;
    try {
      json = JSON.parse(response.body);
    } catch {
      json = undefined;
    }
    return { statusCode: response.statusCode, headers: response.headers, body: response.body, json };
  };

  const historyOf = async (requestId: number, of: TestTenant): Promise<RunView | undefined> => {
    const response = await inject({
      method: 'GET',
      url: `${of.crawlerPath}/histories?instant_crawl_request_id=${requestId}`,
      headers: { 'x-mf-apikey': of.apiKey },
    });
    if (response.statusCode !== 200)
      throw new Error(`histories answered ${response.statusCode}: ${response.body}`);
    return (response.json.crawl_histories as RunView[])[0];
  };

  const groupWithKey = async (contractId: number, name: string): Promise<TestTenant> => {
    const now = systemClock.nowMicros();
    const group = await service.store.tenants.createServiceGroup(contractId, name, now);
    const apiKey = `kumo_test_${randomBytes(16).toString('hex')}`;
    const ref = { contractId, servicegroupId: group.id };
    await service.store.apiKeys.insert(ref, hashApiKey(apiKey), apiKeyPrefix(apiKey), 'test key', now);
    return { ...ref, apiKey, crawlerPath: crawlerPathOf(ref) };
  };

  return {
    url,
    port,
    apiKey: TEST_API_KEY,
    dataDir,
    service,
    tenant,
    inject,
    async createTenant(name = 'tenant') {
      const contract = await service.store.tenants.createContract(name, systemClock.nowMicros());
      return groupWithKey(contract.id, name);
    },
    createServiceGroup(of, name = 'group') {
      return groupWithKey(of.contractId, name);
    },
    async waitForFinished(requestId, waitOptions = {}) {
      const of = waitOptions.tenant ?? tenant;
      return pollUntil(
        `request ${requestId} to finish`,
        () => historyOf(requestId, of),
        waitOptions.timeoutMs ?? 15_000,
      );
    },
    async waitForStatus(requestId, predicate, waitOptions = {}) {
      const of = waitOptions.tenant ?? tenant;
      return pollUntil(
        `status of request ${requestId}`,
        async () => {
          const response = await inject({
            method: 'GET',
            url: `${of.crawlerPath}/statuses?instant_crawl_request_ids=${requestId}`,
            headers: { 'x-mf-apikey': of.apiKey },
          });
          const status = response.json?.crawl_status as RunView | undefined;
          if (status?.instant_crawl_request_id === undefined) {
            if (await historyOf(requestId, of))
              throw new Error(`request ${requestId} finished while waiting`);
            return undefined;
          }
          return predicate(status) ? status : undefined;
        },
        waitOptions.timeoutMs ?? 10_000,
      );
    },
    async requestCrawl(setting, of = tenant) {
      const response = await inject({
        method: 'POST',
        url: `${of.crawlerPath}/request`,
        headers: { 'x-mf-apikey': of.apiKey, 'content-type': 'application/json' },
        payload: JSON.stringify({ setting }),
      });
      if (response.statusCode !== 200)
        throw new Error(`request answered ${response.statusCode}: ${response.body}`);
      return response.json.instant_crawl_request_id as number;
    },
    async close() {
      await service.close();
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
