import { AddressPolicy } from '../net/index.js';
import { defaultUserAgent } from '../util/index.js';
import { RunEventPublisher, WebhookDispatcher } from '../webhooks/index.js';
import type { ServiceParts } from './service-parts.js';

/** How run events reach webhooks: queued in the store by any role, sent by the scheduler role. */
export interface WebhookAssembly {
  /** Sends the queued deliveries; only with the scheduler role (elsewhere they wait in the store for it). */
  dispatcher: WebhookDispatcher | undefined;
  /** Queues a run's start and end for its service group's webhooks. */
  events: RunEventPublisher;
  /** Tells the dispatcher of this process that deliveries were queued. */
  nudge(): void;
}

export function assembleWebhooks(parts: ServiceParts): WebhookAssembly {
  const { config, clock, store } = parts;
  const dispatcher = parts.roles.scheduler
    ? new WebhookDispatcher({
        deliveries: store.deliveries,
        webhooks: store.webhooks,
        clock,
        backoffSeconds: config.webhookBackoffSeconds,
        timeoutMs: config.webhookTimeoutSeconds * 1000,
        connectTimeoutMs: config.webhookConnectTimeoutSeconds * 1000,
        userAgent: defaultUserAgent(config.botInfoUrl),
        logger: parts.logger,
        // Webhook URLs are chosen by tenants: they may not aim the service at its own network.
        addresses: new AddressPolicy(config.allowPrivateNetworks),
      })
    : undefined;
  const nudge = () => dispatcher?.nudge();
  const events = new RunEventPublisher({
    webhooks: store.webhooks,
    deliveries: store.deliveries,
    clock,
    timezone: config.timezone,
    onQueued: nudge,
  });
  return { dispatcher, events, nudge };
}
