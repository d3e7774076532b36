import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ManagedWebhook } from '../../../usecases/index.js';
import type { DeliveryRecord } from '../../../store/index.js';
import {
  CreateWebhookSchema,
  DeleteWebhookSchema,
  GetWebhookSchema,
  ListDeliveriesSchema,
  ListWebhooksSchema,
  PingWebhookSchema,
  ReplayDeliverySchema,
} from '../../schemas/admin-schemas.js';
import {
  type AdminRoutesOptions,
  datetimeOf,
  GROUP_PATH,
  methodRecorder,
  tenantOf,
} from './admin-support.js';
import { actorOf } from './management-auth.js';

const WEBHOOKS_PATH = `${GROUP_PATH}/webhooks`;
const WEBHOOK_PATH = `${WEBHOOKS_PATH}/:webhook_id`;

/**
 * Webhooks of a service group and their delivery queue. The secret is write-only: no answer
 * shows it. A replay queues a delivery again and wakes the dispatcher.
 */
export const webhookRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { management, timezone } = options;
  const { webhooks } = management;
  const record = methodRecorder(options);

  const webhookView = (webhook: ManagedWebhook) => ({
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
    last_duration_ms: delivery.lastDurationMs,
    next_attempt_datetime: datetimeOf(delivery.nextAttemptMicros, timezone),
    created_datetime: datetimeOf(delivery.createdMicros, timezone),
    delivered_datetime: datetimeOf(delivery.deliveredMicros, timezone),
  });

  record('GET', WEBHOOKS_PATH);
  app.get(WEBHOOKS_PATH, { schema: ListWebhooksSchema }, async (request) => {
    const listed = await webhooks.list(tenantOf(request.params));
    return {
      status: 'OK' as const,
      message: `${listed.length} webhook(s)`,
      webhooks: listed.map(webhookView),
    };
  });

  record('POST', WEBHOOKS_PATH);
  app.post(WEBHOOKS_PATH, { schema: CreateWebhookSchema }, async (request) => {
    const created = await webhooks.create(actorOf(request), tenantOf(request.params), request.body);
    return { status: 'OK' as const, message: `webhook ${created.id} created`, webhook_id: created.id };
  });

  record('GET', WEBHOOK_PATH);
  app.get(WEBHOOK_PATH, { schema: GetWebhookSchema }, async (request) => {
    const webhook = await webhooks.get(tenantOf(request.params), request.params.webhook_id);
    return { status: 'OK' as const, message: `webhook ${webhook.id}`, webhook: webhookView(webhook) };
  });

  record('DELETE', WEBHOOK_PATH);
  app.delete(WEBHOOK_PATH, { schema: DeleteWebhookSchema }, async (request) => {
    const { webhook_id: id } = request.params;
    await webhooks.delete(actorOf(request), tenantOf(request.params), id);
    return { status: 'OK' as const, message: `webhook ${id} deleted` };
  });

  record('GET', `${WEBHOOK_PATH}/deliveries`);
  app.get(`${WEBHOOK_PATH}/deliveries`, { schema: ListDeliveriesSchema }, async (request) => {
    const { webhook_id: id } = request.params;
    const deliveries = await webhooks.deliveries(tenantOf(request.params), id, request.query.limit);
    return {
      status: 'OK' as const,
      message: `${deliveries.length} deliver(ies) of webhook ${id}`,
      deliveries: deliveries.map(deliveryView),
    };
  });

  record('POST', `${WEBHOOK_PATH}/ping`);
  app.post(`${WEBHOOK_PATH}/ping`, { schema: PingWebhookSchema }, async (request) => {
    const delivery = await webhooks.ping(
      actorOf(request),
      tenantOf(request.params),
      request.params.webhook_id,
    );
    return { status: 'OK' as const, message: `ping ${delivery.id} queued`, delivery: deliveryView(delivery) };
  });

  record('POST', `${WEBHOOK_PATH}/deliveries/:delivery_id/replay`);
  app.post(
    `${WEBHOOK_PATH}/deliveries/:delivery_id/replay`,
    { schema: ReplayDeliverySchema },
    async (request) => {
      const { webhook_id: webhookId, delivery_id: deliveryId } = request.params;
      const delivery = await webhooks.replay(actorOf(request), tenantOf(request.params), {
        deliveryId,
        webhookId,
      });
      return {
        status: 'OK' as const,
        message: `delivery ${deliveryId} queued again`,
        delivery: deliveryView(delivery),
      };
    },
  );
};
