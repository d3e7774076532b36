import type { SecretBox } from '../../security/index.js';
import type { TenantRef, WebhookRecord, WebhookStore } from '../record-store.js';
import { WEBHOOK_SECRET_PURPOSE, type WebhookRow as Row, webhookRecordOf } from '../record-rows.js';
import type { PgSql } from './pg-connection.js';

/**
 * Webhooks; the signing secret must be read back to sign deliveries, so it is stored encrypted
 * (src/security/secret-box.ts), not hashed.
 */
export class PgWebhookStore implements WebhookStore {
  constructor(
    private readonly sql: PgSql,
    private readonly box: SecretBox,
  ) {}

  async create(tenant: TenantRef, url: string, secret: string, nowMicros: number): Promise<WebhookRecord> {
    const [row] = await this.sql<Row[]>`
      INSERT INTO webhooks (contract_id, servicegroup_id, url, secret, created_us)
      VALUES (${tenant.contractId}, ${tenant.servicegroupId}, ${url}, ${this.box.seal(secret, WEBHOOK_SECRET_PURPOSE)}, ${nowMicros})
      RETURNING *`;
    return this.recordOf(row!);
  }

  async get(id: number): Promise<WebhookRecord | undefined> {
    const [row] = await this.sql<Row[]>`SELECT * FROM webhooks WHERE id = ${id} AND deleted_us IS NULL`;
    return row && this.recordOf(row);
  }

  async list(tenant?: TenantRef): Promise<WebhookRecord[]> {
    const filter =
      tenant === undefined
        ? this.sql``
        : this.sql`AND contract_id = ${tenant.contractId} AND servicegroup_id = ${tenant.servicegroupId}`;
    const rows = await this.sql<Row[]>`SELECT * FROM webhooks WHERE deleted_us IS NULL ${filter} ORDER BY id`;
    return rows.map((row) => this.recordOf(row));
  }

  async delete(id: number, nowMicros: number): Promise<boolean> {
    const result = await this.sql`
      UPDATE webhooks SET deleted_us = ${nowMicros} WHERE id = ${id} AND deleted_us IS NULL`;
    return result.count > 0;
  }

  private recordOf(row: Row): WebhookRecord {
    return webhookRecordOf(row, this.box);
  }
}
