import { readFileSync } from 'node:fs';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { decodeSecretKey } from '../security/index.js';
import {
  BLOB_DOWNLOADS,
  type BlobDownloads,
  type BlobLocation,
  checkBlobDownloads,
  parseBlobUrl,
} from './blob-config.js';
import { ConfigError } from './config-error.js';
import { parseDatabaseUrl } from './database-config.js';
import { parseRoles, rolesText, SERVICE_ROLES, type ServiceRole, takesEveryRole } from './roles.js';

export { ConfigError } from './config-error.js';

/** Every service setting, read once at start from the environment and an optional JSON file. */
export interface KumoConfig {
  host: string;
  port: number;
  dataDir: string;
  publicUrl: string;
  botInfoUrl: string | undefined;
  timezone: string;
  bootstrapApiKey: string | undefined;
  signingSecret: string | undefined;
  artifactRetentionDays: number | undefined;
  searchLogRetentionDays: number;
  /** Search services a process keeps open at once (docs/design/search-engine.md, Many services on one node). */
  searchOpenServices: number;
  /** Seconds a search service stays open unused. */
  searchIdleSeconds: number;
  workerConcurrency: number;
  /** Run slots one contract may hold at once; 0: no cap (docs/operations.md, Settings). */
  maxRunningPerContract: number;
  hostConcurrency: number;
  runHeapMb: number;
  /** The memory indexing may hold, in MB (docs/design/search-engine.md, Memory of indexing). */
  indexMemoryMb: number;
  /** How long a worker's hold on a run lasts unrenewed, with a shared store (docs/operations.md, Settings). */
  runLeaseSeconds: number;
  /** How often a worker checkpoints a run into a shared store. */
  checkpointSeconds: number;
  allowPrivateNetworks: boolean | string[];
  instantCrawlerBasePath: string;
  crawlerBasePath: string;
  finderBasePath: string;
  fetchTimeoutSeconds: number;
  maxRedirects: number;
  maxBodyBytes: number;
  crawlBodyBudgetBytes: number;
  retryCount: number;
  retryBaseDelayMs: number;
  hostPauseMs: number;
  chromiumPath: string;
  browserSandbox: 'auto' | 'on' | 'off';
  browserPages: number;
  browserIdleWaitSeconds: number;
  browserPageTimeoutSeconds: number;
  logLevel: string;
  adminToken: string | undefined;
  webhookBackoffSeconds: number[];
  webhookTimeoutSeconds: number;
  webhookConnectTimeoutSeconds: number;
  schedulerIntervalSeconds: number;
  secretKey: string | undefined;
  rateLimitPerMinute: number;
  maxActiveRunsPerTenant: number;
  /** Object storage of run artifacts; undefined: the data directory (docs/operations.md, Object storage). */
  /** PostgreSQL for the service records; undefined: SQLite in the data directory. */
  databaseUrl: string | undefined;
  blobUrl: BlobLocation | undefined;
  /** What this process does (roles.ts). */
  roles: ServiceRole[];
  blobDownloads: BlobDownloads;
  /**
   * Where visitors reach site search, the widget and the hosted search pages; undefined: an API
   * process without the search role knows no such address (docs/operations.md, Roles).
   */
  searchPublicUrl: string | undefined;
}

type Parser<T> = (raw: string, name: string) => T;

interface SettingSpec<K extends keyof KumoConfig> {
  key: K;
  env: string;
  doc: string;
  parse: Parser<KumoConfig[K]>;
  /** The default, or a function of the settings parsed before it. */
  fallback: KumoConfig[K] | ((c: Partial<KumoConfig>) => KumoConfig[K]);
}

const text: Parser<string> = (raw) => raw;
const optionalText: Parser<string | undefined> = (raw) => (raw === '' ? undefined : raw);

function integer(min: number, max: number): Parser<number> {
  return (raw, name) => {
    if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name}: expected an integer, got "${raw}"`);
    const value = Number(raw);
    if (value < min || value > max)
      throw new ConfigError(`${name}: must be between ${min} and ${max}, got ${raw}`);
    return value;
  };
}

function oneOf<T extends string>(values: readonly T[]): Parser<T> {
  return (raw, name) => {
    const value = raw.trim().toLowerCase() as T;
    if (!values.includes(value))
      throw new ConfigError(`${name}: expected one of ${values.join(', ')}, got "${raw}"`);
    return value;
  };
}

const optionalPositiveNumber: Parser<number | undefined> = (raw, name) => {
  if (raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new ConfigError(`${name}: expected a positive number, got "${raw}"`);
  return value;
};

const timezone: Parser<string> = (raw, name) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: raw });
  } catch {
    throw new ConfigError(`${name}: unknown IANA time zone "${raw}"`);
  }
  return raw;
};

const basePath: Parser<string> = (raw, name) => {
  if (!/^(\/[A-Za-z0-9._~-]+)*$/.test(raw))
    throw new ConfigError(`${name}: expected a path like /api/v1, got "${raw}"`);
  return raw;
};

/**
 * An absolute http(s) URL as the URL parser writes it (scheme and host lower-case, a default port
 * left out), without a trailing slash: `HTTPS://Kumo.Example/` is `https://kumo.example`, so a
 * test of its scheme or origin reads it as a browser does (docs/operations.md, Console security).
 */
const url: Parser<string> = (raw, name) => {
  const parsed = httpUrlOf(raw);
  if (parsed === undefined) throw new ConfigError(`${name}: expected an absolute http(s) URL, got "${raw}"`);
  return parsed.href.replace(/\/+$/, '');
};

/** The text parsed as an absolute http(s) URL, or undefined. */
function httpUrlOf(raw: string): URL | undefined {
  try {
    const parsed = new URL(raw);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** An absolute http(s) URL kept as written (it goes into a header), or unset when empty. */
const optionalHeaderUrl: Parser<string | undefined> = (raw, name) => {
  const value = raw.trim();
  if (value === '') return undefined;
  // new URL() drops tabs and line breaks silently; in a header they are refused, so refuse them here.
  if (/[\s\u0000-\u001f\u007f]/.test(value))
    throw new ConfigError(`${name}: expected a URL without spaces or control characters, got "${raw}"`);
  url(value, name);
  return value;
};

/** `true`, `false`, or a comma-separated list of CIDR ranges that fetches may reach. */
const privateNetworks: Parser<boolean | string[]> = (raw, name) => {
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0' || value === '') return false;
  const ranges = raw.split(',').map((part) => part.trim());
  for (const range of ranges) {
    if (!ipaddr.isValidCIDR(range)) throw new ConfigError(`${name}: "${range}" is not a CIDR range`);
  }
  return ranges;
};

/** Comma-separated positive seconds (decimals allowed), e.g. the webhook retry delays. */
const secondsList: Parser<number[]> = (raw, name) => {
  const parts = raw.split(',').map((part) => part.trim());
  const values = parts.map(Number);
  if (parts.some((part) => part === '') || values.some((value) => !Number.isFinite(value) || value < 0))
    throw new ConfigError(`${name}: expected comma-separated seconds like 60,300,1800, got "${raw}"`);
  if (values.length > 20) throw new ConfigError(`${name}: at most 20 retries`);
  return values;
};

function seconds(min: number, max: number): Parser<number> {
  return (raw, name) => {
    const value = Number(raw.trim());
    if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max)
      throw new ConfigError(`${name}: expected seconds between ${min} and ${max}, got "${raw}"`);
    return value;
  };
}

const SETTINGS: readonly SettingSpec<keyof KumoConfig>[] = [
  { key: 'host', env: 'KUMO_HOST', doc: 'address to listen on', parse: text, fallback: '127.0.0.1' },
  {
    key: 'port',
    env: 'KUMO_PORT',
    doc: 'port to listen on (0 = any free port)',
    parse: integer(0, 65535),
    fallback: 8080,
  },
  {
    key: 'dataDir',
    env: 'KUMO_DATA_DIR',
    doc: 'folder holding the SQLite store and artifacts',
    parse: text,
    fallback: './data',
  },
  {
    key: 'publicUrl',
    env: 'KUMO_PUBLIC_URL',
    doc: 'externally visible base URL used in signed links',
    parse: url,
    fallback: (c) => `http://${c.host}:${c.port}`,
  },
  {
    key: 'botInfoUrl',
    env: 'KUMO_BOT_INFO_URL',
    doc: 'page about the crawler for site owners, put in the default User-Agent (unset: no URL in it)',
    parse: optionalHeaderUrl,
    fallback: undefined,
  },
  {
    key: 'timezone',
    env: 'KUMO_TIMEZONE',
    doc: 'IANA time zone of API timestamps',
    parse: timezone,
    fallback: 'UTC',
  },
  {
    key: 'bootstrapApiKey',
    env: 'KUMO_BOOTSTRAP_API_KEY',
    doc: 'pins the API key of the demo tenant',
    parse: optionalText,
    fallback: undefined,
  },
  {
    key: 'signingSecret',
    env: 'KUMO_SIGNING_SECRET',
    doc: 'HMAC secret of signed download URLs (generated into the data dir when unset)',
    parse: optionalText,
    fallback: undefined,
  },
  {
    key: 'artifactRetentionDays',
    env: 'KUMO_ARTIFACT_RETENTION_DAYS',
    doc: 'days artifacts are kept (unset = forever)',
    parse: optionalPositiveNumber,
    fallback: undefined,
  },
  {
    key: 'searchLogRetentionDays',
    env: 'KUMO_SEARCH_LOG_RETENTION_DAYS',
    doc: 'days the per-day search analytics (queries, clicks) of each search service are kept',
    parse: integer(1, 3650),
    fallback: 90,
  },
  {
    key: 'searchOpenServices',
    env: 'KUMO_SEARCH_OPEN_SERVICES',
    doc: 'search services a process keeps open at once: opening one more closes the one least recently used that is idle',
    parse: integer(1, 100000),
    fallback: 256,
  },
  {
    key: 'searchIdleSeconds',
    env: 'KUMO_SEARCH_IDLE_SECONDS',
    doc: 'seconds a search service stays open with no search, feed or management call before it is closed (reopened at its next use)',
    parse: integer(1, 604800),
    fallback: 600,
  },
  {
    key: 'workerConcurrency',
    env: 'KUMO_WORKER_CONCURRENCY',
    doc: 'crawl runs executed at once',
    parse: integer(1, 64),
    fallback: 2,
  },
  {
    key: 'maxRunningPerContract',
    env: 'KUMO_MAX_RUNNING_PER_CONTRACT',
    doc: 'run slots one contract (all its service groups) may hold at once (0 = no cap); default half of KUMO_WORKER_CONCURRENCY rounded up',
    parse: integer(0, 64),
    // A run holds its slot until it ends and is never preempted, so a contract allowed every slot
    // could keep the others waiting for hours; half leaves the other half to the rest.
    fallback: (c) => Math.ceil((c.workerConcurrency ?? 2) / 2),
  },
  {
    key: 'hostConcurrency',
    env: 'KUMO_HOST_CONCURRENCY',
    doc: 'requests to one host in progress at once, over all runs',
    parse: integer(1, 64),
    fallback: 8,
  },
  {
    key: 'runHeapMb',
    env: 'KUMO_RUN_HEAP_MB',
    doc: 'JavaScript heap of each crawl run thread in MB; a run that needs more ends 2040',
    parse: integer(32, 65536),
    fallback: 1024,
  },
  {
    key: 'indexMemoryMb',
    env: 'KUMO_INDEX_MEMORY_MB',
    doc: 'memory in MB that indexing (kumo index, scheduled runs, staged applies) may hold: batch size and analysis threads',
    parse: integer(128, 65536),
    fallback: 256,
  },
  {
    key: 'runLeaseSeconds',
    env: 'KUMO_RUN_LEASE_SECONDS',
    doc: 'with KUMO_DATABASE_URL: seconds a dead worker keeps its runs before another worker resumes them',
    parse: integer(3, 3600),
    fallback: 30,
  },
  {
    key: 'checkpointSeconds',
    env: 'KUMO_CHECKPOINT_SECONDS',
    doc: 'with KUMO_DATABASE_URL: seconds between checkpoints of a running run (what a takeover fetches again)',
    parse: integer(1, 600),
    fallback: 2,
  },
  {
    key: 'allowPrivateNetworks',
    env: 'KUMO_ALLOW_PRIVATE_NETWORKS',
    doc: 'true, false, or CIDR list of private ranges fetches may reach',
    parse: privateNetworks,
    fallback: false,
  },
  {
    key: 'instantCrawlerBasePath',
    env: 'KUMO_INSTANT_CRAWLER_BASE_PATH',
    doc: 'base path of the instant crawl API',
    parse: basePath,
    fallback: '/api/v1',
  },
  {
    key: 'crawlerBasePath',
    env: 'KUMO_CRAWLER_BASE_PATH',
    doc: 'base path of the scheduled crawler API',
    parse: basePath,
    fallback: '/api/v1.0/crawler_service',
  },
  {
    key: 'finderBasePath',
    env: 'KUMO_FINDER_BASE_PATH',
    doc: 'base path of the site search API',
    parse: basePath,
    fallback: '/api/v1.0/finder_service',
  },
  {
    key: 'fetchTimeoutSeconds',
    env: 'KUMO_FETCH_TIMEOUT_SECONDS',
    doc: 'time limit of one page fetch',
    parse: integer(1, 600),
    fallback: 30,
  },
  {
    key: 'maxRedirects',
    env: 'KUMO_MAX_REDIRECTS',
    doc: 'redirects followed per fetch',
    parse: integer(0, 50),
    fallback: 10,
  },
  {
    key: 'maxBodyBytes',
    env: 'KUMO_MAX_BODY_BYTES',
    doc: 'body size above which a fetch is cut off and marked failed',
    parse: integer(1024, 1024 * 1024 * 1024),
    fallback: 32 * 1024 * 1024,
  },
  {
    key: 'crawlBodyBudgetBytes',
    env: 'KUMO_CRAWL_BODY_BUDGET_BYTES',
    doc: 'bytes of page bodies one run holds at once, from reading to committing; a larger page is read alone',
    parse: integer(64 * 1024, 1024 * 1024 * 1024),
    // 16 fetches of 512 KB: ordinary pages never wait; large ones come a few at a time
    // (docs/design/crawl.md, Bodies in hand).
    fallback: 8 * 1024 * 1024,
  },
  {
    key: 'retryCount',
    env: 'KUMO_RETRY_COUNT',
    doc: 'retries of a retryable failure',
    parse: integer(0, 10),
    fallback: 2,
  },
  {
    key: 'retryBaseDelayMs',
    env: 'KUMO_RETRY_BASE_DELAY_MS',
    doc: 'first retry backoff; doubles each retry',
    parse: integer(0, 600_000),
    fallback: 1000,
  },
  {
    key: 'hostPauseMs',
    env: 'KUMO_HOST_PAUSE_MS',
    doc: 'first pause of a host whose pages answered 5xx five times in a row; doubles after each failed probe',
    parse: integer(0, 3_600_000),
    fallback: 30_000,
  },
  {
    key: 'chromiumPath',
    env: 'KUMO_CHROMIUM_PATH',
    doc: 'Chromium executable for screenshots and wait_type 2 (Debian package chromium)',
    parse: text,
    fallback: '/usr/bin/chromium',
  },
  {
    key: 'browserSandbox',
    env: 'KUMO_BROWSER_SANDBOX',
    doc: "Chromium's sandbox: auto (on wherever it can start: not as root, nor without user namespaces or a setuid helper), on, off",
    parse: oneOf(['auto', 'on', 'off'] as const),
    fallback: 'auto',
  },
  {
    key: 'browserPages',
    env: 'KUMO_BROWSER_PAGES',
    doc: 'browser pages rendering at once in this process',
    parse: integer(1, 32),
    fallback: 4,
  },
  {
    key: 'browserIdleWaitSeconds',
    env: 'KUMO_BROWSER_IDLE_WAIT_SECONDS',
    doc: 'longest wait for the load event and, with wait_type 2, for the network to go idle',
    parse: integer(1, 120),
    fallback: 10,
  },
  {
    key: 'browserPageTimeoutSeconds',
    env: 'KUMO_BROWSER_PAGE_TIMEOUT_SECONDS',
    doc: 'hard limit of one rendered page (navigation, idle wait and capture); over it the row fails',
    parse: integer(2, 600),
    fallback: 45,
  },
  { key: 'logLevel', env: 'KUMO_LOG_LEVEL', doc: 'pino log level', parse: text, fallback: 'info' },
  {
    key: 'adminToken',
    env: 'KUMO_ADMIN_TOKEN',
    doc: 'bearer token of the management API /admin/v1 (generated into the data dir and printed at first start when unset)',
    parse: optionalText,
    fallback: undefined,
  },
  {
    key: 'webhookBackoffSeconds',
    env: 'KUMO_WEBHOOK_BACKOFF_SECONDS',
    doc: 'delays before each webhook retry; after the last one the delivery is given up',
    parse: secondsList,
    fallback: [60, 300, 1800, 7200, 43200],
  },
  {
    key: 'webhookTimeoutSeconds',
    env: 'KUMO_WEBHOOK_TIMEOUT_SECONDS',
    doc: 'time a webhook endpoint has to answer 2xx',
    parse: seconds(0.1, 60),
    fallback: 10,
  },
  {
    key: 'webhookConnectTimeoutSeconds',
    env: 'KUMO_WEBHOOK_CONNECT_TIMEOUT_SECONDS',
    doc: 'time connecting to a webhook endpoint may take, within the time it has to answer',
    parse: seconds(0.1, 60),
    fallback: 5,
  },
  {
    key: 'schedulerIntervalSeconds',
    env: 'KUMO_SCHEDULER_INTERVAL_SECONDS',
    doc: 'how often the scheduler looks for due crawl schedules',
    parse: seconds(0.05, 60),
    fallback: 15,
  },
  {
    key: 'secretKey',
    env: 'KUMO_SECRET_KEY',
    doc: 'key encrypting webhook secrets and crawl passwords at rest: 32 bytes as 64 hex digits or base64 (generated into the data dir when unset)',
    parse: (raw, name) => {
      if (raw.trim() === '') return undefined;
      if (decodeSecretKey(raw) === undefined)
        throw new ConfigError(`${name}: expected 32 bytes as 64 hex digits or base64`);
      return raw.trim();
    },
    fallback: undefined,
  },
  {
    key: 'rateLimitPerMinute',
    env: 'KUMO_RATE_LIMIT_PER_MINUTE',
    doc: 'instant crawl API requests a minute per API key, also the burst; over it 429 with Retry-After (per process; 0 = no limit)',
    parse: integer(0, 1_000_000),
    fallback: 120,
  },
  {
    key: 'maxActiveRunsPerTenant',
    env: 'KUMO_MAX_ACTIVE_RUNS_PER_TENANT',
    doc: 'pending + running crawls (instant and scheduled) a service group may have when it requests an instant crawl; over it 429 (0 = no limit)',
    parse: integer(0, 1_000_000),
    fallback: 10,
  },
  {
    key: 'databaseUrl',
    env: 'KUMO_DATABASE_URL',
    doc: 'PostgreSQL database of the service records (tenants, keys, settings, runs, webhooks, accounts), postgres://user:password@host:port/database (unset: SQLite in the data directory)',
    parse: parseDatabaseUrl,
    fallback: undefined,
  },
  {
    key: 'blobUrl',
    env: 'KUMO_BLOB_URL',
    doc: 'S3-compatible object storage of run artifacts, s3://bucket/optional/prefix (unset: the data directory); the client reads AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY',
    parse: parseBlobUrl,
    fallback: undefined,
  },
  {
    key: 'roles',
    env: 'KUMO_ROLES',
    doc: 'what kumo serve runs: all, or roles among api, worker, scheduler, search separated by commas (a process of a cluster; needs KUMO_DATABASE_URL and KUMO_BLOB_URL)',
    parse: parseRoles,
    fallback: [...SERVICE_ROLES],
  },
  {
    key: 'blobDownloads',
    env: 'KUMO_BLOB_DOWNLOADS',
    doc: "how downloads reach clients: kumo (Kumo's signed URL streams the file) or presigned (a redirect to the object store, which clients must reach; needs KUMO_BLOB_URL)",
    parse: oneOf(BLOB_DOWNLOADS),
    fallback: 'kumo',
  },
  {
    key: 'searchPublicUrl',
    env: 'KUMO_SEARCH_PUBLIC_URL',
    doc: "external base URL of site search, the widget and the hosted search pages, given to the console's snippet and Try it (unset: KUMO_PUBLIC_URL when this process has the search role, else none)",
    parse: url,
    // After the roles: a process that serves search itself is reached for it at its own address.
    fallback: (c) => (c.roles?.includes('search') === true ? c.publicUrl : undefined),
  },
];

/** The documented settings, for `kumo config` and docs/operations.md. */
export function describeSettings(): { env: string; doc: string; fallback: string }[] {
  return SETTINGS.map((s) => ({
    env: s.env,
    doc: s.doc,
    fallback:
      typeof s.fallback === 'function'
        ? '(derived)'
        : Array.isArray(s.fallback)
          ? s.fallback.join(',')
          : String(s.fallback ?? '(unset)'),
  }));
}

/**
 * KUMO_DEBUG (stack traces with CLI errors), read on its own: it must work when loading the rest
 * of the configuration is what failed. Any value but empty, 0 or false turns it on.
 */
export function debugRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  const debug = env.KUMO_DEBUG;
  return debug !== undefined && !['', '0', 'false'].includes(debug);
}

/**
 * Builds the configuration: defaults, then the JSON file named by KUMO_CONFIG_FILE (keys are the
 * environment variable names), then the environment, which wins.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<KumoConfig> = {},
  /** Defaults of one command that differ from the service's; the environment and file still win. */
  defaults: Partial<KumoConfig> = {},
): KumoConfig {
  const fileValues = readConfigFile(env.KUMO_CONFIG_FILE);
  const config: Partial<KumoConfig> = {};
  const target = config as Record<string, unknown>;
  for (const spec of SETTINGS) {
    const raw = env[spec.env] ?? fileValues[spec.env];
    if (spec.key in overrides) {
      target[spec.key] = overrides[spec.key];
    } else if (raw !== undefined) {
      target[spec.key] = spec.parse(raw, spec.env);
    } else if (spec.key in defaults) {
      target[spec.key] = defaults[spec.key];
    } else {
      target[spec.key] = typeof spec.fallback === 'function' ? spec.fallback(config) : spec.fallback;
    }
  }
  checkRoles(config);
  checkBlobDownloads(config.blobUrl, config.blobDownloads!, {
    url: 'KUMO_BLOB_URL',
    downloads: 'KUMO_BLOB_DOWNLOADS',
  });
  return config as KumoConfig;
}

/**
 * A process that takes some roles only is one of a cluster: it shares the database and the bucket
 * with the others, and an API process shares the management token and the download signing
 * secret with every other one, since a load balancer may send the next request to any of them
 * (docs/operations.md, Roles).
 */
function checkRoles(config: Partial<KumoConfig>): void {
  const roles = config.roles!;
  if (takesEveryRole(roles)) return;
  const text = rolesText(roles);
  if (config.databaseUrl === undefined || config.blobUrl === undefined)
    throw new ConfigError(
      `KUMO_ROLES: a process of a cluster (${text}) needs KUMO_DATABASE_URL and KUMO_BLOB_URL, ` +
        'the database and the bucket every process shares',
    );
  if (!roles.includes('api')) return;
  for (const [key, env] of [
    ['adminToken', 'KUMO_ADMIN_TOKEN'],
    ['signingSecret', 'KUMO_SIGNING_SECRET'],
  ] as const)
    if (config[key] === undefined)
      throw new ConfigError(
        `${env}: an API process of a cluster (${text}) needs it set, the same on every API process ` +
          '(a generated one would differ from process to process)',
      );
}

function readConfigFile(file: string | undefined): Record<string, string> {
  if (file === undefined || file === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path.resolve(file), 'utf8'));
  } catch (error) {
    throw new ConfigError(`KUMO_CONFIG_FILE: cannot read ${file}: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError('KUMO_CONFIG_FILE: expected a JSON object of KUMO_* keys');
  }
  const known = new Set(SETTINGS.map((s) => s.env));
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!known.has(key)) throw new ConfigError(`KUMO_CONFIG_FILE: unknown setting "${key}"`);
    values[key] = String(value);
  }
  return values;
}
