import type { FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

/** Whether the request's Accept header admits a JSON answer (no header admits anything). */
export function acceptsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (accept === undefined || accept.trim() === '') return true;
  return new Negotiator({ headers: { accept } }).mediaType(['application/json']) !== undefined;
}
