import { randomUUID } from 'node:crypto';
import { runHistoryView } from '../usecases/index.js';
import type { RunRecord, WebhookDeliveryStore, WebhookStore } from '../store/index.js';
import { type Clock, formatApiTimestamp } from '../util/index.js';

/**
 * Turns crawl run transitions into queued webhook deliveries. Publishing only writes the queue and
 * nudges the dispatcher: the crawl never waits on a tenant's endpoint, and a delivery stored
 * before it is attempted survives a restart.
 */

export type RunEventName = 'crawl.started' | 'crawl.finished';

export interface RunEventBodyInput {
  event: RunEventName;
  eventId: string;
  occurredMicros: number;
  run: RunRecord;
  timezone: string;
}

/** The JSON body of a run event; instant runs name their request, scheduled runs their setting. */
export interface RunEventBody {
  event: RunEventName;
  event_id: string;
  occurred_at: string;
  contract_id: number;
  servicegroup_id: number;
  instant_crawl_request_id?: number;
  service_setting_id?: number;
  crawl_history: ReturnType<typeof runHistoryView>;
}

export function runEventBody(input: RunEventBodyInput): RunEventBody {
  const { run, timezone } = input;
  return {
    event: input.event,
    event_id: input.eventId,
    occurred_at: formatApiTimestamp(input.occurredMicros, timezone),
    contract_id: run.contractId,
    servicegroup_id: run.servicegroupId,
    ...(run.serviceSettingId === null
      ? { instant_crawl_request_id: run.requestId }
      : { service_setting_id: run.serviceSettingId }),
    crawl_history: runHistoryView(run, timezone),
  };
}

export interface RunEventPublisherOptions {
  webhooks: WebhookStore;
  deliveries: WebhookDeliveryStore;
  clock: Clock;
  timezone: string;
  /** Called after deliveries were queued, to wake the dispatcher. */
  onQueued?: () => void;
}

export class RunEventPublisher {
  constructor(private readonly options: RunEventPublisherOptions) {}

  /**
   * Queues the event for every live webhook of the run's service group and returns how many.
   * All webhooks get the same event_id: it names the event, so a receiver behind several
   * webhooks can tell one event from two.
   */
  async publish(event: RunEventName, run: RunRecord): Promise<number> {
    const { webhooks, deliveries, clock, timezone, onQueued } = this.options;
    const targets = await webhooks.list({ contractId: run.contractId, servicegroupId: run.servicegroupId });
    if (targets.length === 0) return 0;
    const now = clock.nowMicros();
    const eventId = randomUUID();
    const body = JSON.stringify(runEventBody({ event, eventId, occurredMicros: now, run, timezone }));
    for (const webhook of targets) await deliveries.enqueue(webhook.id, event, eventId, body, now);
    onQueued?.();
    return targets.length;
  }
}
