import { CrawlScope, type OutOfScopeReason } from '../../crawler/scope.js';
import type { InstantCrawlerSetting } from '../../domain/crawl-setting-schema.js';
import { checkCrawlSetting, resolveCrawlSettings } from '../../domain/crawl-settings.js';
import { InvalidInputError } from '../../domain/field-error.js';
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

/** Whether a URL would be crawled by a setting, and what decided it (docs/console.md, Pattern tester). */
export interface UrlVerdict {
  url: string;
  /** `crawled`, a reason of the crawl scope, or why the text is not a URL the crawler fetches. */
  verdict: 'crawled' | OutOfScopeReason | 'not_a_url' | 'not_http';
  /** The deny pattern that matched, or the allow pattern that let it in; null otherwise. */
  pattern: string | null;
}

/** How many run times a schedule preview shows. */
export const PREVIEWED_RUNS = 5;

/**
 * The draft checked beyond its schema (URLs, patterns, the fields the interval needs), with the
 * redacted passwords replaced by the stored ones; InvalidInputError naming every bad field.
 */
export function checkedInput(
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

/** What the crawl scope of a valid setting says of each URL (depth aside: it depends on the links). */
export function urlVerdicts(setting: InstantCrawlerSetting, urls: readonly string[]): UrlVerdict[] {
  const scope = new CrawlScope(resolveCrawlSettings(setting));
  return urls.map((text) => {
    let url: URL;
    try {
      url = new URL(text.trim());
    } catch {
      return { url: text, verdict: 'not_a_url', pattern: null };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return { url: url.href, verdict: 'not_http', pattern: null };
    }
    const explained = scope.explain(url);
    return { url: url.href, verdict: explained.outOfScope ?? 'crawled', pattern: explained.pattern ?? null };
  });
}
