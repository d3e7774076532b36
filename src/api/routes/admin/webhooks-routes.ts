import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DeliveryRecord, TenantRef, WebhookRecord } from '../../../store/service-store.js';
import { ApiError } from '../../api-error.js';
import {
  CreateWebhookSchema,
  DeleteWebhookSchema,
  GetWebhookSchema,
  ListDeliveriesSchema,
  ListWebhooksSchema,
  ReplayDeliverySchema,
} from '../../schemas/admin-schemas.js';
import {
  type AdminRoutesOptions,
  datetimeOf,
  GROUP_PATH,
  invalidInput,
  methodRecorder,
  nowMicros,
  ofTenant,
  requireGroup,
} from './admin-support.js';

const WEBHOOKS_PATH = `${GROUP_PATH}/webhooks`;
const WEBHOOK_PATH = `${WEBHOOKS_PATH}/:webhook_id`;

/**
 * Webhooks of a service group and their delivery queue. The secret is write-only: no answer
 * shows it. A replay queues a delivery again and wakes the dispatcher.
 */
export const webhookRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { store, timezone } = options;
  const record = methodRecorder(options);

  const webhookView = (webhook: WebhookRecord) => ({
    id: webhook.id,
    url: webhook.url,
    created_datetime: datetimeOf(webhook.createdMicros, timezone),
  });
  const deliveryView = (delivery: DeliveryRecord) => ({
    id: delivery.id,
    event: delivery.event,
    event_id: delivery.eventId,
    state: delivery.state,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatus,
    last_error: delivery.lastError,
    next_attempt_datetime: datetimeOf(delivery.nextAttemptMicros, timezone),
    created_datetime: datetimeOf(delivery.createdMicros, timezone),
    delivered_datetime: datetimeOf(delivery.deliveredMicros, timezone),
  });

  const requireWebhook = (tenant: TenantRef, id: number): WebhookRecord => {
    const webhook = store.webhooks.get(id);
    if (!webhook || !ofTenant(webhook, tenant)) {
      throw new ApiError('not_found', `no webhook ${id} in this service group`);
    }
    return webhook;
  };

  record('GET', WEBHOOKS_PATH);
  app.get(WEBHOOKS_PATH, { schema: ListWebhooksSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const webhooks = store.webhooks.list(tenant);
    return {
      status: 'OK' as const,
      message: `${webhooks.length} webhook(s)`,
      webhooks: webhooks.map(webhookView),
    };
  });

  record('POST', WEBHOOKS_PATH);
  app.post(WEBHOOKS_PATH, { schema: CreateWebhookSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const { url, secret } = request.body;
    const problem = webhookUrlProblem(url);
    if (problem !== undefined) throw invalidInput([{ field: 'body.url', reason: problem }]);
    const created = store.webhooks.create(tenant, url, secret, nowMicros());
    return { status: 'OK' as const, message: `webhook ${created.id} created`, webhook_id: created.id };
  });

  record('GET', WEBHOOK_PATH);
  app.get(WEBHOOK_PATH, { schema: GetWebhookSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const webhook = requireWebhook(tenant, request.params.webhook_id);
    return { status: 'OK' as const, message: `webhook ${webhook.id}`, webhook: webhookView(webhook) };
  });

  record('DELETE', WEBHOOK_PATH);
  app.delete(WEBHOOK_PATH, { schema: DeleteWebhookSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const webhook = requireWebhook(tenant, request.params.webhook_id);
    if (!store.webhooks.delete(webhook.id, nowMicros())) {
      throw new ApiError('not_found', `no webhook ${webhook.id} in this service group`);
    }
    return { status: 'OK' as const, message: `webhook ${webhook.id} deleted` };
  });

  record('GET', `${WEBHOOK_PATH}/deliveries`);
  app.get(`${WEBHOOK_PATH}/deliveries`, { schema: ListDeliveriesSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const webhook = requireWebhook(tenant, request.params.webhook_id);
    const deliveries = store.deliveries.list(webhook.id, request.query.limit);
    return {
      status: 'OK' as const,
      message: `${deliveries.length} deliver(ies) of webhook ${webhook.id}`,
      deliveries: deliveries.map(deliveryView),
    };
  });

  record('POST', `${WEBHOOK_PATH}/deliveries/:delivery_id/replay`);
  app.post(
    `${WEBHOOK_PATH}/deliveries/:delivery_id/replay`,
    { schema: ReplayDeliverySchema },
    async (request) => {
      const tenant = requireGroup(store, request.params);
      const webhook = requireWebhook(tenant, request.params.webhook_id);
      const id = request.params.delivery_id;
      const delivery = store.deliveries.get(id);
      if (!delivery || delivery.webhookId !== webhook.id || !store.deliveries.replay(id, nowMicros())) {
        throw new ApiError('not_found', `no delivery ${id} of webhook ${webhook.id}`);
      }
      options.onDeliveriesQueued();
      return {
        status: 'OK' as const,
        message: `delivery ${id} queued again`,
        delivery: deliveryView(store.deliveries.get(id)!),
      };
    },
  );
};

/** Why `raw` cannot be a webhook URL: it must be absolute http(s), without credentials. */
function webhookUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `"${raw}" is not an absolute URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `scheme "${url.protocol}" is not http or https`;
  if (url.username !== '' || url.password !== '') return 'credentials in the URL are not allowed';
  return undefined;
}
