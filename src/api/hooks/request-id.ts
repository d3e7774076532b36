import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A client's X-Request-ID is echoed when it is a sane token; anything else gets a fresh id. */
const ACCEPTABLE_REQUEST_ID = /^[\x21-\x7e]{1,200}$/;

export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  const value = Array.isArray(given) ? given[0] : given;
  return value !== undefined && ACCEPTABLE_REQUEST_ID.test(value) ? value : randomUUID();
}
