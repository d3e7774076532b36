import { Type } from '@sinclair/typebox';
import { SearchServiceConfigSchema } from '../../domain/schemas.js';
import {
  DELIVERIES_LIMIT,
  MAX_WEBHOOKS_PER_GROUP,
  NAME_MAX_CHARS,
  PING_LIMITS,
  WEBHOOK_SECRET_CHARS,
  WEBHOOK_URL_MAX_CHARS,
} from '../../usecases/index.js';
import { NgBodySchema } from './common-schemas.js';
import {
  ApiKeyParams,
  ContractParams,
  datetime,
  DeliveryParams,
  GroupParams,
  Name,
  nullableDatetime,
  ok,
  responses,
  route,
  SearchServiceParams,
  WebhookParams,
} from './admin-schema-parts.js';

/**
 * Schemas of the management API (/admin/v1): tenants and API keys, search services and webhooks
 * (crawl service settings: service-setting-schemas.ts).
 */

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
  last_used_datetime: nullableDatetime(
    'when the key last authenticated a request, to the minute; null: never',
  ),
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
  last_duration_ms: Type.Union([Type.Integer(), Type.Null()], {
    description: 'how long the last attempt took, until the answer or the failure; null before one',
  }),
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
  ...route(
    'Register a webhook',
    'Run events are POSTed to the URL, signed with the secret (HMAC-SHA256). A service group has ' +
      `at most ${MAX_WEBHOOKS_PER_GROUP} webhooks: one more is a 409.`,
  ),
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
  response: responses(ok({ webhook_id: Type.Integer() }), { 409: NgBodySchema }),
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

export const PingWebhookSchema = {
  ...route(
    'Send a test ping to a webhook',
    'Queues a `webhook.ping` delivery now, signed and retried like any other; its answer shows in the ' +
      `deliveries. A contract may ping ${PING_LIMITS.burst} times, then ${PING_LIMITS.perMinute} a ` +
      'minute: over it a 429 with Retry-After.',
  ),
  params: WebhookParams,
  response: responses(ok({ delivery: DeliveryView })),
};

export const ReplayDeliverySchema = {
  ...route('Deliver a webhook delivery again', 'Queues it for now, whatever its state.'),
  params: DeliveryParams,
  response: responses(ok({ delivery: DeliveryView })),
};
