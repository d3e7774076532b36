import type { FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

/** Whether the request's Accept header admits a JSON answer (no header admits anything). */
export function acceptsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (accept === undefined || accept.trim() === '') return true;
  return new Negotiator({ headers: { accept } }).mediaType(['application/json']) !== undefined;
}

/**
 * Whether the request's Accept header admits the answer: JSON, or JavaScript for a JSONP call
 * (a `callback` in the query string), which browsers load with a script tag.
 */
export function acceptsJsonOrScript(request: FastifyRequest): boolean {
  if (acceptsJson(request)) return true;
  if (!/[?&]callback=/.test(request.url)) return false;
  const accept = request.headers.accept ?? '';
  return (
    new Negotiator({ headers: { accept } }).mediaType(['application/javascript', 'text/javascript']) !==
    undefined
  );
}

/** A request for a run's server-sent events (…/runs/{id}/events) that accepts them. */
export function wantsRunEvents(request: FastifyRequest): boolean {
  if (!/\/runs\/\d+\/events(?:\?|$)/.test(request.url)) return false;
  const accept = request.headers.accept ?? '';
  return new Negotiator({ headers: { accept } }).mediaType(['text/event-stream']) !== undefined;
}
