import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { checkSearchServiceConfig, type SearchServiceConfig } from '../../../domain/search-service-config.js';
import type { SearchServiceRecord, TenantRef } from '../../../store/service-store.js';
import { ApiError } from '../../api-error.js';
import {
  CreateSearchServiceSchema,
  GetSearchServiceSchema,
  ListSearchServicesSchema,
  UpdateSearchServiceSchema,
} from '../../schemas/admin-schemas.js';
import {
  type AdminRoutesOptions,
  datetimeOf,
  GROUP_PATH,
  invalidInput,
  methodRecorder,
  nowMicros,
  ofTenant,
  requireGroup,
} from './admin-support.js';

const SERVICES_PATH = `${GROUP_PATH}/search_services`;
const SERVICE_PATH = `${SERVICES_PATH}/:service_id`;

/**
 * Search services and their configuration (category rules, drill-down rules, allowed origins,
 * weights), as `kumo admin searchservice` does. The store cannot rename a service, so PUT takes
 * only the configuration.
 */
export const searchServiceRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { store, timezone } = options;
  const record = methodRecorder(options);

  const view = (service: SearchServiceRecord) => ({
    id: service.id,
    name: service.name,
    config: service.config,
    created_datetime: datetimeOf(service.createdMicros, timezone),
    updated_datetime: datetimeOf(service.updatedMicros, timezone),
  });

  const requireService = (tenant: TenantRef, id: number): SearchServiceRecord => {
    const service = store.searchServices.get(id);
    if (!service || !ofTenant(service, tenant)) {
      throw new ApiError('not_found', `no search service ${id} in this service group`);
    }
    return service;
  };

  record('GET', SERVICES_PATH);
  app.get(SERVICES_PATH, { schema: ListSearchServicesSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const services = store.searchServices.list(tenant);
    return {
      status: 'OK' as const,
      message: `${services.length} search service(s)`,
      search_services: services.map(view),
    };
  });

  record('POST', SERVICES_PATH);
  app.post(SERVICES_PATH, { schema: CreateSearchServiceSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const name = request.body.name.trim();
    if (name === '') throw invalidInput([{ field: 'body.name', reason: 'must not be blank' }]);
    const config = checkedConfig(request.body.config ?? {});
    const created = store.searchServices.create(tenant, name, config, nowMicros());
    return { status: 'OK' as const, message: `search service ${created.id} created`, service_id: created.id };
  });

  record('GET', SERVICE_PATH);
  app.get(SERVICE_PATH, { schema: GetSearchServiceSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const service = requireService(tenant, request.params.service_id);
    return { status: 'OK' as const, message: `search service ${service.id}`, search_service: view(service) };
  });

  record('PUT', SERVICE_PATH);
  app.put(SERVICE_PATH, { schema: UpdateSearchServiceSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const service = requireService(tenant, request.params.service_id);
    const config = checkedConfig(request.body.config);
    if (!store.searchServices.updateConfig(service.id, config, nowMicros())) {
      throw new ApiError('not_found', `no search service ${service.id} in this service group`);
    }
    return {
      status: 'OK' as const,
      message: `search service ${service.id} configured`,
      search_service: view(store.searchServices.get(service.id)!),
    };
  });
};

/** The rules the schema cannot express: patterns compile, labels are not empty, origins are origins. */
function checkedConfig(config: SearchServiceConfig): SearchServiceConfig {
  const errors = checkSearchServiceConfig(config, 'body.config.');
  if (errors.length > 0) throw invalidInput(errors);
  return config;
}
