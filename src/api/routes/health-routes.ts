import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { MethodRegistry } from '../method-not-allowed.js';

export interface HealthRoutesOptions {
  /** Answers whether the store answers; throwing counts as no. */
  storeHealthy: () => boolean;
  methods: MethodRegistry;
  /** Base path the plugin is mounted under, for the 405 registry. */
  basePath: string;
}

const HealthSchema = {
  summary: 'Health check',
  tags: ['site search'],
  response: {
    200: Type.Object({ status: Type.String(), message: Type.String() }),
    503: Type.Object({ status: Type.String(), message: Type.String() }),
  },
};

/** GET {finder_base}/health_check (decisions.md "Site search"): 200 OK, or 503 NG when the store fails. */
export const healthRoutes: FastifyPluginAsyncTypebox<HealthRoutesOptions> = async (app, options) => {
  options.methods.record(`${options.basePath}/health_check`, 'GET');
  app.get('/health_check', { schema: HealthSchema }, async (_request, reply) => {
    let healthy = false;
    try {
      healthy = options.storeHealthy();
    } catch {
      healthy = false;
    }
    if (!healthy) return reply.code(503).send({ status: 'NG', message: 'store is not answering' });
    return { status: 'OK', message: 'store answers' };
  });
};
