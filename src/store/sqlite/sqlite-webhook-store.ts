import type Database from 'better-sqlite3';
import type { TenantRef, WebhookRecord, WebhookStore } from '../service-store.js';

interface Row {
  id: number;
  contract_id: number;
  servicegroup_id: number;
  url: string;
  secret: string;
  created_us: number;
}

const LIVE = 'deleted_us IS NULL';

export class SqliteWebhookStore implements WebhookStore {
  constructor(private readonly db: Database.Database) {}

  create(tenant: TenantRef, url: string, secret: string, nowMicros: number): WebhookRecord {
    const result = this.db
      .prepare(
        'INSERT INTO webhooks (contract_id, servicegroup_id, url, secret, created_us) VALUES (?, ?, ?, ?, ?)',
      )
      .run(tenant.contractId, tenant.servicegroupId, url, secret, nowMicros);
    return this.get(Number(result.lastInsertRowid))!;
  }

  get(id: number): WebhookRecord | undefined {
    const row = this.db.prepare<[number], Row>(`SELECT * FROM webhooks WHERE id = ? AND ${LIVE}`).get(id);
    return row && recordOf(row);
  }

  list(tenant?: TenantRef): WebhookRecord[] {
    const rows =
      tenant === undefined
        ? this.db.prepare<[], Row>(`SELECT * FROM webhooks WHERE ${LIVE} ORDER BY id`).all()
        : this.db
            .prepare<[number, number], Row>(
              `SELECT * FROM webhooks WHERE contract_id = ? AND servicegroup_id = ? AND ${LIVE} ORDER BY id`,
            )
            .all(tenant.contractId, tenant.servicegroupId);
    return rows.map(recordOf);
  }

  delete(id: number, nowMicros: number): boolean {
    const result = this.db
      .prepare(`UPDATE webhooks SET deleted_us = ? WHERE id = ? AND ${LIVE}`)
      .run(nowMicros, id);
    return result.changes > 0;
  }
}

function recordOf(row: Row): WebhookRecord {
  return {
    id: row.id,
    contractId: row.contract_id,
    servicegroupId: row.servicegroup_id,
    url: row.url,
    secret: row.secret,
    createdMicros: row.created_us,
  };
}
