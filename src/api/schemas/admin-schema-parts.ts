import { type TSchema, Type } from '@sinclair/typebox';
import { NAME_MAX_CHARS } from '../../usecases/index.js';
import { FAILURE_RESPONSES, IdParam } from './common-schemas.js';

/**
 * What the schemas of the management API (/admin/v1) share: the documentation of a route, the
 * answer envelope, datetimes and path parameters. Every route takes
 * `Authorization: Bearer <KUMO_ADMIN_TOKEN>` or a console session (docs/api.md, Management API).
 */

const TAGS = ['admin'];
const SECURITY = [{ adminToken: [] }];

export const datetime = (description: string) =>
  Type.String({ description: `${description}; yyyy-MM-ddTHH:mm:ss.SSSSSS+NN:NN in the service time zone` });
export const nullableDatetime = (description: string) => Type.Union([datetime(description), Type.Null()]);

export const Name = (description: string) =>
  Type.String({ minLength: 1, maxLength: NAME_MAX_CHARS, description });

/** `{"status": "OK", "message", ...members}` */
export const ok = <T extends Record<string, TSchema>>(members: T) =>
  Type.Object({ status: Type.Literal('OK'), message: Type.String(), ...members });

export const responses = <T extends TSchema>(success: T, extra: Record<number, TSchema> = {}) => ({
  200: success,
  ...FAILURE_RESPONSES,
  ...extra,
});

/** The parts of every admin route's schema that document it in OpenAPI. */
export const route = (summary: string, description?: string) => ({
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
