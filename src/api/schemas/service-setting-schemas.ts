import { Type } from '@sinclair/typebox';
import { InstantCrawlerSettingSchema, ScheduleSchema } from '../../domain/schemas.js';
import { NAME_MAX_CHARS, PREVIEWED_RUNS } from '../../usecases/index.js';
import {
  datetime,
  GroupParams,
  nullableDatetime,
  ok,
  responses,
  route,
  ServiceSettingParams,
} from './admin-schema-parts.js';
import { IdParam, NgBodySchema, RUN_MESSAGE_DESCRIPTION } from './common-schemas.js';

/** Schemas of crawl service settings under /admin/v1 (docs/api.md, Scheduled crawler). */

const ServiceSettingBody = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        maxLength: NAME_MAX_CHARS,
        description: 'label of the setting; PUT without it keeps the name',
      }),
    ),
    setting: InstantCrawlerSettingSchema,
    schedule: ScheduleSchema,
    service_id: Type.Optional(
      Type.Union([IdParam('search service id'), Type.Null()], {
        description: 'the search service of this service group the runs feed; absent or null: crawl only',
      }),
    ),
  },
  { additionalProperties: false },
);

const ServiceSettingView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  setting: Type.Object(InstantCrawlerSettingSchema.properties, {
    additionalProperties: false,
    description: 'the crawler setting; passwords of authorizations read ******** (they are write-only)',
  }),
  schedule: ScheduleSchema,
  service_id: Type.Union([Type.Integer(), Type.Null()]),
  next_run_datetime: nullableDatetime('next schedule slot; null when the schedule is disabled or paused'),
  paused_datetime: nullableDatetime(
    'when the schedule was paused (no slot starts a run; run now still does); null while it runs',
  ),
  active_run_id: Type.Union([Type.Integer(), Type.Null()], {
    description: 'the run of this setting that is pending or running, if any',
  }),
  created_datetime: datetime('created'),
  updated_datetime: datetime('last changed'),
});

export const ScheduledHistorySchema = Type.Object({
  id: Type.Integer({ description: 'run id' }),
  crawl_execution_status_dtype_id: Type.Integer({
    description: '2010 pending, 2020 running, 2030 stopped, 2040 fault, 2050 cancel, 2060 timeout',
  }),
  crawl_execution_status_dtype_name: Type.String(),
  is_cancel_request: Type.Boolean(),
  start_datetime: Type.Optional(datetime('crawl start (absent while pending)')),
  end_datetime: Type.Optional(datetime('crawl end (absent until finished)')),
  crawl_url_list_path: Type.Optional(Type.String()),
  message: Type.Optional(Type.String({ description: RUN_MESSAGE_DESCRIPTION })),
});

export const ListServiceSettingsSchema = {
  ...route('List the crawl service settings of a service group'),
  params: GroupParams,
  response: responses(ok({ service_settings: Type.Array(ServiceSettingView) })),
};

export const CreateServiceSettingSchema = {
  ...route(
    'Create a crawl service setting',
    'A crawler setting, the schedule it runs on and the search service its runs feed. The first ' +
      'scheduled run is at the next schedule slot.',
  ),
  params: GroupParams,
  body: ServiceSettingBody,
  response: responses(ok({ service_setting_id: Type.Integer() })),
};

export const GetServiceSettingSchema = {
  ...route('Show a crawl service setting'),
  params: ServiceSettingParams,
  response: responses(ok({ service_setting: ServiceSettingView })),
};

export const UpdateServiceSettingSchema = {
  ...route(
    'Replace a crawl service setting',
    'Replaces the crawler setting, the schedule and the search service (absent: none). A changed ' +
      'schedule counts from now: slots before the change do not run. A password of ******** keeps ' +
      'the stored password of the authorization at the same position when its user and the hosts the password ' +
      'may be sent to are unchanged (without url_pattern the seed sites; with it the url_pattern, seed sites, ' +
      'allow and deny patterns, sitemap_urls sites and page rendering), so a setting read with GET can be ' +
      'edited and sent back; otherwise a 400 names the password, which must be given again.',
  ),
  params: ServiceSettingParams,
  body: ServiceSettingBody,
  response: responses(ok({ service_setting: ServiceSettingView })),
};

export const DeleteServiceSettingSchema = {
  ...route(
    'Delete a crawl service setting',
    'A run in progress is cancelled; the run history and artifacts stay.',
  ),
  params: ServiceSettingParams,
  response: responses(ok({})),
};

export const RunServiceSettingSchema = {
  ...route('Run a crawl service setting now', '409 while a run of the setting is pending or running.'),
  params: ServiceSettingParams,
  response: responses(ok({ run_id: Type.Integer(), crawl_history: ScheduledHistorySchema }), {
    409: NgBodySchema,
  }),
};

export const PauseServiceSettingSchema = {
  ...route(
    "Pause a crawl service setting's schedule",
    'No schedule slot starts a run until it is resumed; run now still starts one and a run in progress goes on. ' +
      'Pausing a paused schedule changes nothing.',
  ),
  params: ServiceSettingParams,
  response: responses(ok({ service_setting: ServiceSettingView })),
};

export const ResumeServiceSettingSchema = {
  ...route(
    "Resume a crawl service setting's schedule",
    'The schedule runs again from its next slot: the slots that passed while it was paused do not run.',
  ),
  params: ServiceSettingParams,
  response: responses(ok({ service_setting: ServiceSettingView })),
};

const CheckQuery = Type.Object({
  test_url: Type.Optional(
    Type.Array(Type.String({ maxLength: 8192 }), {
      maxItems: 20,
      description: 'URLs to test against the setting: would a run of it crawl them? (repeatable, at most 20)',
    }),
  ),
});

const UrlVerdictView = Type.Object({
  url: Type.String({ description: 'the URL as the crawler writes it' }),
  verdict: Type.Union(
    ['crawled', 'denied', 'not_allowed', 'file_type', 'too_long', 'not_a_url', 'not_http'].map((name) =>
      Type.Literal(name),
    ),
    {
      description:
        'crawled: inside the scope (links still need to reach it within depth_limit); denied: a deny ' +
        'pattern matched; not_allowed: no allow pattern matched, or (without allow patterns) its host is ' +
        'not a seed host or a subdomain of one on the seed port; file_type: a PDF or office file the ' +
        'setting leaves out; too_long: longer than the crawler follows; not_a_url / not_http: not an ' +
        'absolute http(s) URL',
    },
  ),
  pattern: Type.Union([Type.String(), Type.Null()], {
    description: 'the deny pattern that matched, or the allow pattern that let the URL in',
  }),
});

const CheckAnswer = ok({
  next_run_datetimes: Type.Array(datetime('a coming schedule slot'), {
    description: `the next ${PREVIEWED_RUNS} runs of the schedule from now (empty when it is disabled)`,
  }),
  url_checks: Type.Array(UrlVerdictView, { description: 'one per test_url, in order' }),
});

const CHECK_DESCRIPTION =
  'Checks the body exactly as the create / replace route would, and stores nothing: 400 with the ' +
  'same field errors, or 200 with the next run times of the schedule and what the crawl scope says ' +
  'of each test_url. Viewers may call it. The console checks its editor with it as a person types.';

export const CheckNewServiceSettingSchema = {
  ...route('Check a new crawl service setting without creating it', CHECK_DESCRIPTION),
  params: GroupParams,
  querystring: CheckQuery,
  body: ServiceSettingBody,
  response: responses(CheckAnswer),
};

export const CheckServiceSettingSchema = {
  ...route(
    'Check a replacement of a crawl service setting without storing it',
    `${CHECK_DESCRIPTION} Passwords of ******** are the stored ones, as in a replace (only while the hosts they may be sent to are unchanged).`,
  ),
  params: ServiceSettingParams,
  querystring: CheckQuery,
  body: ServiceSettingBody,
  response: responses(CheckAnswer),
};
