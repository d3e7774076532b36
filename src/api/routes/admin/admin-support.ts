import type { FastifyError, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { type FieldError, InvalidInputError } from '../../../domain/field-error.js';
import type { ScheduledCrawlService } from '../../../service/scheduled-crawl-service.js';
import type { ServiceStore, TenantRef } from '../../../store/service-store.js';
import { systemClock } from '../../../util/clock.js';
import { formatApiTimestamp } from '../../../util/timestamps.js';
import { ApiError } from '../../api-error.js';
import { handleError } from '../../error-handler.js';
import type { MethodRegistry } from '../../method-not-allowed.js';
import { toFieldErrors } from '../../validation-errors.js';

export interface AdminRoutesOptions {
  store: ServiceStore;
  scheduledCrawl: ScheduledCrawlService;
  /** Bearer token every route requires. */
  adminToken: string;
  timezone: string;
  methods: MethodRegistry;
  /** Base path the plugin is mounted under, for the 405 registry. */
  basePath: string;
  /** Tells the webhook dispatcher that deliveries were queued (a replay). */
  onDeliveriesQueued: () => void;
}

/** `/contracts/:contract_id/servicegroups/:servicegroup_id`: the prefix of every tenant resource. */
export const GROUP_PATH = '/contracts/:contract_id/servicegroups/:servicegroup_id';

/** The time of the admin API's writes (the plugin options carry no clock). */
export const nowMicros = (): number => systemClock.nowMicros();

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

/** The service group at the path, or 404. */
export function requireGroup(
  store: ServiceStore,
  params: { contract_id: number; servicegroup_id: number },
): TenantRef {
  const { contract_id: contractId, servicegroup_id: servicegroupId } = params;
  if (!store.tenants.getServiceGroup(contractId, servicegroupId)) {
    throw new ApiError('not_found', `no service group ${servicegroupId} in contract ${contractId}`);
  }
  return { contractId, servicegroupId };
}

/** Whether a resource belongs to the tenant of the path. */
export function ofTenant(record: TenantRef | undefined, tenant: TenantRef): boolean {
  return (
    record !== undefined &&
    record.contractId === tenant.contractId &&
    record.servicegroupId === tenant.servicegroupId
  );
}

/** A 400 naming the fields. */
export function invalidInput(errors: readonly FieldError[]): ApiError {
  const first = errors[0];
  return new ApiError('invalid_input', first ? `${first.field}: ${first.reason}` : undefined, errors);
}

/**
 * Runs a service call whose input errors name body fields without the `body.` prefix (the
 * service does not know about HTTP) and names them as the rest of the admin API does.
 */
export function withBodyFields<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof InvalidInputError) throw invalidInput(error.errors.map(inBody));
    throw error;
  }
}

const inBody = (error: FieldError): FieldError =>
  error.field === 'body' || error.field.startsWith('body.')
    ? error
    : { field: `body.${error.field}`, reason: error.reason };

/**
 * The admin API's error handler: the shared one, except that schema errors of the body name
 * their fields from `body.` (`body.setting.seed_urls[0]`, `body.settings` for an unknown field),
 * like the checks the schema cannot express.
 */
export async function handleAdminError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.validation && error.validationContext === 'body') {
    const errors = toFieldErrors(error.validation, 'body').map(inBody);
    return handleError(invalidInput(errors) as unknown as FastifyError, request, reply);
  }
  return handleError(error, request, reply);
}
