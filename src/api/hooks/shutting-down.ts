import type { FastifyInstance } from 'fastify';
import { ngBody } from '../api-error.js';

/**
 * What a request answers while the service stops: a 503 NG body (docs/reference/conventions.md,
 * Failure body and Status codes).
 */
export const SHUTTING_DOWN_MESSAGE = 'the service is shutting down; retry later';
/** Retry-After of those answers: about a restart, or the time a balancer needs to move elsewhere. */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 30;

/** Apps whose stop has begun. Keyed by the root instance, so no decoration leaks into the routes. */
const stopping = new WeakSet<FastifyInstance>();

/**
 * Marks the app as stopping, first thing in the service's stop: from then on every request, the
 * health check included, answers 503 while running crawls drain, whether it arrives on a new
 * connection before the listener closes or on a connection the client kept alive.
 */
export function markShuttingDown(app: FastifyInstance): void {
  stopping.add(app);
}

export function isShuttingDown(app: FastifyInstance): boolean {
  return stopping.has(app);
}

/**
 * Registers the onRequest hook answering 503 `{"status": "NG", "message"}` with Retry-After once
 * the app is marked stopping. `Connection: close` makes a client that kept its connection alive
 * open a new one, which reaches another instance, or this one again after the restart. The body
 * is sent as text, past the routes' response schemas (the health check's 503 has other fields).
 */
export function addShuttingDownHook(app: FastifyInstance): void {
  app.addHook('onRequest', async (_request, reply) => {
    if (!stopping.has(app)) return;
    return reply
      .code(503)
      .headers({
        'content-type': 'application/json; charset=utf-8',
        'retry-after': String(SHUTDOWN_RETRY_AFTER_SECONDS),
        connection: 'close',
      })
      .send(SHUTTING_DOWN_BODY);
  });
}

const SHUTTING_DOWN_BODY = JSON.stringify(ngBody(SHUTTING_DOWN_MESSAGE));
