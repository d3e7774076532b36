import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { redactSetting } from '../../domain/index.js';
import { type ScheduledCrawlService, scheduledHistoryView } from '../../usecases/index.js';
import type { ServiceSettingRecord } from '../../store/index.js';
import { ApiError } from '../api-error.js';
import type { MethodRegistry } from '../method-not-allowed.js';
import { checkDatetimeRange, parseDatetimeParameter } from '../query-datetime.js';
import {
  SettingHistoriesSchema,
  StoredScheduleSchema,
  StoredSettingSchema,
} from '../schemas/scheduled-crawler-schemas.js';

export interface ScheduledCrawlerRoutesOptions {
  service: ScheduledCrawlService;
  timezone: string;
  methods: MethodRegistry;
  basePath: string;
}

const SETTING_PATH =
  '/contracts/:contract_id/servicegroups/:servicegroup_id/service_settings/:service_setting_id';

interface SettingParams {
  contract_id: number;
  servicegroup_id: number;
  service_setting_id: number;
}

/**
 * The scheduled crawler API (docs/reference/scheduled-crawler.md, Scheduled crawler API): histories,
 * settings, schedule. It needs no API key (docs/reference/conventions.md, Authentication).
 */
export const scheduledCrawlerRoutes: FastifyPluginAsyncTypebox<ScheduledCrawlerRoutesOptions> = async (
  app,
  options,
) => {
  const { service, timezone } = options;
  for (const leaf of ['histories', 'settings', 'schedule'])
    options.methods.record(`${options.basePath}${SETTING_PATH}/${leaf}`, 'GET');

  /** The setting of the path, which must belong to the path's contract and service group. */
  const settingOf = async (params: SettingParams): Promise<ServiceSettingRecord> => {
    const tenant = { contractId: params.contract_id, servicegroupId: params.servicegroup_id };
    const setting = await service.get(tenant, params.service_setting_id);
    if (!setting) throw new ApiError('not_found', `no service setting ${params.service_setting_id}`);
    return setting;
  };

  app.get(`${SETTING_PATH}/histories`, { schema: SettingHistoriesSchema }, async (request) => {
    const setting = await settingOf(request.params);
    const fromMicros = parseDatetimeParameter(request.query.from_datetime, 'from_datetime');
    const toMicros = parseDatetimeParameter(request.query.to_datetime, 'to_datetime');
    if (fromMicros === undefined || toMicros === undefined) {
      const name = fromMicros === undefined ? 'from_datetime' : 'to_datetime';
      throw new ApiError('invalid_input', `${name}: is required`, [
        { field: `query.${name}`, reason: 'is required' },
      ]);
    }
    checkDatetimeRange(fromMicros, toMicros);
    const runs = await service.histories(setting, fromMicros, toMicros);
    return {
      status: 'OK',
      message: `${runs.length} crawl history record(s)`,
      contents: runs.map((run) => scheduledHistoryView(run, timezone)),
    };
  });

  app.get(`${SETTING_PATH}/settings`, { schema: StoredSettingSchema }, async (request) => ({
    status: 'OK',
    message: 'crawler setting',
    // The API has no key: stored passwords are never shown.
    setting: redactSetting((await settingOf(request.params)).setting),
  }));

  app.get(`${SETTING_PATH}/schedule`, { schema: StoredScheduleSchema }, async (request) => ({
    status: 'OK',
    message: 'schedule',
    schedule: (await settingOf(request.params)).schedule,
  }));
};
