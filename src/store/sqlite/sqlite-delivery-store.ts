import type { Synchronous } from './synchronous-store.js';
import type Database from 'better-sqlite3';
import type {
  AttemptOutcome,
  DeliveryRecord,
  DeliveryState,
  DueDelivery,
  WebhookDeliveryStore,
} from '../record-store.js';

interface Row {
  id: number;
  webhook_id: number;
  event: string;
  event_id: string;
  body: string;
  state: string;
  attempts: number;
  last_status: number | null;
  last_error: string;
  last_duration_ms: number | null;
  next_attempt_us: number | null;
  created_us: number;
  updated_us: number;
  delivered_us: number | null;
}

export class SqliteDeliveryStore implements Synchronous<WebhookDeliveryStore> {
  constructor(private readonly db: Database.Database) {}

  enqueue(
    webhookId: number,
    event: string,
    eventId: string,
    body: string,
    nowMicros: number,
  ): DeliveryRecord {
    const result = this.db
      .prepare(
        `INSERT INTO webhook_deliveries (webhook_id, event, event_id, body, state, next_attempt_us, created_us, updated_us)
         VALUES (?, ?, ?, ?, 'pending', ?, ?, ?)`,
      )
      .run(webhookId, event, eventId, body, nowMicros, nowMicros, nowMicros);
    return this.get(Number(result.lastInsertRowid))!;
  }

  dueByContract(nowMicros: number, skipContracts: readonly number[], limit: number): DueDelivery[] {
    // SQLite takes the bare columns of a min() aggregate from the row holding the minimum.
    return this.db
      .prepare<[number, string, number], DueDelivery>(
        `SELECT d.id AS id, w.contract_id AS contractId, min(d.next_attempt_us) AS dueMicros
         FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         WHERE d.state = 'pending' AND d.next_attempt_us <= ?
           AND w.contract_id NOT IN (SELECT value FROM json_each(?))
         GROUP BY w.contract_id ORDER BY dueMicros, id LIMIT ?`,
      )
      .all(nowMicros, JSON.stringify(skipContracts), limit);
  }

  claim(ids: readonly number[], nowMicros: number, leaseUntilMicros: number): DeliveryRecord[] {
    return this.db
      .transaction(() => {
        const lease = this.db.prepare(
          `UPDATE webhook_deliveries SET next_attempt_us = ?
           WHERE id = ? AND state = 'pending' AND next_attempt_us <= ?`,
        );
        const taken = ids.filter((id) => lease.run(leaseUntilMicros, id, nowMicros).changes > 0);
        return taken.map((id) => this.get(id)!);
      })
      .immediate();
  }

  countPending(): number {
    return this.db
      .prepare(`SELECT count(*) FROM webhook_deliveries WHERE state = 'pending'`)
      .pluck()
      .get() as number;
  }

  nextDueMicros(): number | undefined {
    const next = this.db
      .prepare(`SELECT min(next_attempt_us) FROM webhook_deliveries WHERE state = 'pending'`)
      .pluck()
      .get() as number | null;
    return next ?? undefined;
  }

  recordAttempt(id: number, outcome: AttemptOutcome, nowMicros: number): void {
    const { next } = outcome;
    const state: DeliveryState = next.kind === 'retry' ? 'pending' : next.kind;
    this.db
      .prepare(
        `UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1, last_status = ?, last_error = ?,
           last_duration_ms = ?, next_attempt_us = ?, updated_us = ?, delivered_us = ? WHERE id = ?`,
      )
      .run(
        state,
        outcome.status,
        outcome.error,
        outcome.durationMs,
        next.kind === 'retry' ? next.atMicros : null,
        nowMicros,
        next.kind === 'delivered' ? nowMicros : null,
        id,
      );
  }

  get(id: number): DeliveryRecord | undefined {
    const row = this.db.prepare<[number], Row>('SELECT * FROM webhook_deliveries WHERE id = ?').get(id);
    return row && recordOf(row);
  }

  list(webhookId: number, limit: number): DeliveryRecord[] {
    return this.db
      .prepare<[number, number], Row>(
        'SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id DESC LIMIT ?',
      )
      .all(webhookId, limit)
      .map(recordOf);
  }

  replay(id: number, nowMicros: number): boolean {
    const result = this.db
      .prepare(
        `UPDATE webhook_deliveries SET state = 'pending', next_attempt_us = ?, updated_us = ?, delivered_us = NULL
         WHERE id = ?`,
      )
      .run(nowMicros, nowMicros, id);
    return result.changes > 0;
  }
}

function recordOf(row: Row): DeliveryRecord {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    event: row.event,
    eventId: row.event_id,
    body: row.body,
    state: row.state as DeliveryState,
    attempts: row.attempts,
    lastStatus: row.last_status,
    lastError: row.last_error,
    lastDurationMs: row.last_duration_ms,
    nextAttemptMicros: row.next_attempt_us,
    createdMicros: row.created_us,
    updatedMicros: row.updated_us,
    deliveredMicros: row.delivered_us,
  };
}
