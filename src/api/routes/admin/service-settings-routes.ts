import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { InstantCrawlerSetting, Schedule } from '../../../domain/schemas.js';
import {
  type DraftCheck,
  type ManagedServiceSetting,
  type ServiceSettingDraft,
  scheduledHistoryView,
} from '../../../usecases/index.js';
import {
  CheckNewServiceSettingSchema,
  CheckServiceSettingSchema,
  CreateServiceSettingSchema,
  DeleteServiceSettingSchema,
  GetServiceSettingSchema,
  ListServiceSettingsSchema,
  PauseServiceSettingSchema,
  ResumeServiceSettingSchema,
  RunServiceSettingSchema,
  UpdateServiceSettingSchema,
} from '../../schemas/service-setting-schemas.js';
import {
  type AdminRoutesOptions,
  datetimeOf,
  GROUP_PATH,
  methodRecorder,
  tenantOf,
} from './admin-support.js';
import { actorOf } from './management-auth.js';
import { ATTACH_VALIDATION, failOnBodyErrors } from '../../every-field-error.js';

const SETTINGS_PATH = `${GROUP_PATH}/service_settings`;
const SETTING_PATH = `${SETTINGS_PATH}/:service_setting_id`;

/** The body of POST and PUT, as the schema has let it through. */
interface SettingBody {
  name?: string;
  setting: unknown;
  schedule: Schedule;
  service_id?: number | null;
}

/** The body as the management layer takes it (its fields named without `body.`). */
const draftOf = (body: SettingBody): ServiceSettingDraft => ({
  name: body.name,
  setting: body.setting as InstantCrawlerSetting,
  schedule: body.schedule,
  searchServiceId: body.service_id,
});

/** Crawl service settings (a crawler setting, its schedule and the search service it feeds) and "run now". */
export const serviceSettingRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { management, timezone } = options;
  const settings = management.serviceSettings;
  const record = methodRecorder(options);

  const view = (setting: ManagedServiceSetting) => ({
    id: setting.id,
    name: setting.name,
    // Passwords are write-only: answers show ******** (a PUT of ******** keeps the stored one while
    // the hosts it may be sent to are unchanged: docs/security.md, Stored passwords).
    setting: setting.setting,
    schedule: setting.schedule,
    service_id: setting.searchServiceId,
    next_run_datetime: datetimeOf(setting.nextRunMicros, timezone),
    paused_datetime: datetimeOf(setting.pausedMicros, timezone),
    active_run_id: setting.activeRunId,
    created_datetime: datetimeOf(setting.createdMicros, timezone),
    updated_datetime: datetimeOf(setting.updatedMicros, timezone),
  });

  /**
   * The rule errors of what the schema left of a body, as a check of the draft finds them (nothing
   * is stored): they are answered with the schema's (docs/api.md, Common rules).
   */
  const draftErrors =
    (params: { contract_id: number; servicegroup_id: number }, id: number | undefined) =>
    async (rest: unknown) => {
      await settings.check(tenantOf(params), id, draftOf(rest as SettingBody), []);
      return [];
    };

  record('GET', SETTINGS_PATH);
  app.get(SETTINGS_PATH, { schema: ListServiceSettingsSchema }, async (request) => {
    const listed = await settings.list(tenantOf(request.params));
    return {
      status: 'OK' as const,
      message: `${listed.length} crawl service setting(s)`,
      service_settings: listed.map(view),
    };
  });

  record('POST', SETTINGS_PATH);
  app.post(SETTINGS_PATH, { schema: CreateServiceSettingSchema, ...ATTACH_VALIDATION }, async (request) => {
    await failOnBodyErrors(request, draftErrors(request.params, undefined));
    const created = await settings.create(actorOf(request), tenantOf(request.params), draftOf(request.body));
    return {
      status: 'OK' as const,
      message: `crawl service setting ${created.id} created`,
      service_setting_id: created.id,
    };
  });

  const checkView = (checked: DraftCheck) => ({
    status: 'OK' as const,
    message: 'the setting is valid',
    next_run_datetimes: checked.nextRunsMicros.map((micros) => datetimeOf(micros, timezone)!),
    url_checks: checked.urlVerdicts,
  });

  record('POST', `${SETTINGS_PATH}/check`);
  app.post(
    `${SETTINGS_PATH}/check`,
    { schema: CheckNewServiceSettingSchema, ...ATTACH_VALIDATION },
    async (request) => {
      await failOnBodyErrors(request, draftErrors(request.params, undefined));
      const draft = draftOf(request.body);
      const testUrls = request.query.test_url ?? [];
      return checkView(await settings.check(tenantOf(request.params), undefined, draft, testUrls));
    },
  );

  record('POST', `${SETTING_PATH}/check`);
  app.post(
    `${SETTING_PATH}/check`,
    { schema: CheckServiceSettingSchema, ...ATTACH_VALIDATION },
    async (request) => {
      const { service_setting_id: id } = request.params;
      await failOnBodyErrors(request, draftErrors(request.params, id));
      const draft = draftOf(request.body);
      const testUrls = request.query.test_url ?? [];
      return checkView(await settings.check(tenantOf(request.params), id, draft, testUrls));
    },
  );

  for (const [action, schema] of [
    ['pause', PauseServiceSettingSchema],
    ['resume', ResumeServiceSettingSchema],
  ] as const) {
    record('POST', `${SETTING_PATH}/${action}`);
    app.post(`${SETTING_PATH}/${action}`, { schema }, async (request) => {
      const { service_setting_id: id } = request.params;
      const changed = await settings[action](actorOf(request), tenantOf(request.params), id);
      return {
        status: 'OK' as const,
        message: `schedule of crawl service setting ${id} ${action === 'pause' ? 'paused' : 'resumed'}`,
        service_setting: view(changed),
      };
    });
  }

  record('GET', SETTING_PATH);
  app.get(SETTING_PATH, { schema: GetServiceSettingSchema }, async (request) => {
    const setting = await settings.get(tenantOf(request.params), request.params.service_setting_id);
    return {
      status: 'OK' as const,
      message: `crawl service setting ${setting.id}`,
      service_setting: view(setting),
    };
  });

  record('PUT', SETTING_PATH);
  app.put(SETTING_PATH, { schema: UpdateServiceSettingSchema, ...ATTACH_VALIDATION }, async (request) => {
    const { service_setting_id: id } = request.params;
    await failOnBodyErrors(request, draftErrors(request.params, id));
    const updated = await settings.update(
      actorOf(request),
      tenantOf(request.params),
      id,
      draftOf(request.body),
    );
    return {
      status: 'OK' as const,
      message: `crawl service setting ${updated.id} replaced`,
      service_setting: view(updated),
    };
  });

  record('DELETE', SETTING_PATH);
  app.delete(SETTING_PATH, { schema: DeleteServiceSettingSchema }, async (request) => {
    const { service_setting_id: id } = request.params;
    await settings.delete(actorOf(request), tenantOf(request.params), id);
    return { status: 'OK' as const, message: `crawl service setting ${id} deleted` };
  });

  record('POST', `${SETTING_PATH}/run`);
  app.post(`${SETTING_PATH}/run`, { schema: RunServiceSettingSchema }, async (request) => {
    const { service_setting_id: id } = request.params;
    const run = await settings.runNow(actorOf(request), tenantOf(request.params), id);
    return {
      status: 'OK' as const,
      message: `run ${run.id} of crawl service setting ${id} started`,
      run_id: run.id,
      crawl_history: scheduledHistoryView(run, timezone),
    };
  });
};
