import { gunzipSync } from 'node:zlib';
import { readTarFiles } from '../../artifacts/index.js';
import { type ArtifactFileName, isActiveState, takesScreenshots } from '../../domain/index.js';
import type { InstantCrawlerSetting } from '../../domain/schemas.js';
import type { ReportPage, RunReport } from '../../run-data/index.js';
import type { RunListQuery, RunRecord, TenantRef } from '../../store/index.js';
import type { LiveProgress } from '../../worker/index.js';
import { type DownloadLookup, lookupRunFile } from '../instant-crawl-service.js';
import { type Actor, ManagementOperations, type RunDeps } from './management-context.js';
import { ConflictError, NotFoundError } from './management-errors.js';

/** The most runs one page of the list holds. */
export const RUNS_PAGE_LIMIT = 100;

/** A run as the console shows it: the record, its setting's name and its live progress. */
export interface ManagedRun {
  run: RunRecord;
  /** The crawl service setting's name; null for an instant crawl request or a deleted setting. */
  settingName: string | null;
  /** The progress this process's crawl reports; undefined when it is not crawling here. */
  live: LiveProgress | undefined;
}

/**
 * The runs of a service group, instant and scheduled, for the console (docs/console.md, Runs):
 * list, read with live progress, cancel, start an instant crawl, and read a finished run's report
 * (URL rows, failures by kind, screenshots) and artifacts.
 */
export class RunManagement extends ManagementOperations {
  async list(
    scope: TenantRef,
    query: Omit<RunListQuery, 'limit'> & { limit?: number },
  ): Promise<ManagedRun[]> {
    await this.enter(scope);
    const limit = Math.min(query.limit ?? 50, RUNS_PAGE_LIMIT);
    const runs = await this.store.runs.listRuns(scope, { ...query, limit });
    return Promise.all(runs.map((run) => this.managed(run)));
  }

  async get(scope: TenantRef, runId: number): Promise<ManagedRun> {
    return this.managed(await this.stored(scope, runId));
  }

  /** Asks the run to stop; ConflictError when it has ended already. */
  async cancel(actor: Actor, scope: TenantRef, runId: number): Promise<ManagedRun> {
    this.mayChange(actor, scope, 'crawl run');
    const run = await this.stored(scope, runId);
    if (!isActiveState(run.state)) {
      throw new ConflictError('crawl run', runId, `run ${runId} has ended; there is nothing to cancel`);
    }
    await this.runDeps().instantCrawl.cancelRun(run);
    await this.changed(actor, 'cancel', 'crawl run', run, this.now());
    return this.get(scope, runId);
  }

  /** Starts an instant crawl of the service group, as the instant crawl API does. */
  async startInstant(actor: Actor, scope: TenantRef, setting: InstantCrawlerSetting): Promise<RunRecord> {
    this.mayChange(actor, scope, 'crawl run');
    await this.enter(scope);
    // The instant crawl service checks the setting, as it does for the API.
    const run = await this.runDeps().instantCrawl.request(scope, setting);
    await this.changed(actor, 'create', 'crawl run', run, run.createdMicros);
    return run;
  }

  /** Calls `listener` on every progress report of the run while it crawls in this process. */
  async watch(
    scope: TenantRef,
    runId: number,
    listener: (progress: LiveProgress) => void,
  ): Promise<() => void> {
    await this.stored(scope, runId);
    return this.runDeps().live.subscribe(runId, listener);
  }

  /** Reads the run's report; NotFoundError when the run has none (see docs/console.md, Runs). */
  async withReport<T>(scope: TenantRef, runId: number, read: (report: RunReport) => T): Promise<T> {
    await this.stored(scope, runId);
    const report = await this.runDeps().files.openReport(runId);
    if (report === undefined) {
      throw new NotFoundError(
        'crawl run',
        runId,
        `run ${runId} has no URL report: it has not ended with artifacts, or they were removed`,
      );
    }
    try {
      return read(report);
    } finally {
      report.close();
    }
  }

  /**
   * The pages of the run that may have a screenshot: none when its setting took no screenshots,
   * so the console asks for no image that cannot exist (docs/console.md, Run page).
   */
  async screenshotPages(scope: TenantRef, runId: number, offset: number, limit: number): Promise<ReportPage> {
    const run = await this.stored(scope, runId);
    if (!takesScreenshots(run.setting)) return { matched: 0, rows: [] };
    return this.withReport(scope, runId, (report) => report.screenshotRows(offset, limit));
  }

  /** The JPEG screenshot of a row of the run; undefined when that page has none. */
  async screenshot(scope: TenantRef, runId: number, rowId: number): Promise<Buffer | undefined> {
    const member = await this.withReport(scope, runId, (report) => report.member(rowId));
    if (member === undefined) return undefined;
    const bytes = await this.runDeps().files.readBundle(runId, member.offset, member.bytes);
    if (bytes === undefined) return undefined;
    const file = readTarFiles(gunzipSync(bytes)).find((entry) => entry.name.endsWith('/cap_org.jpg'));
    return file?.data;
  }

  /** Where an artifact of the run is, for a download with the session. */
  async artifact(scope: TenantRef, runId: number, file: ArtifactFileName): Promise<DownloadLookup> {
    return lookupRunFile(await this.stored(scope, runId), file);
  }

  private runDeps(): RunDeps {
    const runs = this.deps.runs;
    if (runs === undefined) throw new Error('run operations need the run services of kumo serve');
    return runs;
  }

  private async stored(scope: TenantRef, runId: number): Promise<RunRecord> {
    await this.enter(scope);
    const run = await this.store.runs.getRun(runId);
    if (!run || run.contractId !== scope.contractId || run.servicegroupId !== scope.servicegroupId) {
      throw new NotFoundError(
        'crawl run',
        runId,
        `no crawl run ${runId} in contract ${scope.contractId} service group ${scope.servicegroupId}`,
      );
    }
    return run;
  }

  private async managed(run: RunRecord): Promise<ManagedRun> {
    const setting =
      run.serviceSettingId === null ? undefined : await this.store.serviceSettings.get(run.serviceSettingId);
    return { run, settingName: setting?.name ?? null, live: this.deps.runs?.live.get(run.id) };
  }
}
