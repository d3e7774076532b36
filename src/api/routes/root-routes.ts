import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { MethodRegistry } from '../method-not-allowed.js';
import { CONSOLE_PATH } from './console-routes.js';
import { FAVICON_ICO, FAVICON_SVG } from './favicon.js';

export interface RootRoutesOptions {
  methods: MethodRegistry;
  /** Whether this process serves the console (the api role): GET / leads to it. */
  console: boolean;
}

/** A day: the icon changes with a release at most, and a stale one harms nothing. */
const ICON_CACHE = 'public, max-age=86400';

/** Whether the request prefers an HTML page to JSON: a browser's address bar. */
function wantsPage(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (accept === undefined) return false;
  return new Negotiator({ headers: { accept } }).mediaType(['application/json', 'text/html']) === 'text/html';
}

/**
 * The service's root and its icons (docs/api.md, The root address): a browser that opens the
 * bare address is sent to the console; any other client gets a JSON answer naming where the
 * console and the API reference are. /favicon.ico and /favicon.svg are Kumo's mark.
 */
export const rootRoutes: FastifyPluginAsync<RootRoutesOptions> = async (app, options) => {
  const icon = (type: string, body: string | Buffer) => async (_request: unknown, reply: FastifyReply) =>
    reply
      .headers({ 'content-type': type, 'cache-control': ICON_CACHE, 'x-content-type-options': 'nosniff' })
      .send(body);
  options.methods.record('/favicon.ico', 'GET');
  options.methods.record('/favicon.svg', 'GET');
  app.get('/favicon.ico', { schema: { hide: true } }, icon('image/x-icon', FAVICON_ICO));
  app.get('/favicon.svg', { schema: { hide: true } }, icon('image/svg+xml', FAVICON_SVG));
  if (!options.console) return;

  options.methods.record('/', 'GET');
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    if (wantsPage(request)) return reply.redirect(`${CONSOLE_PATH}/`, 302);
    return reply.code(200).send({
      status: 'OK',
      message: `Kumo: the management console is at ${CONSOLE_PATH}/ and the API reference at /docs`,
      console_path: `${CONSOLE_PATH}/`,
      docs_path: '/docs',
    });
  });
};
