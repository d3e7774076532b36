import type { InstantCrawlerSetting } from '../../domain/crawl-setting-schema.js';
import { checkCrawlSetting } from '../../domain/crawl-settings.js';
import { InvalidInputError } from '../../domain/field-error.js';
import { redactSetting, restoreRedactedPasswords } from '../../domain/redact-setting.js';
import { checkSchedule, nextSlotAfter, type Schedule } from '../../domain/schedule.js';
import type {
  RunRecord,
  ServiceSettingInput,
  ServiceSettingRecord,
  TenantRef,
} from '../../store/service-store.js';
import { type Actor, ManagementOperations } from './management-context.js';
import { ConflictError, NotFoundError } from './management-errors.js';
import { isGroupScope, reaches, type Scope, withinText } from './management-scope.js';
import { checkedLength } from './input-rules.js';

/**
 * A crawl service setting as given by an operator. The setting and schedule have the shape of
 * their schemas (checked by the caller's parser); the rules the schemas cannot express are
 * checked here.
 */
export interface ServiceSettingDraft {
  /** Trimmed; absent: empty for a new setting, the stored name on an update. */
  name?: string | undefined;
  /** A password of `********` keeps the stored one (what a read of the setting shows). */
  setting: InstantCrawlerSetting;
  schedule: Schedule;
  /** The search service the runs feed, of the same service group; absent or null: crawl only. */
  searchServiceId?: number | null | undefined;
}

/** A stored setting as shown: passwords redacted, with its next scheduled run and active run. */
export interface ManagedServiceSetting extends Omit<ServiceSettingRecord, 'setting'> {
  setting: InstantCrawlerSetting;
  /** The next slot of the schedule; null when the schedule is off. */
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
    const next = nextSlotAfter(setting.schedule, this.now(), this.deps.timezone);
    return {
      ...setting,
      setting: redactSetting(setting.setting),
      nextRunMicros: next ?? null,
      activeRunId: this.store.runs.activeRunOfSetting(setting.id)?.id ?? null,
    };
  }
}

/**
 * The draft checked beyond its schema (URLs, patterns, the fields the interval needs), with the
 * redacted passwords replaced by the stored ones.
 */
function checkedInput(
  draft: ServiceSettingDraft,
  defaultName: string,
  stored: InstantCrawlerSetting | undefined,
): ServiceSettingInput {
  const name = checkedLength(draft.name?.trim() ?? defaultName, 'name');
  const restored = restoreRedactedPasswords(draft.setting, stored, 'setting');
  const errors = [
    ...checkCrawlSetting(restored.setting, 'setting'),
    ...restored.errors,
    ...checkSchedule(draft.schedule, 'schedule'),
  ];
  if (errors.length > 0) throw new InvalidInputError(errors);
  return {
    name,
    setting: restored.setting,
    schedule: draft.schedule,
    searchServiceId: draft.searchServiceId ?? null,
  };
}
