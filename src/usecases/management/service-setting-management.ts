import { type InstantCrawlerSetting, nextSlotAfter } from '../../domain/schemas.js';
import { type FieldError, InvalidInputError, redactSetting } from '../../domain/index.js';
import type { RunRecord, ServiceSettingRecord, TenantRef } from '../../store/index.js';
import { type Actor, ManagementOperations } from './management-context.js';
import { ConflictError, NotFoundError } from './management-errors.js';
import { isGroupScope, reaches, type Scope, withinText } from './management-scope.js';
import type { UrlVerdict } from '../tenant-work/url-verdicts.js';
import { checkedInput, nextRuns, type ServiceSettingDraft } from './setting-draft-check.js';

/** A draft's schedule preview and pattern tester answers. */
export interface DraftCheck {
  nextRunsMicros: number[];
  urlVerdicts: UrlVerdict[];
}

/** A stored setting as shown: passwords redacted, with its next scheduled run and active run. */
export interface ManagedServiceSetting extends Omit<ServiceSettingRecord, 'setting'> {
  setting: InstantCrawlerSetting;
  /** The next slot of the schedule; null when the schedule is off or paused. */
  nextRunMicros: number | null;
  /** The run of the setting still pending or running, if any. */
  activeRunId: number | null;
}

/**
 * Crawl service settings (a crawler setting, its schedule and the search service it feeds) and
 * "run now", through ScheduledCrawlService, which keeps the schedule slots and checks the search
 * service. Passwords are write-only: nothing here answers with a stored password.
 */
export class ServiceSettingManagement extends ManagementOperations {
  async list(scope: Scope): Promise<ManagedServiceSetting[]> {
    await this.enter(scope);
    const settings = await this.store.serviceSettings.list(isGroupScope(scope) ? scope : undefined);
    return Promise.all(
      settings.filter((setting) => reaches(scope, setting)).map((setting) => this.shown(setting)),
    );
  }

  /** The setting within the scope, or NotFoundError. */
  async get(scope: Scope, id: number): Promise<ManagedServiceSetting> {
    return this.shown(await this.stored(scope, id));
  }

  async create(actor: Actor, tenant: TenantRef, draft: ServiceSettingDraft): Promise<ManagedServiceSetting> {
    this.mayChange(actor, tenant, 'crawl service setting');
    await this.enter(tenant);
    const input = await checkedInput(draft, '', undefined, this.settingErrors(tenant.contractId));
    const created = await this.deps.scheduledCrawl.create(tenant, input);
    await this.changed(actor, 'create', 'crawl service setting', created, created.createdMicros);
    return this.shown(created);
  }

  /** Replaces the setting, schedule and search service (and the name, when given). */
  async update(
    actor: Actor,
    scope: Scope,
    id: number,
    draft: ServiceSettingDraft,
  ): Promise<ManagedServiceSetting> {
    this.mayChange(actor, scope, 'crawl service setting');
    const existing = await this.stored(scope, id);
    const input = await checkedInput(
      draft,
      existing.name,
      existing.setting,
      this.settingErrors(existing.contractId),
    );
    const updated = await this.deps.scheduledCrawl.update(existing, input);
    await this.changed(actor, 'update', 'crawl service setting', updated, updated.updatedMicros);
    return this.shown(updated);
  }

  /** Deletes the setting and cancels its run in progress; its history and artifacts stay. */
  async delete(actor: Actor, scope: Scope, id: number): Promise<void> {
    this.mayChange(actor, scope, 'crawl service setting');
    const existing = await this.stored(scope, id);
    await this.deps.scheduledCrawl.delete(existing);
    await this.changed(actor, 'delete', 'crawl service setting', existing, this.now());
  }

  /**
   * Checks a draft as create (no setting id) or update would, storing nothing: InvalidInputError
   * with the same field errors, or the next run times of its schedule and what its scope says of
   * `testUrls`. Viewers may check too: nothing changes.
   */
  async check(
    scope: TenantRef,
    settingId: number | undefined,
    draft: ServiceSettingDraft,
    testUrls: string[],
  ): Promise<DraftCheck> {
    const existing = settingId === undefined ? undefined : await this.stored(scope, settingId);
    if (existing === undefined) await this.enter(scope);
    let verdicts: UrlVerdict[] = [];
    // One job checks the setting and tries the test URLs: its patterns compile once.
    const input = await checkedInput(draft, existing?.name ?? '', existing?.setting, async (setting) => {
      const checked = await this.deps.tenantWork.crawlSettingVerdicts(
        scope.contractId,
        setting,
        testUrls,
        'query.test_url',
      );
      verdicts = checked.verdicts;
      return checked.errors;
    });
    const errors = await this.deps.scheduledCrawl.searchServiceErrors(scope, input.searchServiceId);
    if (errors.length > 0) throw new InvalidInputError(errors);
    return {
      nextRunsMicros: nextRuns(input.schedule, this.now(), this.deps.timezone),
      urlVerdicts: verdicts,
    };
  }

  /** Pauses the schedule (runs now still start); pausing a paused schedule changes nothing. */
  async pause(actor: Actor, scope: Scope, id: number): Promise<ManagedServiceSetting> {
    this.mayChange(actor, scope, 'crawl service setting');
    const existing = await this.stored(scope, id);
    if (existing.pausedMicros !== null) return this.shown(existing);
    const paused = await this.deps.scheduledCrawl.pause(existing);
    await this.changed(actor, 'pause', 'crawl service setting', paused, paused.updatedMicros);
    return this.shown(paused);
  }

  /** Resumes the schedule from its next slot; resuming a running schedule changes nothing. */
  async resume(actor: Actor, scope: Scope, id: number): Promise<ManagedServiceSetting> {
    this.mayChange(actor, scope, 'crawl service setting');
    const existing = await this.stored(scope, id);
    if (existing.pausedMicros === null) return this.shown(existing);
    const resumed = await this.deps.scheduledCrawl.resume(existing);
    await this.changed(actor, 'resume', 'crawl service setting', resumed, resumed.updatedMicros);
    return this.shown(resumed);
  }

  /** Starts a run now; ConflictError while one of the setting is pending or running. */
  async runNow(actor: Actor, scope: Scope, id: number): Promise<RunRecord> {
    this.mayChange(actor, scope, 'crawl service setting');
    const setting = await this.stored(scope, id);
    const result = await this.deps.scheduledCrawl.runNow(setting);
    if (result.kind === 'busy') {
      throw new ConflictError(
        'crawl service setting',
        id,
        `run ${result.run.id} of crawl service setting ${id} is still pending or running`,
      );
    }
    await this.changed(actor, 'run', 'crawl service setting', setting, result.run.createdMicros);
    return result.run;
  }

  /** Checks a crawl setting of the contract in the tenant work threads. */
  /**
   * Every field error of a crawl setting as sent, named under `setting`: the check create and
   * update make (TenantWork.crawlSettingErrors), for a caller that reports them with its own.
   */
  crawlSettingErrors(contractId: number, setting: unknown): Promise<FieldError[]> {
    return this.deps.tenantWork.crawlSettingErrors(contractId, setting, 'setting');
  }

  private settingErrors(contractId: number): (setting: unknown) => Promise<FieldError[]> {
    return (setting) => this.crawlSettingErrors(contractId, setting);
  }

  private async stored(scope: Scope, id: number): Promise<ServiceSettingRecord> {
    await this.enter(scope);
    const setting = await this.store.serviceSettings.get(id);
    if (!setting || !reaches(scope, setting)) {
      throw new NotFoundError(
        'crawl service setting',
        id,
        `no crawl service setting ${id}${withinText(scope)}`,
      );
    }
    return setting;
  }

  private async shown(setting: ServiceSettingRecord): Promise<ManagedServiceSetting> {
    const next =
      setting.pausedMicros === null
        ? nextSlotAfter(setting.schedule, this.now(), this.deps.timezone)
        : undefined;
    return {
      ...setting,
      setting: redactSetting(setting.setting),
      nextRunMicros: next ?? null,
      activeRunId: (await this.store.runs.activeRunOfSetting(setting.id))?.id ?? null,
    };
  }
}
