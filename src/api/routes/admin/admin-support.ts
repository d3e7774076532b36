import type { FastifyError, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { FieldError } from '../../../domain/index.js';
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  type Management,
  NotFoundError,
  PasswordChecksBusyError,
  RateLimitedError,
  SignInLimitedError,
  SignInRefusedError,
} from '../../../usecases/index.js';
import type { TenantRef } from '../../../store/index.js';
import { formatApiTimestamp } from '../../../util/index.js';
import { ApiError } from '../../api-error.js';
import { handleError } from '../../error-handler.js';
import type { MethodRegistry } from '../../method-not-allowed.js';
import type { ArtifactDownloads } from '../send-artifact.js';
import { toFieldErrors } from '../../validation-errors.js';

export interface AdminRoutesOptions {
  /** The management operations every route calls (docs/design/management.md, Management layer). */
  management: Management;
  /** Bearer token of the operator; a console session is the other credential. */
  adminToken: string;
  /** KUMO_PUBLIC_URL: the origin changes made with a session must come from, invitation links. */
  publicUrl: string;
  /** KUMO_SEARCH_PUBLIC_URL, told to the console for its snippet and Try it; unset: none known. */
  searchPublicUrl?: string;
  /** Whether this process answers site search itself (the search role). */
  servesSearch: boolean;
  timezone: string;
  methods: MethodRegistry;
  /** Where the runs' artifacts are and how they are downloaded, for downloads with a session. */
  downloads: ArtifactDownloads;
  /** Base path the plugin is mounted under, for the 405 registry. */
  basePath: string;
}

/** `/contracts/:contract_id/servicegroups/:servicegroup_id`: the prefix of every tenant resource. */
export const GROUP_PATH = '/contracts/:contract_id/servicegroups/:servicegroup_id';

/** The service group named by the path. */
export function tenantOf(params: { contract_id: number; servicegroup_id: number }): TenantRef {
  return { contractId: params.contract_id, servicegroupId: params.servicegroup_id };
}

/**
 * The search address the console uses for its snippet, Try it and hosted page links
 * (docs/console.md, Site search). A process that answers search at its own public address is
 * named by the origin the browser reached it at, as the console always did: KUMO_PUBLIC_URL's
 * default (`http://0.0.0.0:8080` for a service listening everywhere) may not be one a browser can
 * open. null: this process knows no search address.
 */
export function searchUrlFor(
  request: FastifyRequest,
  options: Pick<AdminRoutesOptions, 'publicUrl' | 'searchPublicUrl' | 'servesSearch'>,
): string | null {
  const { searchPublicUrl } = options;
  if (searchPublicUrl === undefined) return null;
  if (options.servesSearch && searchPublicUrl === options.publicUrl && request.host !== '')
    return `${request.protocol}://${request.host}`;
  return searchPublicUrl;
}

/** Records a route's method for the 405 fallbacks. */
export function methodRecorder(options: Pick<AdminRoutesOptions, 'methods' | 'basePath'>) {
  return (method: HTTPMethods, url: string) => options.methods.record(`${options.basePath}${url}`, method);
}

/** A timestamp of a response, named `..._datetime`. */
export function datetimeOf(micros: number, timezone: string): string;
export function datetimeOf(micros: number | null, timezone: string): string | null;
export function datetimeOf(micros: number | null, timezone: string): string | null {
  return micros === null ? null : formatApiTimestamp(micros, timezone);
}

/**
 * The admin API's error handler: the shared one, after the management layer's failures are
 * mapped onto the catalog (not found 404, conflict 409, invalid input 400). Input errors name
 * their fields from `body.` (`body.setting.seed_urls[0]`, `body.settings` for an unknown field),
 * schema errors and the checks the schema cannot express alike: the management layer names the
 * fields of its input, without HTTP's `body.`.
 */
export async function handleAdminError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  return handleError(asApiFailure(error) as FastifyError, request, reply);
}

function asApiFailure(error: FastifyError): Error {
  if (error.validation && error.validationContext === 'body') {
    return invalidInput(toFieldErrors(error.validation, 'body').map(inBody));
  }
  if (error instanceof InvalidInputError) return invalidInput(error.errors.map(inBody));
  if (error instanceof NotFoundError) return new ApiError('not_found', error.message);
  if (error instanceof ConflictError) return new ApiError('conflict', error.message);
  if (error instanceof ForbiddenError) return new ApiError('forbidden', error.message);
  if (error instanceof SignInRefusedError) return new ApiError('invalid_credentials', error.message);
  if (
    error instanceof SignInLimitedError ||
    error instanceof RateLimitedError ||
    error instanceof PasswordChecksBusyError
  ) {
    return new ApiError('rate_limited', error.message, undefined, {
      'retry-after': String(error.retryAfterSeconds),
    });
  }
  return error;
}

/** A 400 naming the fields. */
function invalidInput(errors: readonly FieldError[]): ApiError {
  const first = errors[0];
  return new ApiError('invalid_input', first ? `${first.field}: ${first.reason}` : undefined, errors);
}

/** A field of the body unless it names its part already (`query.from` of an analytics period). */
const inBody = (error: FieldError): FieldError =>
  /^(body|query|path)(\.|$)/.test(error.field)
    ? error
    : { field: `body.${error.field}`, reason: error.reason };
