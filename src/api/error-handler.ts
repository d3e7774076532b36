import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidInputError } from '../domain/index.js';
import { TenantWorkBusyError } from '../usecases/index.js';
import { API_ERRORS, ApiError, ngBody } from './api-error.js';
import { toFieldErrors } from './validation-errors.js';

/** Fastify's own client errors mapped onto the catalog. */
const FASTIFY_CODES: Record<string, keyof typeof API_ERRORS> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_input',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_input',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_input',
};

/** Why Fastify refused a body, as the reason of an error naming the field `body`. */
const BODY_REASONS: Record<string, string> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'is empty, but the content-type says application/json',
  // Malformed JSON is normally located by the JSON body parser (json-body-parser.ts).
  FST_ERR_CTP_INVALID_JSON_BODY: 'is not valid JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'does not have the length the content-length header gives',
};

/** The one error handler: every failure leaves as `{"status": "NG", "message", "errors"}`. */
export async function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) {
    if (error.headers) reply.headers(error.headers);
    return reply.code(error.statusCode).send(ngBody(error.message, error.errors));
  }
  if (error instanceof TenantWorkBusyError) {
    // The contract's checks are queued up to their bound (docs/security.md, Tenant work off the API thread).
    return reply
      .code(API_ERRORS.unavailable.status)
      .header('retry-after', String(error.retryAfterSeconds))
      .send(ngBody(error.message));
  }
  if (error instanceof InvalidInputError) {
    const first = error.errors[0];
    return reply
      .code(400)
      .send(ngBody(first ? `${first.field}: ${first.reason}` : error.message, error.errors));
  }
  if (error.validation) {
    const errors = toFieldErrors(error.validation, error.validationContext ?? 'request');
    const first = errors[0];
    const message = first ? `${first.field}: ${first.reason}` : 'the request is invalid';
    return reply.code(400).send(ngBody(message, errors));
  }
  const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (mapped === 'invalid_input') {
    const reason = BODY_REASONS[error.code] ?? error.message;
    return reply.code(400).send(ngBody(`body: ${reason}`, [{ field: 'body', reason }]));
  }
  if (mapped) return reply.code(API_ERRORS[mapped].status).send(ngBody(API_ERRORS[mapped].message));
  if (
    error instanceof SyntaxError ||
    (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
  ) {
    return reply.code(error.statusCode ?? 400).send(ngBody(error.message));
  }
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send(ngBody(API_ERRORS.internal.message));
}
