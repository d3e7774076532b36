import type { FastifyPluginAsync } from 'fastify';
import { METRICS_CONTENT_TYPE, type ServiceMetrics } from '../../observability/index.js';
import type { MethodRegistry } from '../method-not-allowed.js';
import { type AdminTokenChecks, createAdminAuth } from './admin/admin-auth.js';

export interface MetricsRoutesOptions {
  metrics: ServiceMetrics;
  /** The management API's token: the metrics are operational data, read with the same token. */
  adminToken: string;
  /** Counts wrong tokens per client address, shared with the management API. */
  adminTokenChecks: AdminTokenChecks;
  methods: MethodRegistry;
}

/** The path Prometheus scrapes. */
export const METRICS_PATH = '/metrics';

/**
 * GET /metrics: the instance's metrics in the Prometheus text format (requests by route and
 * status, runs by state, pages fetched, fetch errors by kind, queue depths, search latency,
 * process metrics). No tenant data, but the load and crawl activity of the service: it needs the
 * management token (`Authorization: Bearer <KUMO_ADMIN_TOKEN>`, Prometheus' `authorization`
 * scrape setting), else 401 NG. Any Accept is answered. An operator's endpoint, documented in
 * docs/operations.md and kept out of the OpenAPI document of the tenant and management APIs.
 */
export const metricsRoutes: FastifyPluginAsync<MetricsRoutesOptions> = async (app, options) => {
  options.methods.record(METRICS_PATH, 'GET');
  app.get(
    METRICS_PATH,
    { schema: { hide: true }, onRequest: createAdminAuth(options.adminToken, options.adminTokenChecks) },
    async (_request, reply) => {
      const text = await options.metrics.text();
      return reply.type(METRICS_CONTENT_TYPE).header('cache-control', 'no-store').send(text);
    },
  );
};
