import { readFileSync } from 'node:fs';
import type { FieldError } from '../domain/index.js';
import { type Schedule, validateSchedule } from '../domain/schemas.js';
import { EVERYWHERE, NAME_MAX_CHARS, type ServiceSettingDraft } from '../usecases/index.js';
import { fieldUsageError } from './admin-failures.js';
import {
  CLI_ACTOR,
  listScope,
  printedTime,
  requiredId,
  requiredName,
  requiredTenant,
  type AdminHandler,
} from './admin-options.js';
import { UsageError } from './usage-error.js';

const settingId = (positionals: string[]) =>
  requiredId(positionals[0], 'crawl service setting id (positional)');

/**
 * `kumo admin setting ...`: crawl service settings (a crawler setting, its schedule and the search
 * service its runs feed) and "run now", as the management API's service_settings routes.
 */
export const SERVICE_SETTING_HANDLERS: Record<string, AdminHandler> = {
  'setting create': async ({ management, values, print }) => {
    const tenant = requiredTenant(values);
    const draft = await checkedFile(readSettingFile(values.config, values.name), (setting) =>
      management.serviceSettings.crawlSettingErrors(tenant.contractId, setting),
    );
    const created = await management.serviceSettings.create(CLI_ACTOR, tenant, draft);
    print(`crawl service setting ${created.id} created`);
  },
  'setting list': async ({ management, values, print, timezone }) => {
    print('id\tcontract\tservicegroup\tname\tschedule\tsearchservice\tnext_run');
    // A paused schedule shows as `paused daily 04:30` and has no next run.
    for (const s of await management.serviceSettings.list(listScope(values))) {
      print(
        `${s.id}\t${s.contractId}\t${s.servicegroupId}\t${s.name}\t` +
          `${s.pausedMicros === null ? '' : 'paused '}${scheduleSummary(s.schedule)}\t` +
          `${s.searchServiceId ?? '-'}\t${printedTime(s.nextRunMicros, timezone)}`,
      );
    }
  },
  'setting show': async ({ management, positionals, print, timezone }) => {
    const setting = await management.serviceSettings.get(EVERYWHERE, settingId(positionals));
    const view = {
      id: setting.id,
      name: setting.name,
      // Passwords stay out of terminals and their scrollback; `setting update` keeps them.
      setting: setting.setting,
      schedule: setting.schedule,
      service_id: setting.searchServiceId,
      next_run_datetime: setting.nextRunMicros === null ? null : printedTime(setting.nextRunMicros, timezone),
    };
    print(JSON.stringify(view, null, 2));
  },
  'setting update': async ({ management, values, positionals, print }) => {
    const id = settingId(positionals);
    // A file made from `setting show` carries ******** for the stored passwords: they are kept
    // while the hosts they may be sent to are unchanged (docs/security.md, Stored passwords).
    const draft = await checkedFile(readSettingFile(values.config, values.name), async (setting) =>
      management.serviceSettings.crawlSettingErrors(
        (await management.serviceSettings.get(EVERYWHERE, id)).contractId,
        setting,
      ),
    );
    await management.serviceSettings.update(CLI_ACTOR, EVERYWHERE, id, draft);
    print(`crawl service setting ${id} replaced`);
  },
  'setting delete': async ({ management, positionals, print }) => {
    const id = settingId(positionals);
    await management.serviceSettings.delete(CLI_ACTOR, EVERYWHERE, id);
    print(`crawl service setting ${id} deleted`);
  },
  'setting run': async ({ management, positionals, print }) => {
    const id = settingId(positionals);
    const run = await management.serviceSettings.runNow(CLI_ACTOR, EVERYWHERE, id);
    print(`run ${run.id} queued for crawl service setting ${id}`);
  },
  'setting pause': async ({ management, positionals, print }) => {
    const id = settingId(positionals);
    await management.serviceSettings.pause(CLI_ACTOR, EVERYWHERE, id);
    print(`schedule of crawl service setting ${id} paused`);
  },
  'setting resume': async ({ management, positionals, print, timezone }) => {
    const id = settingId(positionals);
    const resumed = await management.serviceSettings.resume(CLI_ACTOR, EVERYWHERE, id);
    print(
      `schedule of crawl service setting ${id} resumed; next run ${printedTime(resumed.nextRunMicros, timezone)}`,
    );
  },
};

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

const FILE_KEYS = ['name', 'setting', 'schedule', 'service_id'];

/** A `--config` file read: the draft it holds, and what is wrong with the file's own fields. */
interface SettingFile {
  file: string;
  draft: ServiceSettingDraft;
  errors: FieldError[];
}

/**
 * The draft of a file without mistakes of its own, for the management operation to check with the
 * rest; a file with some is refused with every field error at once, the crawl setting's included
 * (checked by `settingErrors`, the management operations' one check of a setting).
 */
async function checkedFile(
  read: SettingFile,
  settingErrors: (setting: unknown) => Promise<FieldError[]>,
): Promise<ServiceSettingDraft> {
  if (read.errors.length === 0) return read.draft;
  const setting = read.draft.setting === undefined ? [] : await settingErrors(read.draft.setting);
  throw fieldUsageError(`--config ${read.file}`, [...setting, ...read.errors]);
}

/**
 * The `--config` file: the body of the management API's POST/PUT service_settings,
 * `{"setting", "schedule", "service_id"}` (and optionally `name`; `--name` wins). Its own fields
 * are checked here (the schedule with the API's schema); the crawl setting is checked by the
 * management operation, as for the API. Without a name the operation keeps the stored one.
 */
function readSettingFile(file: string | undefined, nameOption: string | undefined): SettingFile {
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
  if (body.schedule !== undefined) errors.push(...validateSchedule(body.schedule, 'schedule'));
  const serviceId = body.service_id ?? null;
  if (serviceId !== null && !(Number.isSafeInteger(serviceId) && (serviceId as number) >= 1)) {
    errors.push({ field: 'service_id', reason: 'must be a positive integer id or null' });
  }
  if (body.name !== undefined && (typeof body.name !== 'string' || body.name.length > NAME_MAX_CHARS)) {
    errors.push({ field: 'name', reason: `must be a string of at most ${NAME_MAX_CHARS} characters` });
  }
  const draft = {
    name: nameOption === undefined ? (body.name as string | undefined) : requiredName(nameOption),
    setting: body.setting,
    schedule: body.schedule as Schedule,
    searchServiceId: serviceId as number | null,
  };
  return { file, draft, errors };
}
