import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import { ApiError } from './api-error.js';

const ALL_METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/**
 * Records the methods of every route so that a known path called with another method answers
 * 405 with an Allow header (docs/reference/conventions.md, Status codes) instead of 404.
 */
export class MethodRegistry {
  private readonly methodsByUrl = new Map<string, Set<HTTPMethods>>();

  record(url: string, method: HTTPMethods | HTTPMethods[]): void {
    const methods = this.methodsByUrl.get(url) ?? new Set<HTTPMethods>();
    for (const one of Array.isArray(method) ? method : [method]) methods.add(one);
    if (methods.has('GET')) methods.add('HEAD');
    this.methodsByUrl.set(url, methods);
  }

  /**
   * Adds, for every recorded path, a route answering 405 to the methods it lacks. `guardOf` gives
   * the check the path's routes run first (the management token, the API key), so a 405 and its
   * Allow header tell nothing to a caller who could not call the path.
   */
  registerFallbacks(
    app: FastifyInstance,
    guardOf: (url: string) => ((request: FastifyRequest) => Promise<void>) | undefined = () => undefined,
  ): void {
    for (const [url, methods] of this.methodsByUrl) {
      const missing = ALL_METHODS.filter((method) => !methods.has(method));
      if (missing.length === 0) continue;
      const allow = [...methods].join(', ');
      const guard = guardOf(url);
      app.route({
        method: missing,
        url,
        schema: { hide: true },
        ...(guard ? { onRequest: guard } : {}),
        handler: async () => {
          throw new ApiError('method_not_allowed', undefined, undefined, { allow });
        },
      });
    }
  }
}
