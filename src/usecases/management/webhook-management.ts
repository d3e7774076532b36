import { randomUUID } from 'node:crypto';
import { formatApiTimestamp } from '../../util/index.js';
import { type FieldError, InvalidInputError } from '../../domain/index.js';
import type { DeliveryRecord, TenantRef, WebhookRecord } from '../../store/index.js';
import { type Actor, ManagementOperations } from './management-context.js';
import { ConflictError, NotFoundError, RateLimitedError } from './management-errors.js';
import { isEverywhere, isGroupScope, reaches, type Scope, withinText } from './management-scope.js';
import {
  deliveriesLimit,
  MAX_WEBHOOKS_PER_GROUP,
  webhookSecretProblem,
  webhookUrlProblem,
} from './input-rules.js';
import { PING_LIMITS, PingLimiter } from './ping-limiter.js';

/** A webhook as shown: the secret is write-only. */
export type ManagedWebhook = Omit<WebhookRecord, 'secret'>;

/** Which delivery to send again: by its id, within one webhook when the caller names it. */
export interface DeliveryRef {
  deliveryId: number;
  webhookId?: number | undefined;
}

/**
 * Webhooks of service groups and their durable delivery queue. A replay queues a delivery
 * again; the dispatcher of `kumo serve` sends it (woken at once when it runs in this process).
 */
export class WebhookManagement extends ManagementOperations {
  private readonly pings = new PingLimiter();

  async list(scope: Scope): Promise<ManagedWebhook[]> {
    await this.enter(scope);
    const webhooks = await this.store.webhooks.list(isGroupScope(scope) ? scope : undefined);
    return webhooks.filter((webhook) => reaches(scope, webhook)).map(withoutSecret);
  }

  /** The webhook within the scope, or NotFoundError. */
  async get(scope: Scope, id: number): Promise<ManagedWebhook> {
    return withoutSecret(await this.stored(scope, id));
  }

  async create(
    actor: Actor,
    tenant: TenantRef,
    input: { url: string; secret: string },
  ): Promise<ManagedWebhook> {
    this.mayChange(actor, tenant, 'webhook');
    await this.enter(tenant);
    const errors: FieldError[] = [];
    const urlProblem = webhookUrlProblem(input.url);
    if (urlProblem !== undefined) errors.push({ field: 'url', reason: urlProblem });
    const secretProblem = webhookSecretProblem(input.secret);
    if (secretProblem !== undefined) errors.push({ field: 'secret', reason: secretProblem });
    if (errors.length > 0) throw new InvalidInputError(errors);
    // Every event of the group is sent to each of its webhooks: the cap bounds what one event
    // costs the dispatcher (docs/reference/webhooks.md, Limits).
    const existing = await this.store.webhooks.list(tenant);
    if (existing.length >= MAX_WEBHOOKS_PER_GROUP) {
      throw new ConflictError(
        'service group',
        tenant.servicegroupId,
        `service group ${tenant.servicegroupId} has ${existing.length} webhooks, the most it may ` +
          `have (${MAX_WEBHOOKS_PER_GROUP}); delete one first`,
      );
    }
    const now = this.now();
    const created = await this.store.webhooks.create(tenant, input.url, input.secret, now);
    await this.changed(actor, 'create', 'webhook', created, now);
    return withoutSecret(created);
  }

  /** Deletes the webhook; deliveries not yet made fail with "webhook deleted". */
  async delete(actor: Actor, scope: Scope, id: number): Promise<void> {
    this.mayChange(actor, scope, 'webhook');
    const webhook = await this.stored(scope, id);
    const now = this.now();
    if (!(await this.store.webhooks.delete(webhook.id, now))) throw this.noWebhook(scope, id);
    await this.changed(actor, 'delete', 'webhook', webhook, now);
  }

  /** Deliveries of the webhook, newest first: at most `limit` (default 50, 1 to 200). */
  async deliveries(scope: Scope, webhookId: number, limit?: number): Promise<DeliveryRecord[]> {
    const webhook = await this.stored(scope, webhookId);
    return this.store.deliveries.list(webhook.id, deliveriesLimit(limit));
  }

  /**
   * Queues a `webhook.ping` delivery to the webhook now (docs/reference/webhooks.md, Ping), signed
   * and retried like any other, so an owner sees whether the endpoint answers and how fast. A
   * contract's pings are limited (ping-limiter.ts): over the limit, RateLimitedError.
   */
  async ping(actor: Actor, scope: Scope, webhookId: number): Promise<DeliveryRecord> {
    this.mayChange(actor, scope, 'delivery');
    const webhook = await this.stored(scope, webhookId);
    const now = this.now();
    const wait = this.pings.take(webhook.contractId, now);
    if (wait !== undefined) {
      throw new RateLimitedError(
        wait,
        `contract ${webhook.contractId} sent the most pings it may (${PING_LIMITS.burst}, then ` +
          `${PING_LIMITS.perMinute} a minute); try again in ${wait} s`,
      );
    }
    const eventId = randomUUID();
    const body = JSON.stringify({
      event: 'webhook.ping',
      event_id: eventId,
      occurred_at: formatApiTimestamp(now, this.deps.timezone),
      contract_id: webhook.contractId,
      servicegroup_id: webhook.servicegroupId,
      webhook_id: webhook.id,
    });
    const delivery = await this.store.deliveries.enqueue(webhook.id, 'webhook.ping', eventId, body, now);
    this.deps.onDeliveriesQueued?.();
    await this.changed(actor, 'create', 'delivery', { ...webhook, id: delivery.id }, now);
    return delivery;
  }

  /** Queues a delivery again for now, whatever its state; answers it as queued. */
  async replay(actor: Actor, scope: Scope, ref: DeliveryRef): Promise<DeliveryRecord> {
    this.mayChange(actor, scope, 'delivery');
    const { deliveryId } = ref;
    const webhook = ref.webhookId === undefined ? undefined : await this.stored(scope, ref.webhookId);
    const delivery = await this.store.deliveries.get(deliveryId);
    const missing = new NotFoundError(
      'delivery',
      deliveryId,
      webhook === undefined
        ? `no delivery ${deliveryId}`
        : `no delivery ${deliveryId} of webhook ${webhook.id}`,
    );
    if (!delivery || (webhook !== undefined && delivery.webhookId !== webhook.id)) throw missing;
    const owner = webhook ?? (await this.store.webhooks.get(delivery.webhookId));
    if (owner === undefined) {
      // Whose the deleted webhook was is known no more: only the operator's reach may hear of it.
      if (!isEverywhere(scope)) throw missing;
      throw new NotFoundError(
        'webhook',
        delivery.webhookId,
        `delivery ${deliveryId} belongs to webhook ${delivery.webhookId}, which was deleted`,
      );
    }
    if (!reaches(scope, owner)) throw missing;
    const now = this.now();
    if (!(await this.store.deliveries.replay(deliveryId, now))) throw missing;
    this.deps.onDeliveriesQueued?.();
    await this.changed(actor, 'replay', 'delivery', { ...owner, id: deliveryId }, now);
    return (await this.store.deliveries.get(deliveryId))!;
  }

  private async stored(scope: Scope, id: number): Promise<WebhookRecord> {
    await this.enter(scope);
    const webhook = await this.store.webhooks.get(id);
    if (!webhook || !reaches(scope, webhook)) throw this.noWebhook(scope, id);
    return webhook;
  }

  private noWebhook(scope: Scope, id: number): NotFoundError {
    return new NotFoundError('webhook', id, `no webhook ${id}${withinText(scope)}`);
  }
}

function withoutSecret(webhook: WebhookRecord): ManagedWebhook {
  const { secret: _secret, ...shown } = webhook;
  return shown;
}
