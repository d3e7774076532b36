import { validateSearchServiceConfig, validateCrawlSetting } from '../domain/schemas.js';
import type { RecordStore } from '../store/index.js';

/** One problem of a stored crawl service setting or search service configuration. */
export interface StoredSettingProblem {
  kind: 'crawl service setting' | 'search service';
  id: number;
  field: string;
  reason: string;
}

/**
 * Validates every stored crawl service setting and search service configuration again, as the
 * API would now: one stored before patterns ran on RE2 may hold a pattern RE2 cannot express
 * (docs/operations.md, Patterns stored before RE2).
 */
export async function storedSettingProblems(
  store: Pick<RecordStore, 'serviceSettings' | 'searchServices'>,
): Promise<StoredSettingProblem[]> {
  const problems: StoredSettingProblem[] = [];
  for (const record of await store.serviceSettings.list()) {
    for (const error of validateCrawlSetting(record.setting, 'setting'))
      problems.push({ kind: 'crawl service setting', id: record.id, ...error });
  }
  for (const record of await store.searchServices.list()) {
    for (const error of validateSearchServiceConfig(record.config))
      problems.push({ kind: 'search service', id: record.id, ...error });
  }
  return problems;
}

/** What a problem costs until an operator changes the setting. */
const CONSEQUENCE: Record<StoredSettingProblem['kind'], string> = {
  'crawl service setting': 'its runs end 2040 until the setting is changed',
  'search service': 'searches leave the rule out until the configuration is changed',
};

/** Logs a warning per problem of the stored settings, at start (docs/operations.md). */
export async function warnAboutStoredSettings(
  store: Pick<RecordStore, 'serviceSettings' | 'searchServices'>,
  logger: { warn(fields: object, message: string): void },
): Promise<void> {
  for (const problem of await storedSettingProblems(store)) {
    const idField = problem.kind === 'search service' ? 'search_service_id' : 'service_setting_id';
    logger.warn(
      { [idField]: problem.id, field: problem.field, reason: problem.reason },
      `${problem.kind} ${problem.id}: ${problem.field}: ${problem.reason}; ${CONSEQUENCE[problem.kind]}`,
    );
  }
}
