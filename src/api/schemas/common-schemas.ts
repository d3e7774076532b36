import { Type } from '@sinclair/typebox';

/** Path ids are decimal integers; anything else is a 400 naming the parameter. */
export const IdParam = (description: string) =>
  Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1, description });

export const TenantParams = Type.Object({
  contract_id: IdParam('contract id'),
  servicegroup_id: IdParam('service group id'),
});

export const FieldErrorSchema = Type.Object({ field: Type.String(), reason: Type.String() });

export const NgBodySchema = Type.Object(
  {
    status: Type.Literal('NG'),
    message: Type.String(),
    errors: Type.Optional(Type.Array(FieldErrorSchema)),
  },
  { description: 'Body of every failure' },
);

export const ApiKeyHeader = Type.Object({
  'x-mf-apikey': Type.Optional(Type.String({ description: 'API key (required)' })),
  'x-request-id': Type.Optional(Type.String({ description: 'request id, echoed in the response' })),
});

/** Standard failure responses documented on every route. */
export const FAILURE_RESPONSES = {
  400: NgBodySchema,
  401: NgBodySchema,
  403: NgBodySchema,
  404: NgBodySchema,
  406: NgBodySchema,
  413: NgBodySchema,
  429: NgBodySchema,
  500: NgBodySchema,
  503: NgBodySchema,
};

/** `message` of a finished run's history record (docs/api.md, Instant crawl). */
export const RUN_MESSAGE_DESCRIPTION =
  'how the run ended, when there is something to say: the cause of a 2040, or the seeds that ' +
  'could not be fetched and why (extension)';
