import { systemClock } from '../util/clock.js';
import { formatApiTimestamp } from '../util/timestamps.js';
import { type AdminContext, requiredId } from './admin-command.js';
import { UsageError } from './usage-error.js';

/** The management API's bounds for a webhook's secret and a deliveries listing. */
const SECRET_LENGTH = { min: 16, max: 256 };
const DELIVERIES_LIMIT = { fallback: 50, max: 200 };

/**
 * `kumo admin webhook ...`: webhooks of a service group and their delivery queue, as the
 * management API's webhook routes. The secret is write-only: nothing prints it. A replay only
 * queues the delivery: `kumo serve`'s dispatcher polls the store and delivers it.
 */
export const WEBHOOK_HANDLERS: Record<string, (context: AdminContext) => void> = {
  'webhook create': ({ store, values, print }) => {
    const contractId = requiredId(values.contract, 'contract');
    const servicegroupId = requiredId(values.servicegroup, 'servicegroup');
    if (!store.tenants.getServiceGroup(contractId, servicegroupId)) {
      throw new UsageError(`no service group ${servicegroupId} in contract ${contractId}`);
    }
    const url = requiredWebhookUrl(values.url);
    const secret = values.secret;
    if (secret === undefined) throw new UsageError('--secret SECRET is required', true);
    if (secret.length < SECRET_LENGTH.min || secret.length > SECRET_LENGTH.max) {
      throw new UsageError(
        `--secret: must be ${SECRET_LENGTH.min} to ${SECRET_LENGTH.max} characters, got ${secret.length}`,
      );
    }
    const webhook = store.webhooks.create(
      { contractId, servicegroupId },
      url,
      secret,
      systemClock.nowMicros(),
    );
    print(`webhook ${webhook.id} created in contract ${contractId}, service group ${servicegroupId}`);
  },
  'webhook list': ({ store, values, print, timezone }) => {
    const contractId = values.contract === undefined ? undefined : requiredId(values.contract, 'contract');
    print('id\tcontract\tservicegroup\turl\tcreated');
    for (const w of store.webhooks.list()) {
      if (contractId !== undefined && w.contractId !== contractId) continue;
      print(
        `${w.id}\t${w.contractId}\t${w.servicegroupId}\t${w.url}\t${formatApiTimestamp(w.createdMicros, timezone)}`,
      );
    }
  },
  'webhook delete': ({ store, positionals, print }) => {
    const id = requiredId(positionals[0], 'webhook id (positional)');
    if (!store.webhooks.delete(id, systemClock.nowMicros())) throw new UsageError(`no webhook ${id}`);
    print(`webhook ${id} deleted`);
  },
  'webhook deliveries': ({ store, values, positionals, print, timezone }) => {
    const id = requiredId(positionals[0], 'webhook id (positional)');
    if (!store.webhooks.get(id)) throw new UsageError(`no webhook ${id}`);
    const time = (micros: number | null) => (micros === null ? '-' : formatApiTimestamp(micros, timezone));
    print('id\tevent\tstate\tattempts\tlast_status\tlast_error\tnext_attempt\tcreated');
    for (const d of store.deliveries.list(id, deliveriesLimit(values.limit))) {
      const error = d.lastError.replace(/\s+/g, ' ').trim() || '-';
      print(
        `${d.id}\t${d.event}\t${d.state}\t${d.attempts}\t${d.lastStatus ?? '-'}\t${error}\t` +
          `${time(d.nextAttemptMicros)}\t${time(d.createdMicros)}`,
      );
    }
  },
  'webhook replay': ({ store, positionals, print }) => {
    const id = requiredId(positionals[0], 'delivery id (positional)');
    const delivery = store.deliveries.get(id);
    if (!delivery) throw new UsageError(`no delivery ${id}`);
    if (!store.webhooks.get(delivery.webhookId)) {
      throw new UsageError(`delivery ${id} belongs to webhook ${delivery.webhookId}, which was deleted`);
    }
    if (!store.deliveries.replay(id, systemClock.nowMicros())) throw new UsageError(`no delivery ${id}`);
    print(`delivery ${id} of webhook ${delivery.webhookId} queued again`);
  },
};

/** An absolute http(s) URL without credentials, as the management API accepts. */
function requiredWebhookUrl(raw: string | undefined): string {
  if (raw === undefined) throw new UsageError('--url URL is required', true);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--url: "${raw}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--url: scheme "${url.protocol}" is not http or https`);
  if (url.username !== '' || url.password !== '')
    throw new UsageError('--url: credentials in the URL are not allowed');
  if (raw.length > 2048) throw new UsageError('--url: at most 2048 characters');
  return raw;
}

function deliveriesLimit(raw: string | undefined): number {
  if (raw === undefined) return DELIVERIES_LIMIT.fallback;
  if (!/^[1-9]\d*$/.test(raw) || Number(raw) > DELIVERIES_LIMIT.max) {
    throw new UsageError(`--limit: expected an integer from 1 to ${DELIVERIES_LIMIT.max}, got "${raw}"`);
  }
  return Number(raw);
}
