import {
  type InstantCrawlerSetting,
  checkSchedule,
  nextSlotAfter,
  type Schedule,
} from '../../domain/schemas.js';
import { type FieldError, InvalidInputError } from '../../domain/index.js';
import { restoreRedactedPasswords } from './kept-passwords.js';
import type { ServiceSettingInput } from '../../store/index.js';
import { checkedLength } from './input-rules.js';

/**
 * A crawl service setting as given by an operator. The schedule has the shape of its schema
 * (checked by the caller's parser); the setting is checked here, schema and rules, whoever sends
 * it.
 */
export interface ServiceSettingDraft {
  /** Trimmed; absent: empty for a new setting, the stored name on an update. */
  name?: string | undefined;
  /**
   * As sent, checked by checkedInput; a password of `********` keeps the stored one (what a read
   * of the setting shows).
   */
  setting: unknown;
  schedule: Schedule;
  /** The search service the runs feed, of the same service group; absent or null: crawl only. */
  searchServiceId?: number | null | undefined;
}

/** How many run times a schedule preview shows. */
export const PREVIEWED_RUNS = 5;

/**
 * The draft checked (the setting's schema and rules, the fields the interval needs), with the
 * redacted passwords replaced by the stored ones; InvalidInputError naming every bad field.
 * `settingErrors` is the one check of a crawl setting, in the tenant work threads (its patterns
 * compile there: docs/security.md, Tenant work off the API thread); a redacted password passes
 * it as any other, and is replaced once the setting is known to be well formed.
 */
export async function checkedInput(
  draft: ServiceSettingDraft,
  defaultName: string,
  stored: InstantCrawlerSetting | undefined,
  settingErrors: (setting: unknown) => Promise<FieldError[]>,
): Promise<ServiceSettingInput> {
  const name = checkedLength(draft.name?.trim() ?? defaultName, 'name');
  const errors = await settingErrors(draft.setting);
  const restored =
    errors.length === 0
      ? restoreRedactedPasswords(draft.setting as InstantCrawlerSetting, stored, 'setting')
      : { setting: draft.setting as InstantCrawlerSetting, errors: [] };
  errors.push(...restored.errors, ...checkSchedule(draft.schedule, 'schedule'));
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
