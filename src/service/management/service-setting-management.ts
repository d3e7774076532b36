import type { InstantCrawlerSetting } from '../../domain/crawl-setting-schema.js';
import { InvalidInputError } from '../../domain/field-error.js';
import { redactSetting } from '../../domain/redact-setting.js';
import { nextSlotAfter } from '../../domain/schedule.js';
import type { RunRecord, ServiceSettingRecord, TenantRef } from '../../store/service-store.js';
import { type Actor, ManagementOperations } from './management-context.js';
import { ConflictError, NotFoundError } from './management-errors.js';
import { isGroupScope, reaches, type Scope, withinText } from './management-scope.js';
import {
  checkedInput,
  nextRuns,
  type ServiceSettingDraft,
  urlVerdicts,
  type UrlVerdict,
} from './setting-draft-check.js';

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
  list(scope: Scope): ManagedServiceSetting[] {
    this.enter(scope);
    const settings = this.store.serviceSettings.list(isGroupScope(scope) ? scope : undefined);
    return settings.filter((setting) => reaches(scope, setting)).map((setting) => this.shown(setting));
  }

  /** The setting within the scope, or NotFoundError. */
  get(scope: Scope, id: number): ManagedServiceSetting {
    return this.shown(this.stored(scope, id));
  }

  create(actor: Actor, tenant: TenantRef, draft: ServiceSettingDraft): ManagedServiceSetting {
    this.mayChange(actor, tenant, 'crawl service setting');
    this.enter(tenant);
    const created = this.deps.scheduledCrawl.create(tenant, checkedInput(draft, '', undefined));
    this.changed(actor, 'create', 'crawl service setting', created, created.createdMicros);
    return this.shown(created);
  }

  /** Replaces the setting, schedule and search service (and the name, when given). */
  update(actor: Actor, scope: Scope, id: number, draft: ServiceSettingDraft): ManagedServiceSetting {
    this.mayChange(actor, scope, 'crawl service setting');
    const existing = this.stored(scope, id);
    const input = checkedInput(draft, existing.name, existing.setting);
    const updated = this.deps.scheduledCrawl.update(existing, input);
    this.changed(actor, 'update', 'crawl service setting', updated, updated.updatedMicros);
    return this.shown(updated);
  }

  /** Deletes the setting and cancels its run in progress; its history and artifacts stay. */
  delete(actor: Actor, scope: Scope, id: number): void {
    this.mayChange(actor, scope, 'crawl service setting');
    const existing = this.stored(scope, id);
    this.deps.scheduledCrawl.delete(existing);
    this.changed(actor, 'delete', 'crawl service setting', existing, this.now());
  }

  /**
   * Checks a draft as create (no setting id) or update would, storing nothing: InvalidInputError
   * with the same field errors, or the next run times of its schedule and what its scope says of
   * `testUrls`. Viewers may check too: nothing changes.
   */
  check(
    scope: TenantRef,
    settingId: number | undefined,
    draft: ServiceSettingDraft,
    testUrls: string[],
  ): DraftCheck {
    const existing = settingId === undefined ? undefined : this.stored(scope, settingId);
    if (existing === undefined) this.enter(scope);
    const input = checkedInput(draft, existing?.name ?? '', existing?.setting);
    const errors = this.deps.scheduledCrawl.searchServiceErrors(scope, input.searchServiceId);
    if (errors.length > 0) throw new InvalidInputError(errors);
    return {
      nextRunsMicros: nextRuns(input.schedule, this.now(), this.deps.timezone),
      urlVerdicts: urlVerdicts(input.setting, testUrls),
    };
  }

  /** Pauses the schedule (runs now still start); pausing a paused schedule changes nothing. */
  pause(actor: Actor, scope: Scope, id: number): ManagedServiceSetting {
    this.mayChange(actor, scope, 'crawl service setting');
    const existing = this.stored(scope, id);
    if (existing.pausedMicros !== null) return this.shown(existing);
    const paused = this.deps.scheduledCrawl.pause(existing);
    this.changed(actor, 'pause', 'crawl service setting', paused, paused.updatedMicros);
    return this.shown(paused);
  }

  /** Resumes the schedule from its next slot; resuming a running schedule changes nothing. */
  resume(actor: Actor, scope: Scope, id: number): ManagedServiceSetting {
    this.mayChange(actor, scope, 'crawl service setting');
    const existing = this.stored(scope, id);
    if (existing.pausedMicros === null) return this.shown(existing);
    const resumed = this.deps.scheduledCrawl.resume(existing);
    this.changed(actor, 'resume', 'crawl service setting', resumed, resumed.updatedMicros);
    return this.shown(resumed);
  }

  /** Starts a run now; ConflictError while one of the setting is pending or running. */
  runNow(actor: Actor, scope: Scope, id: number): RunRecord {
    this.mayChange(actor, scope, 'crawl service setting');
    const setting = this.stored(scope, id);
    const result = this.deps.scheduledCrawl.runNow(setting);
    if (result.kind === 'busy') {
      throw new ConflictError(
        'crawl service setting',
        id,
        `run ${result.run.id} of crawl service setting ${id} is still pending or running`,
      );
    }
    this.changed(actor, 'run', 'crawl service setting', setting, result.run.createdMicros);
    return result.run;
  }

  private stored(scope: Scope, id: number): ServiceSettingRecord {
    this.enter(scope);
    const setting = this.store.serviceSettings.get(id);
    if (!setting || !reaches(scope, setting)) {
      throw new NotFoundError(
        'crawl service setting',
        id,
        `no crawl service setting ${id}${withinText(scope)}`,
      );
    }
    return setting;
  }

  private shown(setting: ServiceSettingRecord): ManagedServiceSetting {
    const next =
      setting.pausedMicros === null
        ? nextSlotAfter(setting.schedule, this.now(), this.deps.timezone)
        : undefined;
    return {
      ...setting,
      setting: redactSetting(setting.setting),
      nextRunMicros: next ?? null,
      activeRunId: this.store.runs.activeRunOfSetting(setting.id)?.id ?? null,
    };
  }
}
