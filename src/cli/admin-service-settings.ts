import { redactSetting, restoreRedactedPasswords } from '../domain/redact-setting.js';
import { readFileSync } from 'node:fs';
import type { InstantCrawlerSetting } from '../domain/crawl-setting-schema.js';
import { type FieldError, InvalidInputError } from '../domain/field-error.js';
import { nextSlotAfter, type Schedule, validateSchedule } from '../domain/schedule.js';
import { validateCrawlSetting } from '../domain/validate-crawl-setting.js';
import type { RunDispatcher } from '../worker/run-dispatcher.js';
import { ScheduledCrawlService } from '../service/scheduled-crawl-service.js';
import type { ServiceSettingInput, ServiceSettingRecord, ServiceStore } from '../store/service-store.js';
import { systemClock } from '../util/clock.js';
import { formatApiTimestamp } from '../util/timestamps.js';
import { type AdminContext, requiredId, requiredName } from './admin-command.js';
import { UsageError } from './usage-error.js';

/**
 * The CLI starts no workers: `kumo serve` polls the store for pending runs (about every second)
 * and for cancel requests of the runs it executes, so notifying is only an in-process shortcut.
 */
const STORE_POLLED: RunDispatcher = { notifyPending: () => {}, cancelRun: () => {}, runEnded: () => {} };

const scheduledCrawl = ({ store, timezone }: AdminContext) =>
  new ScheduledCrawlService(store, STORE_POLLED, systemClock, timezone);

/**
 * `kumo admin setting ...`: crawl service settings (a crawler setting, its schedule and the search
 * service its runs feed) and "run now", as the management API's service_settings routes.
 */
export const SERVICE_SETTING_HANDLERS: Record<string, (context: AdminContext) => void> = {
  'setting create': (context) => {
    const { store, values, print } = context;
    const contractId = requiredId(values.contract, 'contract');
    const servicegroupId = requiredId(values.servicegroup, 'servicegroup');
    if (!store.tenants.getServiceGroup(contractId, servicegroupId)) {
      throw new UsageError(`no service group ${servicegroupId} in contract ${contractId}`);
    }
    const input = readSettingFile(values.config, values.name, '');
    const created = fieldErrorsAsUsage(() =>
      scheduledCrawl(context).create({ contractId, servicegroupId }, input),
    );
    print(`crawl service setting ${created.id} created`);
  },
  'setting list': ({ store, values, print, timezone }) => {
    const contractId = values.contract === undefined ? undefined : requiredId(values.contract, 'contract');
    print('id\tcontract\tservicegroup\tname\tschedule\tsearchservice\tnext_run');
    const now = systemClock.nowMicros();
    for (const s of store.serviceSettings.list()) {
      if (contractId !== undefined && s.contractId !== contractId) continue;
      const next = nextSlotAfter(s.schedule, now, timezone);
      print(
        `${s.id}\t${s.contractId}\t${s.servicegroupId}\t${s.name}\t${scheduleSummary(s.schedule)}\t` +
          `${s.searchServiceId ?? '-'}\t${next === undefined ? '-' : formatApiTimestamp(next, timezone)}`,
      );
    }
  },
  'setting show': ({ store, positionals, print, timezone }) => {
    const setting = requiredSetting(store, positionals[0]);
    const next = nextSlotAfter(setting.schedule, systemClock.nowMicros(), timezone);
    const view = {
      id: setting.id,
      name: setting.name,
      // Passwords stay out of terminals and their scrollback; `setting update` keeps them.
      setting: redactSetting(setting.setting),
      schedule: setting.schedule,
      service_id: setting.searchServiceId,
      next_run_datetime: next === undefined ? null : formatApiTimestamp(next, timezone),
    };
    print(JSON.stringify(view, null, 2));
  },
  'setting update': (context) => {
    const { store, values, positionals, print } = context;
    const existing = requiredSetting(store, positionals[0]);
    const read = readSettingFile(values.config, values.name, existing.name);
    // A file made from `setting show` carries ******** for the stored passwords: they are kept.
    const restored = restoreRedactedPasswords(read.setting, existing.setting, 'setting');
    if (restored.errors.length > 0) throw fieldUsageError('the crawl service setting', restored.errors);
    const input = { ...read, setting: restored.setting };
    fieldErrorsAsUsage(() => scheduledCrawl(context).update(existing, input));
    print(`crawl service setting ${existing.id} replaced`);
  },
  'setting delete': (context) => {
    const { store, positionals, print } = context;
    const existing = requiredSetting(store, positionals[0]);
    scheduledCrawl(context).delete(existing);
    print(`crawl service setting ${existing.id} deleted`);
  },
  'setting run': (context) => {
    const { store, positionals, print } = context;
    const setting = requiredSetting(store, positionals[0]);
    const result = scheduledCrawl(context).runNow(setting);
    if (result.kind === 'busy') {
      throw new UsageError(
        `run ${result.run.id} of crawl service setting ${setting.id} is still pending or running`,
      );
    }
    print(`run ${result.run.id} queued for crawl service setting ${setting.id}`);
  },
};

function requiredSetting(store: ServiceStore, raw: string | undefined): ServiceSettingRecord {
  const id = requiredId(raw, 'crawl service setting id (positional)');
  const setting = store.serviceSettings.get(id);
  if (!setting) throw new UsageError(`no crawl service setting ${id}`);
  return setting;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const two = (value: number | null | undefined) => String(value ?? 0).padStart(2, '0');

/** `daily 09:30`, `weekly Sun 03:00`, `monthly day 31 04:00`, `hourly :15` or `disabled`. */
export function scheduleSummary(schedule: Schedule): string {
  const time = `${two(schedule.hour)}:${two(schedule.min)}`;
  switch (schedule.interval) {
    case 1:
      return `hourly :${two(schedule.min)}`;
    case 2:
      return `daily ${time}`;
    case 3:
      return `weekly ${WEEKDAYS[schedule.day_of_week ?? 0] ?? '?'} ${time}`;
    case 4:
      return `monthly day ${schedule.day_of_month ?? 1} ${time}`;
    default:
      return 'disabled';
  }
}

/** Runs a service call, reporting its input errors (a foreign search service) as a usage error. */
function fieldErrorsAsUsage<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof InvalidInputError) throw fieldUsageError('the crawl service setting', error.errors);
    throw error;
  }
}

function fieldUsageError(what: string, errors: readonly FieldError[]): UsageError {
  return new UsageError(
    `${what} is invalid:\n${errors.map((error) => `${error.field}: ${error.reason}`).join('\n')}`,
  );
}

const FILE_KEYS = ['name', 'setting', 'schedule', 'service_id'];

/**
 * The `--config` file: the body of the management API's POST/PUT service_settings,
 * `{"setting", "schedule", "service_id"}` (and optionally `name`; `--name` wins), validated with
 * the API's schemas. The name defaults to `defaultName`.
 */
function readSettingFile(
  file: string | undefined,
  nameOption: string | undefined,
  defaultName: string,
): ServiceSettingInput {
  if (file === undefined) throw new UsageError('--config FILE is required', true);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--config: cannot read ${file} as JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`--config: ${file} must hold a JSON object {"setting", "schedule", "service_id"}`);
  }
  const body = parsed as Record<string, unknown>;
  const errors: FieldError[] = Object.keys(body)
    .filter((key) => !FILE_KEYS.includes(key))
    .map((key) => ({ field: key, reason: `unknown field (expected ${FILE_KEYS.join(', ')})` }));
  for (const key of ['setting', 'schedule']) {
    if (body[key] === undefined) errors.push({ field: key, reason: 'is required' });
  }
  if (body.setting !== undefined) errors.push(...validateCrawlSetting(body.setting, 'setting'));
  if (body.schedule !== undefined) errors.push(...validateSchedule(body.schedule, 'schedule'));
  const serviceId = body.service_id ?? null;
  if (serviceId !== null && !(Number.isSafeInteger(serviceId) && (serviceId as number) >= 1)) {
    errors.push({ field: 'service_id', reason: 'must be a positive integer id or null' });
  }
  if (body.name !== undefined && (typeof body.name !== 'string' || body.name.length > 200)) {
    errors.push({ field: 'name', reason: 'must be a string of at most 200 characters' });
  }
  if (errors.length > 0) throw fieldUsageError(`--config ${file}`, errors);
  const fileName = typeof body.name === 'string' ? body.name.trim() : undefined;
  const name = nameOption === undefined ? (fileName ?? defaultName) : requiredName(nameOption);
  if (name.length > 200) throw new UsageError('--name: at most 200 characters');
  return {
    name,
    setting: body.setting as InstantCrawlerSetting,
    schedule: body.schedule as Schedule,
    searchServiceId: serviceId as number | null,
  };
}
