import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { InstantCrawlerSetting } from '../../../domain/crawl-setting-schema.js';
import { checkCrawlSetting } from '../../../domain/crawl-settings.js';
import { redactSetting, restoreRedactedPasswords } from '../../../domain/redact-setting.js';
import { checkSchedule, nextSlotAfter, type Schedule } from '../../../domain/schedule.js';
import type { ServiceSettingInput, ServiceSettingRecord, TenantRef } from '../../../store/service-store.js';
import { ApiError } from '../../api-error.js';
import { scheduledHistoryView } from '../../../service/run-views.js';
import {
  CreateServiceSettingSchema,
  DeleteServiceSettingSchema,
  GetServiceSettingSchema,
  ListServiceSettingsSchema,
  RunServiceSettingSchema,
  UpdateServiceSettingSchema,
} from '../../schemas/admin-schemas.js';
import {
  type AdminRoutesOptions,
  datetimeOf,
  GROUP_PATH,
  invalidInput,
  methodRecorder,
  nowMicros,
  requireGroup,
  withBodyFields,
} from './admin-support.js';

const SETTINGS_PATH = `${GROUP_PATH}/service_settings`;
const SETTING_PATH = `${SETTINGS_PATH}/:service_setting_id`;

/** The body of POST and PUT, as the schema has let it through. */
interface SettingBody {
  name?: string;
  setting: unknown;
  schedule: Schedule;
  service_id?: number | null;
}

/**
 * Crawl service settings (a crawler setting, its schedule and the search service it feeds) and
 * "run now", through ScheduledCrawlService, which checks the search service and keeps the
 * schedule slots.
 */
export const serviceSettingRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { store, scheduledCrawl, timezone } = options;
  const record = methodRecorder(options);

  const view = (setting: ServiceSettingRecord) => {
    const next = nextSlotAfter(setting.schedule, nowMicros(), timezone);
    return {
      id: setting.id,
      name: setting.name,
      // Passwords are write-only: answers show ******** (a PUT of ******** keeps the stored one).
      setting: redactSetting(setting.setting),
      schedule: setting.schedule,
      service_id: setting.searchServiceId,
      next_run_datetime: next === undefined ? null : datetimeOf(next, timezone),
      active_run_id: store.runs.activeRunOfSetting(setting.id)?.id ?? null,
      created_datetime: datetimeOf(setting.createdMicros, timezone),
      updated_datetime: datetimeOf(setting.updatedMicros, timezone),
    };
  };

  const requireSetting = (tenant: TenantRef, id: number): ServiceSettingRecord => {
    const setting = scheduledCrawl.get(tenant, id);
    if (!setting) throw new ApiError('not_found', `no crawl service setting ${id} in this service group`);
    return setting;
  };

  record('GET', SETTINGS_PATH);
  app.get(SETTINGS_PATH, { schema: ListServiceSettingsSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const settings = scheduledCrawl.list(tenant);
    return {
      status: 'OK' as const,
      message: `${settings.length} crawl service setting(s)`,
      service_settings: settings.map(view),
    };
  });

  record('POST', SETTINGS_PATH);
  app.post(SETTINGS_PATH, { schema: CreateServiceSettingSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const input = inputOf(request.body, '', undefined);
    const created = withBodyFields(() => scheduledCrawl.create(tenant, input));
    return {
      status: 'OK' as const,
      message: `crawl service setting ${created.id} created`,
      service_setting_id: created.id,
    };
  });

  record('GET', SETTING_PATH);
  app.get(SETTING_PATH, { schema: GetServiceSettingSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const setting = requireSetting(tenant, request.params.service_setting_id);
    return {
      status: 'OK' as const,
      message: `crawl service setting ${setting.id}`,
      service_setting: view(setting),
    };
  });

  record('PUT', SETTING_PATH);
  app.put(SETTING_PATH, { schema: UpdateServiceSettingSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const existing = requireSetting(tenant, request.params.service_setting_id);
    const input = inputOf(request.body, existing.name, existing.setting);
    const updated = withBodyFields(() => scheduledCrawl.update(existing, input));
    return {
      status: 'OK' as const,
      message: `crawl service setting ${updated.id} replaced`,
      service_setting: view(updated),
    };
  });

  record('DELETE', SETTING_PATH);
  app.delete(SETTING_PATH, { schema: DeleteServiceSettingSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const existing = requireSetting(tenant, request.params.service_setting_id);
    scheduledCrawl.delete(existing);
    return { status: 'OK' as const, message: `crawl service setting ${existing.id} deleted` };
  });

  record('POST', `${SETTING_PATH}/run`);
  app.post(`${SETTING_PATH}/run`, { schema: RunServiceSettingSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const setting = requireSetting(tenant, request.params.service_setting_id);
    const result = scheduledCrawl.runNow(setting);
    if (result.kind === 'busy') {
      throw new ApiError(
        'conflict',
        `run ${result.run.id} of crawl service setting ${setting.id} is still pending or running`,
      );
    }
    return {
      status: 'OK' as const,
      message: `run ${result.run.id} of crawl service setting ${setting.id} started`,
      run_id: result.run.id,
      crawl_history: scheduledHistoryView(result.run, timezone),
    };
  });
};

/**
 * The body checked beyond the schema (URLs, patterns, the fields the interval needs), with the
 * redacted passwords of a setting read back from GET replaced by the stored ones.
 */
function inputOf(
  body: SettingBody,
  defaultName: string,
  stored: InstantCrawlerSetting | undefined,
): ServiceSettingInput {
  const restored = restoreRedactedPasswords(body.setting as InstantCrawlerSetting, stored, 'body.setting');
  const setting = restored.setting;
  const errors = [
    ...checkCrawlSetting(setting, 'body.setting'),
    ...restored.errors,
    ...checkSchedule(body.schedule, 'body.schedule'),
  ];
  if (errors.length > 0) throw invalidInput(errors);
  return {
    name: body.name?.trim() ?? defaultName,
    setting,
    schedule: body.schedule,
    searchServiceId: body.service_id ?? null,
  };
}
