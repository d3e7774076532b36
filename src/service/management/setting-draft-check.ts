import type { InstantCrawlerSetting } from '../../domain/crawl-setting-schema.js';
import { type FieldError, InvalidInputError } from '../../domain/field-error.js';
import { restoreRedactedPasswords } from './kept-passwords.js';
import { checkSchedule, nextSlotAfter, type Schedule } from '../../domain/schedule.js';
import type { ServiceSettingInput } from '../../store/service-store.js';
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

/** How many run times a schedule preview shows. */
export const PREVIEWED_RUNS = 5;

/**
 * The draft checked beyond its schema (URLs, patterns, the fields the interval needs), with the
 * redacted passwords replaced by the stored ones; InvalidInputError naming every bad field.
 * `settingErrors` checks the crawl setting in the tenant work threads (its patterns compile
 * there: docs/security.md, Tenant work off the API thread).
 */
export async function checkedInput(
  draft: ServiceSettingDraft,
  defaultName: string,
  stored: InstantCrawlerSetting | undefined,
  settingErrors: (setting: InstantCrawlerSetting) => Promise<FieldError[]>,
): Promise<ServiceSettingInput> {
  const name = checkedLength(draft.name?.trim() ?? defaultName, 'name');
  const restored = restoreRedactedPasswords(draft.setting, stored, 'setting');
  const errors = [
    ...(await settingErrors(restored.setting)),
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

/** The next `PREVIEWED_RUNS` slots of a valid schedule after `nowMicros`; none when it is off. */
export function nextRuns(schedule: Schedule, nowMicros: number, timezone: string): number[] {
  const runs: number[] = [];
  let after = nowMicros;
  while (runs.length < PREVIEWED_RUNS) {
    const next = nextSlotAfter(schedule, after, timezone);
    if (next === undefined) break;
    runs.push(next);
    after = next;
  }
  return runs;
}
