import { type TSchema, Type } from '@sinclair/typebox';
import { InstantCrawlerSettingSchema } from '../../domain/crawl-setting-schema.js';
import { ScheduleSchema } from '../../domain/schedule.js';
import { SearchServiceConfigSchema } from '../../domain/search-service-config.js';
import {
  DELIVERIES_LIMIT,
  NAME_MAX_CHARS,
  WEBHOOK_SECRET_CHARS,
  WEBHOOK_URL_MAX_CHARS,
} from '../../service/management/index.js';
import { FAILURE_RESPONSES, IdParam, NgBodySchema, RUN_MESSAGE_DESCRIPTION } from './common-schemas.js';

/**
 * Schemas of the management API (/admin/v1): tenants and API keys, crawl service settings,
 * search services and webhooks. Every route takes `Authorization: Bearer <KUMO_ADMIN_TOKEN>`.
 */

const TAGS = ['admin'];
const SECURITY = [{ adminToken: [] }];

const datetime = (description: string) =>
  Type.String({ description: `${description}; yyyy-MM-ddTHH:mm:ss.SSSSSS+NN:NN in the service time zone` });
const nullableDatetime = (description: string) => Type.Union([datetime(description), Type.Null()]);

const Name = (description: string) => Type.String({ minLength: 1, maxLength: NAME_MAX_CHARS, description });

/** `{"status": "OK", "message", ...members}` */
const ok = <T extends Record<string, TSchema>>(members: T) =>
  Type.Object({ status: Type.Literal('OK'), message: Type.String(), ...members });

const responses = <T extends TSchema>(success: T, extra: Record<number, TSchema> = {}) => ({
  200: success,
  ...FAILURE_RESPONSES,
  ...extra,
});

/** The parts of every admin route's schema that document it in OpenAPI. */
const route = (summary: string, description?: string) => ({
  summary,
  ...(description === undefined ? {} : { description }),
  tags: TAGS,
  security: SECURITY,
});

// ---------------------------------------------------------------- path parameters

export const ContractParams = Type.Object({ contract_id: IdParam('contract id') });
export const GroupParams = Type.Object({
  ...ContractParams.properties,
  servicegroup_id: IdParam('service group id'),
});
export const ApiKeyParams = Type.Object({ ...GroupParams.properties, api_key_id: IdParam('API key id') });
export const ServiceSettingParams = Type.Object({
  ...GroupParams.properties,
  service_setting_id: IdParam('crawl service setting id'),
});
export const SearchServiceParams = Type.Object({
  ...GroupParams.properties,
  service_id: IdParam('search service id'),
});
export const WebhookParams = Type.Object({ ...GroupParams.properties, webhook_id: IdParam('webhook id') });
export const DeliveryParams = Type.Object({
  ...WebhookParams.properties,
  delivery_id: IdParam('webhook delivery id'),
});

// ---------------------------------------------------------------- contracts and service groups

const ContractView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  created_datetime: datetime('created'),
});
const ServiceGroupView = Type.Object({
  id: Type.Integer(),
  contract_id: Type.Integer(),
  name: Type.String(),
  created_datetime: datetime('created'),
});
const NameBody = (what: string) =>
  Type.Object({ name: Name(`name of the ${what}`) }, { additionalProperties: false });

export const ListContractsSchema = {
  ...route('List contracts'),
  response: responses(ok({ contracts: Type.Array(ContractView) })),
};

export const CreateContractSchema = {
  ...route('Create a contract'),
  body: NameBody('contract'),
  response: responses(ok({ contract_id: Type.Integer() })),
};

export const GetContractSchema = {
  ...route('Show a contract'),
  params: ContractParams,
  response: responses(ok({ contract: ContractView })),
};

export const ListServiceGroupsSchema = {
  ...route('List the service groups of a contract'),
  params: ContractParams,
  response: responses(ok({ servicegroups: Type.Array(ServiceGroupView) })),
};

export const CreateServiceGroupSchema = {
  ...route('Create a service group in a contract'),
  params: ContractParams,
  body: NameBody('service group'),
  response: responses(ok({ servicegroup_id: Type.Integer() })),
};

export const GetServiceGroupSchema = {
  ...route('Show a service group'),
  params: GroupParams,
  response: responses(ok({ servicegroup: ServiceGroupView })),
};

// ---------------------------------------------------------------- API keys

const ApiKeyView = Type.Object({
  id: Type.Integer(),
  prefix: Type.String({ description: 'first characters of the key, to recognise it' }),
  label: Type.String(),
  created_datetime: datetime('created'),
  revoked_datetime: nullableDatetime('revoked; null while the key is valid'),
});

export const ListApiKeysSchema = {
  ...route('List the API keys of a service group', 'The keys themselves are never shown again.'),
  params: GroupParams,
  response: responses(ok({ api_keys: Type.Array(ApiKeyView) })),
};

export const CreateApiKeySchema = {
  ...route(
    'Create an API key for a service group',
    'The key is in this response only: it is stored as a hash and cannot be shown again.',
  ),
  params: GroupParams,
  body: Type.Object(
    { label: Type.Optional(Type.String({ maxLength: NAME_MAX_CHARS, description: 'what the key is for' })) },
    { additionalProperties: false },
  ),
  response: responses(
    ok({
      api_key_id: Type.Integer(),
      api_key: Type.String({ description: 'the key for the x-mf-apikey header, shown once' }),
      prefix: Type.String(),
    }),
  ),
};

export const RevokeApiKeySchema = {
  ...route('Revoke an API key', '404 when the key is not of this service group or is already revoked.'),
  params: ApiKeyParams,
  response: responses(ok({})),
};

// ---------------------------------------------------------------- crawl service settings

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
  next_run_datetime: nullableDatetime('next schedule slot; null when the schedule is disabled'),
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
      'the stored password of the authorization at the same position when its user and url_pattern are unchanged, ' +
      'so a setting read with GET can be edited and sent back.',
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

// ---------------------------------------------------------------- search services

const SearchServiceView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  config: SearchServiceConfigSchema,
  created_datetime: datetime('created'),
  updated_datetime: datetime('last changed'),
});

export const ListSearchServicesSchema = {
  ...route('List the search services of a service group'),
  params: GroupParams,
  response: responses(ok({ search_services: Type.Array(SearchServiceView) })),
};

export const CreateSearchServiceSchema = {
  ...route('Create a search service'),
  params: GroupParams,
  body: Type.Object(
    {
      name: Name('name of the search service'),
      config: Type.Optional(SearchServiceConfigSchema),
    },
    { additionalProperties: false },
  ),
  response: responses(ok({ service_id: Type.Integer() })),
};

export const GetSearchServiceSchema = {
  ...route('Show a search service and its configuration'),
  params: SearchServiceParams,
  response: responses(ok({ search_service: SearchServiceView })),
};

export const UpdateSearchServiceSchema = {
  ...route(
    'Replace the configuration of a search service',
    'Category rules, drill-down rules, allowed origins and weights; applies to the next search.',
  ),
  params: SearchServiceParams,
  body: Type.Object({ config: SearchServiceConfigSchema }, { additionalProperties: false }),
  response: responses(ok({ search_service: SearchServiceView })),
};

// ---------------------------------------------------------------- webhooks

const WebhookView = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  created_datetime: datetime('created'),
});

const DeliveryView = Type.Object({
  id: Type.Integer(),
  event: Type.String(),
  event_id: Type.String(),
  state: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  last_status_code: Type.Union([Type.Integer(), Type.Null()]),
  last_error: Type.String(),
  next_attempt_datetime: nullableDatetime('next attempt; null unless pending'),
  created_datetime: datetime('queued'),
  delivered_datetime: nullableDatetime('delivered; null until then'),
});

export const ListWebhooksSchema = {
  ...route('List the webhooks of a service group', 'Secrets are never shown.'),
  params: GroupParams,
  response: responses(ok({ webhooks: Type.Array(WebhookView) })),
};

export const CreateWebhookSchema = {
  ...route('Register a webhook', 'Run events are POSTed to the URL, signed with the secret (HMAC-SHA256).'),
  params: GroupParams,
  body: Type.Object(
    {
      url: Type.String({
        minLength: 1,
        maxLength: WEBHOOK_URL_MAX_CHARS,
        description: 'absolute http(s) URL',
      }),
      secret: Type.String({
        minLength: WEBHOOK_SECRET_CHARS.min,
        maxLength: WEBHOOK_SECRET_CHARS.max,
        description: `signing secret, ${WEBHOOK_SECRET_CHARS.min} to ${WEBHOOK_SECRET_CHARS.max} characters`,
      }),
    },
    { additionalProperties: false },
  ),
  response: responses(ok({ webhook_id: Type.Integer() })),
};

export const GetWebhookSchema = {
  ...route('Show a webhook'),
  params: WebhookParams,
  response: responses(ok({ webhook: WebhookView })),
};

export const DeleteWebhookSchema = {
  ...route('Delete a webhook', 'Deliveries not yet made fail with "webhook deleted".'),
  params: WebhookParams,
  response: responses(ok({})),
};

export const ListDeliveriesSchema = {
  ...route('Deliveries of a webhook, newest first'),
  params: WebhookParams,
  querystring: Type.Object(
    {
      limit: Type.Integer({
        minimum: DELIVERIES_LIMIT.min,
        maximum: DELIVERIES_LIMIT.max,
        default: DELIVERIES_LIMIT.fallback,
        description: 'at most this many',
      }),
    },
    { additionalProperties: false },
  ),
  response: responses(ok({ deliveries: Type.Array(DeliveryView) })),
};

export const ReplayDeliverySchema = {
  ...route('Deliver a webhook delivery again', 'Queues it for now, whatever its state.'),
  params: DeliveryParams,
  response: responses(ok({ delivery: DeliveryView })),
};
