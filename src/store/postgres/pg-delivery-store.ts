import type {
  AttemptOutcome,
  DeliveryRecord,
  DeliveryState,
  DueDelivery,
  WebhookDeliveryStore,
} from '../record-store.js';
import { bigintArrayLiteral, type PgSql } from './pg-connection.js';

const COLUMNS = `id, webhook_id AS "webhookId", event, event_id AS "eventId", body, state, attempts,
  last_status AS "lastStatus", last_error AS "lastError", last_duration_ms AS "lastDurationMs",
  next_attempt_us AS "nextAttemptMicros", created_us AS "createdMicros", updated_us AS "updatedMicros",
  delivered_us AS "deliveredMicros"`;

/** The durable queue of webhook deliveries. */
export class PgDeliveryStore implements WebhookDeliveryStore {
  constructor(private readonly sql: PgSql) {}

  private readonly columns = () => this.sql.unsafe(COLUMNS);

  async enqueue(
    webhookId: number,
    event: string,
    eventId: string,
    body: string,
    nowMicros: number,
  ): Promise<DeliveryRecord> {
    const [row] = await this.sql<DeliveryRecord[]>`
      INSERT INTO webhook_deliveries (webhook_id, event, event_id, body, state, next_attempt_us, created_us, updated_us)
      VALUES (${webhookId}, ${event}, ${eventId}, ${body}, 'pending', ${nowMicros}, ${nowMicros}, ${nowMicros})
      RETURNING ${this.columns()}`;
    return row!;
  }

  async dueByContract(
    nowMicros: number,
    skipContracts: readonly number[],
    limit: number,
  ): Promise<DueDelivery[]> {
    const rows = await this.sql<DueDelivery[]>`
      SELECT * FROM (
        SELECT DISTINCT ON (w.contract_id) d.id AS id, w.contract_id AS "contractId",
          d.next_attempt_us AS "dueMicros"
        FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
        WHERE d.state = 'pending' AND d.next_attempt_us <= ${nowMicros}
          AND NOT (w.contract_id = ANY(${bigintArrayLiteral(skipContracts)}::bigint[]))
        ORDER BY w.contract_id, d.next_attempt_us, d.id) oldest
      ORDER BY "dueMicros", id LIMIT ${limit}`;
    return [...rows];
  }

  async claim(
    ids: readonly number[],
    nowMicros: number,
    leaseUntilMicros: number,
  ): Promise<DeliveryRecord[]> {
    if (ids.length === 0) return [];
    // The due check is made again on the row once locked: a delivery another dispatcher leased
    // meanwhile is due no more and is left out.
    const rows = await this.sql<DeliveryRecord[]>`
      UPDATE webhook_deliveries SET next_attempt_us = ${leaseUntilMicros}
      WHERE id = ANY(${bigintArrayLiteral(ids)}::bigint[]) AND state = 'pending' AND next_attempt_us <= ${nowMicros}
      RETURNING ${this.columns()}`;
    return [...rows];
  }

  async countPending(): Promise<number> {
    const [row] = await this.sql<{ count: number }[]>`
      SELECT count(*) AS count FROM webhook_deliveries WHERE state = 'pending'`;
    return row!.count;
  }

  async nextDueMicros(): Promise<number | undefined> {
    const [row] = await this.sql<{ next: number | null }[]>`
      SELECT min(next_attempt_us) AS next FROM webhook_deliveries WHERE state = 'pending'`;
    return row?.next ?? undefined;
  }

  async recordAttempt(id: number, outcome: AttemptOutcome, nowMicros: number): Promise<void> {
    const { next } = outcome;
    const state: DeliveryState = next.kind === 'retry' ? 'pending' : next.kind;
    await this.sql`
      UPDATE webhook_deliveries SET state = ${state}, attempts = attempts + 1, last_status = ${outcome.status},
        last_error = ${outcome.error}, last_duration_ms = ${outcome.durationMs},
        next_attempt_us = ${next.kind === 'retry' ? next.atMicros : null}, updated_us = ${nowMicros},
        delivered_us = ${next.kind === 'delivered' ? nowMicros : null}
      WHERE id = ${id}`;
  }

  async get(id: number): Promise<DeliveryRecord | undefined> {
    const [row] = await this.sql<DeliveryRecord[]>`
      SELECT ${this.columns()} FROM webhook_deliveries WHERE id = ${id}`;
    return row;
  }

  async list(webhookId: number, limit: number): Promise<DeliveryRecord[]> {
    return [
      ...(await this.sql<DeliveryRecord[]>`
        SELECT ${this.columns()} FROM webhook_deliveries WHERE webhook_id = ${webhookId}
        ORDER BY id DESC LIMIT ${limit}`),
    ];
  }

  async replay(id: number, nowMicros: number): Promise<boolean> {
    const result = await this.sql`
      UPDATE webhook_deliveries SET state = 'pending', next_attempt_us = ${nowMicros}, updated_us = ${nowMicros},
        delivered_us = NULL
      WHERE id = ${id}`;
    return result.count > 0;
  }
}
