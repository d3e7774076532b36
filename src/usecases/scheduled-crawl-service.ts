import { randomBytes } from 'node:crypto';
import {
  type ArtifactFileName,
  isArtifactFileName,
  type FieldError,
  InvalidInputError,
} from '../domain/index.js';
import { dueSlot, latestSlotAtOrBefore, type Schedule } from '../domain/schemas.js';
import type {
  RunRecord,
  ServiceSettingInput,
  ServiceSettingRecord,
  RecordStore,
  TenantRef,
} from '../store/index.js';
import type { Clock } from '../util/index.js';
import type { RunDispatcher } from '../worker/index.js';
import { cancelActiveRun, type DownloadLookup, lookupRunFile } from './instant-crawl-service.js';

/**
 * The scheduled crawler history answers the latest 5 runs (docs/reference/scheduled-crawler.md,
 * Histories).
 */
export const SETTING_HISTORY_LIMIT = 5;

/**
 * 192 bits of randomness, URL-safe: the scheduled download paths carry no key
 * (docs/reference/downloads.md, Scheduled run downloads).
 */
export function generateDownloadKey(): string {
  return randomBytes(24).toString('base64url');
}

export type RunNowResult = { kind: 'started'; run: RunRecord } | { kind: 'busy'; run: RunRecord };

export interface ScheduleTickReport {
  started: RunRecord[];
  /** Settings whose slot came while their previous run was still going: that slot is skipped. */
  skipped: { settingId: number; runId: number }[];
}

/**
 * The scheduled crawler's use cases: crawl service settings (a crawler setting, a Schedule and
 * the search service the runs feed), runs started by the schedule or on demand, their history
 * and downloads. The worker pool executes the runs like instant ones.
 */
export class ScheduledCrawlService {
  constructor(
    private readonly store: RecordStore,
    private readonly dispatcher: RunDispatcher,
    private readonly clock: Clock,
    private readonly timezone: string,
  ) {}

  async create(tenant: TenantRef, input: ServiceSettingInput, id?: number): Promise<ServiceSettingRecord> {
    await this.checkSearchService(tenant, input.searchServiceId);
    const now = this.clock.nowMicros();
    // The slot that has just passed counts as handled: a new setting first runs at its next slot.
    return this.store.serviceSettings.create(tenant, input, this.currentSlot(input.schedule, now), now, id);
  }

  /** The setting when it exists and belongs to the tenant. */
  async get(tenant: TenantRef, id: number): Promise<ServiceSettingRecord | undefined> {
    const setting = await this.store.serviceSettings.get(id);
    if (
      !setting ||
      setting.contractId !== tenant.contractId ||
      setting.servicegroupId !== tenant.servicegroupId
    )
      return undefined;
    return setting;
  }

  async list(tenant: TenantRef): Promise<ServiceSettingRecord[]> {
    return this.store.serviceSettings.list(tenant);
  }

  /** Replaces the setting; a changed schedule starts counting from now (no run for slots before the change). */
  async update(existing: ServiceSettingRecord, input: ServiceSettingInput): Promise<ServiceSettingRecord> {
    await this.checkSearchService(existing, input.searchServiceId);
    const now = this.clock.nowMicros();
    const lastSlot = sameSchedule(existing.schedule, input.schedule)
      ? existing.lastSlotMicros
      : this.currentSlot(input.schedule, now);
    await this.store.serviceSettings.update(existing.id, input, lastSlot, now);
    return (await this.store.serviceSettings.get(existing.id))!;
  }

  /** Deletes the setting and cancels its run in progress; its history and artifacts stay. */
  async delete(existing: ServiceSettingRecord): Promise<void> {
    const active = await this.store.runs.activeRunOfSetting(existing.id);
    if (active) await cancelActiveRun(this.store.runs, this.dispatcher, active, this.clock.nowMicros());
    await this.store.serviceSettings.delete(existing.id, this.clock.nowMicros());
  }

  /** Pauses the schedule: no slot starts a run until it is resumed; "run now" still works. */
  async pause(existing: ServiceSettingRecord): Promise<ServiceSettingRecord> {
    if (existing.pausedMicros !== null) return existing;
    const now = this.clock.nowMicros();
    await this.store.serviceSettings.setPaused(existing.id, now, existing.lastSlotMicros, now);
    return (await this.store.serviceSettings.get(existing.id))!;
  }

  /** Resumes the schedule from its next slot: the slots that passed while paused do not run. */
  async resume(existing: ServiceSettingRecord): Promise<ServiceSettingRecord> {
    if (existing.pausedMicros === null) return existing;
    const now = this.clock.nowMicros();
    await this.store.serviceSettings.setPaused(
      existing.id,
      null,
      this.currentSlot(existing.schedule, now),
      now,
    );
    return (await this.store.serviceSettings.get(existing.id))!;
  }

  /** Starts a run now unless one of the setting is pending or running. */
  async runNow(setting: ServiceSettingRecord): Promise<RunNowResult> {
    const run = await this.store.runs.createScheduledRun(
      { setting, downloadKey: generateDownloadKey(), trigger: 'manual' },
      this.clock.nowMicros(),
    );
    if (run === undefined)
      return {
        kind: 'busy',
        run: (await this.store.runs.activeRunOfSetting(setting.id))!,
      };
    this.dispatcher.notifyPending();
    return { kind: 'started', run };
  }

  /**
   * Starts the runs whose schedule slot has come. Each slot is handled once: after downtime only
   * the latest missed slot runs (one catch-up run, not one per missed slot), and a slot that
   * comes while the previous run still goes is skipped rather than queued behind it.
   */
  async tick(): Promise<ScheduleTickReport> {
    const report: ScheduleTickReport = { started: [], skipped: [] };
    const now = this.clock.nowMicros();
    for (const setting of await this.store.serviceSettings.listScheduled()) {
      const slot = dueSlot(setting.schedule, this.timezone, now, setting.lastSlotMicros);
      if (slot === undefined) continue;
      // Taking the slot and storing its run are one step of the store: another scheduler (another
      // process, or this one after a restart) finds the slot taken and starts nothing.
      const result = await this.store.runs.createSlotRun(
        { setting, downloadKey: generateDownloadKey(), trigger: 'schedule' },
        slot,
        now,
      );
      if (result.kind === 'started') report.started.push(result.run);
      else if (result.kind === 'busy')
        report.skipped.push({
          settingId: setting.id,
          runId: (await this.store.runs.activeRunOfSetting(setting.id))?.id ?? 0,
        });
    }
    if (report.started.length > 0) this.dispatcher.notifyPending();
    return report;
  }

  /** Finished runs of the setting started in the range, newest first, at most 5. */
  async histories(setting: ServiceSettingRecord, fromMicros: number, toMicros: number): Promise<RunRecord[]> {
    return this.store.runs.listSettingHistory(setting.id, {
      fromMicros,
      toMicros,
      limit: SETTING_HISTORY_LIMIT,
    });
  }

  async lookupDownload(downloadKey: string, file: string): Promise<DownloadLookup> {
    const run = await this.store.runs.getByDownloadKey(downloadKey);
    if (!run || !isArtifactFileName(file)) return { kind: 'not_found', reason: 'no such download' };
    return lookupRunFile(run, file as ArtifactFileName);
  }

  private currentSlot(schedule: Schedule, nowMicros: number): number {
    return latestSlotAtOrBefore(schedule, nowMicros, this.timezone) ?? 0;
  }

  /** A field error when the search service is not one of the tenant's; none for "crawl only". */
  async searchServiceErrors(tenant: TenantRef, searchServiceId: number | null): Promise<FieldError[]> {
    if (searchServiceId === null) return [];
    const service = await this.store.searchServices.get(searchServiceId);
    if (
      service &&
      service.contractId === tenant.contractId &&
      service.servicegroupId === tenant.servicegroupId
    )
      return [];
    return [
      {
        field: 'service_id',
        reason: `no search service ${searchServiceId} in this service group`,
      },
    ];
  }

  private async checkSearchService(tenant: TenantRef, searchServiceId: number | null): Promise<void> {
    const errors = await this.searchServiceErrors(tenant, searchServiceId);
    if (errors.length > 0) throw new InvalidInputError(errors);
  }
}

/** Field by field: the same schedule written with its keys in another order or nulls left out is unchanged. */
function sameSchedule(a: Schedule, b: Schedule): boolean {
  const fields = ['interval', 'min', 'hour', 'day_of_week', 'day_of_month'] as const;
  return fields.every((field) => (a[field] ?? null) === (b[field] ?? null));
}
