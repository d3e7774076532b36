import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SearchServiceRecord } from '../../../store/index.js';
import type { SearchServiceConfig } from '../../../domain/schemas.js';
import {
  CreateSearchServiceSchema,
  GetSearchServiceSchema,
  ListSearchServicesSchema,
  UpdateSearchServiceSchema,
} from '../../schemas/admin-schemas.js';
import { FacetPreviewSchema, SearchServiceStatusSchema } from '../../schemas/search-service-page-schemas.js';
import {
  type AdminRoutesOptions,
  datetimeOf,
  GROUP_PATH,
  methodRecorder,
  tenantOf,
} from './admin-support.js';
import { actorOf } from './management-auth.js';
import { ATTACH_VALIDATION, failOnBodyErrors } from '../../every-field-error.js';

const SERVICES_PATH = `${GROUP_PATH}/search_services`;
const SERVICE_PATH = `${SERVICES_PATH}/:service_id`;

/**
 * Search services and their configuration (category rules, drill-down rules, allowed origins,
 * weights), as `kumo admin searchservice` does. A service is never renamed, so PUT takes only
 * the configuration.
 */
export const searchServiceRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { management, timezone } = options;
  const services = management.searchServices;
  const record = methodRecorder(options);

  const view = (service: SearchServiceRecord) => ({
    id: service.id,
    name: service.name,
    config: service.config,
    created_datetime: datetimeOf(service.createdMicros, timezone),
    updated_datetime: datetimeOf(service.updatedMicros, timezone),
  });

  /**
   * The rule errors of the configuration the schema left of a body (nothing is stored): they are
   * answered with the schema's (docs/api.md, Common rules).
   */
  const configErrors =
    (params: { contract_id: number; servicegroup_id: number }) => async (rest: unknown) => {
      const config = (rest as { config?: unknown }).config;
      return config === undefined
        ? []
        : services.configErrors(tenantOf(params), config as SearchServiceConfig);
    };

  record('GET', SERVICES_PATH);
  app.get(SERVICES_PATH, { schema: ListSearchServicesSchema }, async (request) => {
    const listed = await services.list(tenantOf(request.params));
    return {
      status: 'OK' as const,
      message: `${listed.length} search service(s)`,
      search_services: listed.map(view),
    };
  });

  record('POST', SERVICES_PATH);
  app.post(SERVICES_PATH, { schema: CreateSearchServiceSchema, ...ATTACH_VALIDATION }, async (request) => {
    await failOnBodyErrors(request, configErrors(request.params));
    const created = await services.create(actorOf(request), tenantOf(request.params), request.body);
    return { status: 'OK' as const, message: `search service ${created.id} created`, service_id: created.id };
  });

  record('GET', SERVICE_PATH);
  app.get(SERVICE_PATH, { schema: GetSearchServiceSchema }, async (request) => {
    const service = await services.get(tenantOf(request.params), request.params.service_id);
    return { status: 'OK' as const, message: `search service ${service.id}`, search_service: view(service) };
  });

  record('PUT', SERVICE_PATH);
  app.put(SERVICE_PATH, { schema: UpdateSearchServiceSchema, ...ATTACH_VALIDATION }, async (request) => {
    await failOnBodyErrors(request, configErrors(request.params));
    const { service_id: id } = request.params;
    const service = await services.configure(
      actorOf(request),
      tenantOf(request.params),
      id,
      request.body.config,
    );
    return {
      status: 'OK' as const,
      message: `search service ${service.id} configured`,
      search_service: view(service),
    };
  });

  record('GET', `${SERVICE_PATH}/status`);
  app.get(`${SERVICE_PATH}/status`, { schema: SearchServiceStatusSchema }, async (request) => {
    const status = await services.status(tenantOf(request.params), request.params.service_id);
    const feed = status.lastFeed;
    return {
      status: 'OK' as const,
      message: `${status.documents} document(s)`,
      documents: status.documents,
      bytes: status.bytes,
      updated_datetime: datetimeOf(status.updatedMicros, timezone),
      last_feed:
        feed === undefined
          ? null
          : {
              run_id: feed.id,
              service_setting_id: feed.serviceSettingId!,
              crawl_execution_status_dtype_id: feed.state,
              end_datetime: datetimeOf(feed.endMicros, timezone),
            },
    };
  });

  record('POST', `${SERVICE_PATH}/facet_preview`);
  app.post(
    `${SERVICE_PATH}/facet_preview`,
    { schema: FacetPreviewSchema, ...ATTACH_VALIDATION },
    async (request) => {
      await failOnBodyErrors(request, configErrors(request.params));
      const preview = await services.facetPreview(
        tenantOf(request.params),
        request.params.service_id,
        request.body.config,
      );
      return {
        status: 'OK' as const,
        message: `${preview.documents} document(s) previewed`,
        documents: preview.documents,
        of_documents: preview.ofDocuments,
        categories: preview.categories,
        uncategorized: preview.uncategorized,
        drilldown: preview.drilldown,
      };
    },
  );
};
