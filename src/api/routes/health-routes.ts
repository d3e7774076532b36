import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { BrowserAvailability } from '../../browser/chromium-launch.js';
import type { MethodRegistry } from '../method-not-allowed.js';

export interface HealthRoutesOptions {
  /** Answers whether the store answers; throwing counts as no. */
  storeHealthy: () => boolean;
  /** Whether screenshots and wait_type 2 can run here; plain crawls do not need it. */
  browserStatus: () => BrowserAvailability | undefined;
  methods: MethodRegistry;
  /** Base path the plugin is mounted under, for the 405 registry. */
  basePath: string;
}

const HealthBody = Type.Object({
  status: Type.String(),
  message: Type.String(),
  browser: Type.Optional(Type.Object({ available: Type.Boolean() })),
});

const HealthSchema = {
  summary: 'Health check',
  tags: ['site search'],
  response: {
    200: HealthBody,
    503: HealthBody,
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
    const browser = browserView(options.browserStatus());
    if (!healthy) return reply.code(503).send({ status: 'NG', message: 'store is not answering', browser });
    return { status: 'OK', message: 'store answers', browser };
  });
};

/**
 * Only whether rendering works: the check is public, and the browser's version and path would
 * tell an attacker which exploits to try. `kumo serve` prints the details at start.
 */
function browserView(status: BrowserAvailability | undefined) {
  return status === undefined ? undefined : { available: status.available };
}
