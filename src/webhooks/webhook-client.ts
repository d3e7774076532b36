import { Agent, request } from 'undici';
import type { AddressGuard } from '../net/index.js';
import { guardedConnector } from '../net/guarded-connector.js';

/**
 * The HTTP side of the webhook dispatcher, which imports this module with its first attempt: a
 * service that sends no webhook does not load the HTTP client (several MB).
 */
export interface WebhookClient {
  agent: Agent;
  request: typeof request;
}

/**
 * A pool of its own, so webhook connections neither compete with the crawler's nor outlive the
 * dispatcher's stop; `guard` checks every address connected to. A connection not made within
 * `connectTimeoutMs` (an endpoint that drops connection requests) fails its attempt.
 */
export function openWebhookClient(
  connections: number,
  connectTimeoutMs: number,
  guard: AddressGuard | undefined,
): WebhookClient {
  const connect = { timeout: connectTimeoutMs };
  const agent = new Agent({
    keepAliveTimeout: 4_000,
    connections,
    connect: guard !== undefined ? guardedConnector(guard, connect) : connect,
  });
  return { agent, request };
}
