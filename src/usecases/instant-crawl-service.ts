import {
  ArtifactFile,
  type ArtifactFileName,
  type FieldError,
  InvalidInputError,
  onePart,
  isActiveState,
  RunState,
} from '../domain/index.js';
import type { InstantCrawlerSetting } from '../domain/schemas.js';
import type { CrawlRunStore, HistoryQuery, RunRecord, TenantRef } from '../store/index.js';
import type { Clock } from '../util/index.js';
import type { RunDispatcher } from '../worker/index.js';
import { type RunSlots, waitingReason } from './run-waiting.js';
import type { TenantWork } from './tenant-work/tenant-work.js';

/** The message of a run cancelled while it waited (docs/api.md, Run messages). */
const CANCELLED = onePart('cancelled_before_start', {}, 'cancelled before it started');

/**
 * Cancels a pending or running run: a pending one ends 2050 at once (only if it is still pending
 * at that moment: a worker may have claimed it meanwhile), a running one is stopped by its worker.
 */
export async function cancelActiveRun(
  runs: CrawlRunStore,
  dispatcher: RunDispatcher,
  run: RunRecord,
  now: number,
): Promise<void> {
  await runs.requestCancel(run.id, now);
  if (
    run.state === RunState.pending &&
    (await runs.finishIfPending(run.id, RunState.stoppedByCancel, now, CANCELLED.text, CANCELLED.parts))
  ) {
    dispatcher.runEnded(run.id);
  } else {
    dispatcher.cancelRun(run.id);
  }
}

export const HISTORY_LIMIT = 10;

export type CancelResult =
  | { kind: 'not_found' }
  | { kind: 'already_finished'; run: RunRecord }
  | { kind: 'cancelled'; run: RunRecord };

export type DownloadLookup =
  | { kind: 'not_found'; reason: string }
  | { kind: 'gone' }
  | { kind: 'ready'; run: RunRecord; file: ArtifactFileName };

export interface InstantCrawlLimits {
  /** Pending + running runs (instant and scheduled) a tenant may have when it requests another. */
  maxActiveRunsPerTenant?: number;
  /** The run slots a pending run waits for; without them a status says nothing about waiting. */
  runSlots?: RunSlots;
}

/** The instant crawl use cases behind the HTTP routes. */
export class InstantCrawlService {
  constructor(
    private readonly runs: CrawlRunStore,
    private readonly dispatcher: RunDispatcher,
    private readonly clock: Clock,
    private readonly tenantWork: Pick<TenantWork, 'crawlSettingErrors'>,
    private readonly limits: InstantCrawlLimits = {},
  ) {}

  /** Every field error of a setting as the tenant sent it, named under `setting` (TenantWork). */
  settingErrors(tenant: TenantRef, setting: unknown): Promise<FieldError[]> {
    return this.tenantWork.crawlSettingErrors(tenant.contractId, setting, 'setting');
  }

  /**
   * Queues a run of a setting as the tenant sent it: InvalidInputError naming every bad field;
   * ActiveRunLimitError when the tenant already has the most active runs (counted and inserted in
   * one transaction, so concurrent requests cannot pass the cap).
   */
  async request(tenant: TenantRef, setting: unknown): Promise<RunRecord> {
    const errors = await this.settingErrors(tenant, setting);
    if (errors.length > 0) throw new InvalidInputError(errors);
    const run = await this.runs.createInstantRun(
      tenant,
      setting as InstantCrawlerSetting,
      this.clock.nowMicros(),
      this.limits.maxActiveRunsPerTenant,
    );
    this.dispatcher.notifyPending();
    return run;
  }

  async activeRuns(tenant: TenantRef, requestIds?: readonly number[]): Promise<RunRecord[]> {
    return this.runs.listActive(tenant, requestIds);
  }

  /**
   * Why each pending run of `runs` (all of `tenant`) still waits, by run id, counted from the
   * store now so the reason is current (docs/reference/run-states.md, Waiting).
   */
  async waitingReasons(tenant: TenantRef, runs: readonly RunRecord[]): Promise<Map<number, string>> {
    const slots = this.limits.runSlots;
    const pending = runs.filter((run) => run.state === RunState.pending);
    if (slots === undefined || pending.length === 0) return new Map();
    const reason = waitingReason(await this.runs.countRunning(tenant.contractId), slots);
    return new Map(pending.map((run) => [run.id, reason]));
  }

  async histories(tenant: TenantRef, query: Omit<HistoryQuery, 'limit'>): Promise<RunRecord[]> {
    return this.runs.listHistory(tenant, { ...query, limit: HISTORY_LIMIT });
  }

  /**
   * Pending or running -> 2050 soon; finished -> NG; unknown -> 404
   * (docs/reference/instant-crawl.md, Cancel a crawl).
   */
  async cancel(tenant: TenantRef, requestId: number): Promise<CancelResult> {
    const run = await this.runs.getByRequest(tenant, requestId);
    if (!run) return { kind: 'not_found' };
    if (!isActiveState(run.state)) return { kind: 'already_finished', run };
    await cancelActiveRun(this.runs, this.dispatcher, run, this.clock.nowMicros());
    return { kind: 'cancelled', run: (await this.runs.getRun(run.id))! };
  }

  /** Cancels any pending or running run, instant or scheduled (the console's Cancel). */
  async cancelRun(run: RunRecord): Promise<void> {
    await cancelActiveRun(this.runs, this.dispatcher, run, this.clock.nowMicros());
  }

  async lookupDownload(
    tenant: TenantRef,
    requestId: number,
    file: ArtifactFileName,
  ): Promise<DownloadLookup> {
    const run = await this.runs.getByRequest(tenant, requestId);
    if (!run) return { kind: 'not_found', reason: `no crawl request ${requestId}` };
    return lookupRunFile(run, file);
  }
}

/** Whether a finished run's file can be served: 404 while running or never produced, 410 after retention. */
export function lookupRunFile(run: RunRecord, file: ArtifactFileName): DownloadLookup {
  if (isActiveState(run.state)) return { kind: 'not_found', reason: 'the crawl has not finished yet' };
  if (!run.artifacts.includes(file)) {
    return { kind: 'not_found', reason: `this run produced no ${file}` };
  }
  if (run.artifactsDeletedMicros !== null) return { kind: 'gone' };
  return { kind: 'ready', run, file };
}

/** Download path of a run's main artifact, relative to the download base; `-` when there is none. */
export function crawlUrlListPath(run: RunRecord): string {
  const preferred = [ArtifactFile.urlList, ArtifactFile.objects, ArtifactFile.linkList].find((file) =>
    run.artifacts.includes(file),
  );
  if (preferred === undefined) return '-';
  return run.downloadKey === null
    ? instantDownloadPath(run, preferred)
    : scheduledDownloadPath(run.downloadKey, preferred);
}

/** A scheduled run's download path: no key, an unguessable generated string instead. */
export function scheduledDownloadPath(downloadKey: string, file: ArtifactFileName): string {
  return `/crawler/${downloadKey}/${file}`;
}

export function instantDownloadPath(run: TenantRef & { requestId: number }, file: ArtifactFileName): string {
  return `/instant_crawler/contracts/${run.contractId}/servicegroups/${run.servicegroupId}/instant_crawl_requests/${run.requestId}/${file}`;
}
