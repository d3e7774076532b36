import { type FieldError, InvalidInputError } from '../../domain/index.js';
import type { SearchServiceConfig } from '../../domain/schemas.js';
import { TenantWorkPool } from '../../util/index.js';
import type { FacetPreview } from './facet-preview.js';
import type {
  TenantJobInput,
  TenantJobName,
  TenantJobOutput,
  TenantJobReply,
  TenantJobRequest,
} from './tenant-jobs.js';
import type { UrlVerdict } from './url-verdicts.js';

const WORKER_URL = new URL('./tenant-work-worker.js', import.meta.url);

/**
 * Longest one tenant job may run. Checking 200 patterns of the longest size takes under half a
 * second, a preview of PREVIEW_DOCUMENTS ordinary URLs about as long; patterns written to defeat
 * RE2's automaton take about 80 ms per pattern on an 8 KB URL (docs/design/url-patterns.md, URL
 * patterns), and are stopped here.
 */
export const TENANT_JOB_LIMIT_MS = 10_000;
/** Threads: a contract's jobs run one at a time, so another contract's job starts at once. */
const TENANT_THREADS = 2;
/** Jobs of one contract that may wait for its turn: more are refused (503) rather than queued. */
export const TENANT_JOBS_WAITING = 8;

/**
 * The tenant work threads are taken: the contract has TENANT_JOBS_WAITING jobs waiting already,
 * or the threads are closing. The API answers 503 with Retry-After.
 */
export class TenantWorkBusyError extends Error {
  override name = 'TenantWorkBusyError';

  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export interface TenantWorkOptions {
  threads?: number;
  jobLimitMs?: number;
  waitingPerContract?: number;
}

/**
 * The work of API requests whose cost a tenant's input controls, run in a TenantWorkPool: one job
 * of a contract at a time, contracts taking turns, each job within TENANT_JOB_LIMIT_MS
 * (docs/security.md, Tenant work off the API thread). A job over its limit fails as the input's
 * fault (InvalidInputError naming the field); a contract with too many jobs waiting gets
 * TenantWorkBusyError.
 */
export class TenantWork {
  private readonly pool: TenantWorkPool<TenantJobRequest, TenantJobReply>;

  constructor(options: TenantWorkOptions = {}) {
    this.pool = new TenantWorkPool({
      worker: WORKER_URL,
      name: 'tenant work',
      threads: options.threads ?? TENANT_THREADS,
      jobLimitMs: options.jobLimitMs ?? TENANT_JOB_LIMIT_MS,
      queuePerOwner: options.waitingPerContract ?? TENANT_JOBS_WAITING,
    });
  }

  /**
   * Every field error of a crawl setting as a tenant sent it (fields named from `prefix`): its
   * schema, then the rules the schema cannot express (validateCrawlSetting). The one check of a
   * crawl setting, whoever sends it: the instant crawl API through InstantCrawlService, the console
   * and `kumo admin` through the management operations.
   */
  async crawlSettingErrors(contractId: number, setting: unknown, prefix: string): Promise<FieldError[]> {
    const overLimit = {
      field: prefix,
      reason: `checking the patterns took over ${this.limitText}`,
    };
    const checked = await this.run(contractId, 'crawlSetting', { setting, prefix, testUrls: [] }, overLimit);
    return checked.errors;
  }

  /**
   * A crawl setting's field errors and, with none, what its scope says of each test URL (the
   * pattern tester); `testUrlField` is the field the test URLs came in.
   */
  async crawlSettingVerdicts(
    contractId: number,
    setting: unknown,
    testUrls: readonly string[],
    testUrlField: string,
  ): Promise<{ errors: FieldError[]; verdicts: UrlVerdict[] }> {
    const overLimit = {
      field: testUrlField,
      reason: `matching the patterns against the test URLs took over ${this.limitText}`,
    };
    return this.run(contractId, 'crawlSetting', { setting, prefix: 'setting', testUrls }, overLimit);
  }

  /** The field errors of a search service configuration (fields named from `prefix`, as "config."). */
  async searchConfigErrors(
    contractId: number,
    config: SearchServiceConfig,
    prefix: string,
  ): Promise<FieldError[]> {
    const overLimit = {
      field: fieldOfPrefix(prefix),
      reason: `checking the patterns took over ${this.limitText}`,
    };
    return this.run(contractId, 'searchConfig', { config, prefix }, overLimit);
  }

  /** A configuration's field errors, or with none what its rules make of `urls` (a facet preview). */
  async facetPreview(
    contractId: number,
    config: SearchServiceConfig,
    prefix: string,
    urls: readonly string[],
    total: number,
  ): Promise<{ errors: FieldError[]; preview: FacetPreview | undefined }> {
    const overLimit = {
      field: fieldOfPrefix(prefix),
      reason: `matching the category and drill-down rules against the indexed pages took over ${this.limitText}`,
    };
    return this.run(contractId, 'facetPreview', { config, prefix, urls, total }, overLimit);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private get limitText(): string {
    return `${this.pool.limitText}, the limit of one check (write fewer or simpler patterns)`;
  }

  private async run<Name extends TenantJobName>(
    contractId: number,
    job: Name,
    input: TenantJobInput<Name>,
    overLimit: FieldError,
  ): Promise<TenantJobOutput<Name>> {
    const reply = await this.pool.run(String(contractId), { job, input });
    if (reply.ok) return reply.output as TenantJobOutput<Name>;
    if (reply.failure === 'over_limit') throw new InvalidInputError([overLimit]);
    throw new TenantWorkBusyError(`${reply.reason}; retry later`, Math.ceil(this.pool.jobLimitMs / 1000));
  }
}

/** "config." names the field "config". */
function fieldOfPrefix(prefix: string): string {
  return prefix.replace(/\.$/, '') || 'body';
}
