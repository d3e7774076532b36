/**
 * Webhooks: publishing a run's events, delivering them and signing them. (docs/design/layers.md,
 * Surfaces)
 */
export { RunEventPublisher } from './run-event-publisher.js';
export { WebhookDispatcher, type WebhookDispatcherOptions } from './webhook-dispatcher.js';
export { verifySignature } from './webhook-signature.js';
