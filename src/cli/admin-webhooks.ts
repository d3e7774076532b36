import { DELIVERIES_LIMIT, EVERYWHERE } from '../usecases/index.js';
import {
  CLI_ACTOR,
  listScope,
  printedTime,
  requiredId,
  requiredTenant,
  type AdminHandler,
} from './admin-options.js';
import { UsageError } from './usage-error.js';

/**
 * `kumo admin webhook ...`: webhooks of a service group and their delivery queue, as the
 * management API's webhook routes. The secret is write-only: nothing prints it. A replay only
 * queues the delivery: `kumo serve`'s dispatcher polls the store and delivers it.
 */
export const WEBHOOK_HANDLERS: Record<string, AdminHandler> = {
  'webhook create': async ({ management, values, print }) => {
    const tenant = requiredTenant(values);
    if (values.url === undefined) throw new UsageError('--url URL is required', true);
    if (values.secret === undefined) throw new UsageError('--secret SECRET is required', true);
    const webhook = await management.webhooks.create(CLI_ACTOR, tenant, {
      url: values.url,
      secret: values.secret,
    });
    print(
      `webhook ${webhook.id} created in contract ${tenant.contractId}, service group ${tenant.servicegroupId}`,
    );
  },
  'webhook list': async ({ management, values, print, timezone }) => {
    print('id\tcontract\tservicegroup\turl\tcreated');
    for (const w of await management.webhooks.list(listScope(values))) {
      print(
        `${w.id}\t${w.contractId}\t${w.servicegroupId}\t${w.url}\t${printedTime(w.createdMicros, timezone)}`,
      );
    }
  },
  'webhook delete': async ({ management, positionals, print }) => {
    const id = requiredId(positionals[0], 'webhook id (positional)');
    await management.webhooks.delete(CLI_ACTOR, EVERYWHERE, id);
    print(`webhook ${id} deleted`);
  },
  'webhook deliveries': async ({ management, values, positionals, print, timezone }) => {
    const id = requiredId(positionals[0], 'webhook id (positional)');
    const deliveries = await management.webhooks.deliveries(EVERYWHERE, id, deliveriesLimit(values.limit));
    const time = (micros: number | null) => printedTime(micros, timezone);
    print('id\tevent\tstate\tattempts\tlast_status\tlast_error\tnext_attempt\tcreated');
    for (const d of deliveries) {
      const error = d.lastError.replace(/\s+/g, ' ').trim() || '-';
      print(
        `${d.id}\t${d.event}\t${d.state}\t${d.attempts}\t${d.lastStatus ?? '-'}\t${error}\t` +
          `${time(d.nextAttemptMicros)}\t${time(d.createdMicros)}`,
      );
    }
  },
  'webhook replay': async ({ management, positionals, print }) => {
    const deliveryId = requiredId(positionals[0], 'delivery id (positional)');
    const delivery = await management.webhooks.replay(CLI_ACTOR, EVERYWHERE, { deliveryId });
    print(`delivery ${deliveryId} of webhook ${delivery.webhookId} queued again`);
  },
};

/** `--limit` as a number; its bounds are the management operation's (a usage error naming them). */
function deliveriesLimit(raw: string | undefined): number | undefined {
  if (raw === undefined || /^\d+$/.test(raw)) return raw === undefined ? undefined : Number(raw);
  throw new UsageError(
    `--limit: expected an integer from ${DELIVERIES_LIMIT.min} to ${DELIVERIES_LIMIT.max}, got "${raw}"`,
  );
}
