import type { Synchronous } from './synchronous-store.js';
import type Database from 'better-sqlite3';
import { SecretBox } from '../../security/index.js';
import type { TenantRef, WebhookRecord, WebhookStore } from '../record-store.js';
import { WEBHOOK_SECRET_PURPOSE, type WebhookRow as Row, webhookRecordOf } from '../record-rows.js';

const LIVE = 'deleted_us IS NULL';

/**
 * Webhooks; the signing secret must be read back to sign deliveries, so it is stored encrypted
 * (src/security/secret-box.ts), not hashed. Rows of older versions hold it in plain text until
 * `sealPlainSecrets` (run when the store opens) encrypts them.
 */
export class SqliteWebhookStore implements Synchronous<WebhookStore> {
  constructor(
    private readonly db: Database.Database,
    private readonly box: SecretBox,
  ) {}

  create(tenant: TenantRef, url: string, secret: string, nowMicros: number): WebhookRecord {
    const result = this.db
      .prepare(
        'INSERT INTO webhooks (contract_id, servicegroup_id, url, secret, created_us) VALUES (?, ?, ?, ?, ?)',
      )
      .run(
        tenant.contractId,
        tenant.servicegroupId,
        url,
        this.box.seal(secret, WEBHOOK_SECRET_PURPOSE),
        nowMicros,
      );
    return this.get(Number(result.lastInsertRowid))!;
  }

  get(id: number): WebhookRecord | undefined {
    const row = this.db.prepare<[number], Row>(`SELECT * FROM webhooks WHERE id = ? AND ${LIVE}`).get(id);
    return row && this.recordOf(row);
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
    return rows.map((row) => this.recordOf(row));
  }

  delete(id: number, nowMicros: number): boolean {
    const result = this.db
      .prepare(`UPDATE webhooks SET deleted_us = ? WHERE id = ? AND ${LIVE}`)
      .run(nowMicros, id);
    return result.changes > 0;
  }

  /**
   * Encrypts the secrets stored in plain text by older versions (deleted webhooks too: their
   * secrets stay in the table). Returns how many were encrypted; run inside the caller's transaction.
   */
  sealPlainSecrets(): number {
    const rows = this.db.prepare<[], { id: number; secret: string }>('SELECT id, secret FROM webhooks').all();
    const update = this.db.prepare('UPDATE webhooks SET secret = ? WHERE id = ?');
    let sealed = 0;
    for (const row of rows) {
      if (SecretBox.isSealed(row.secret)) continue;
      update.run(this.box.seal(row.secret, WEBHOOK_SECRET_PURPOSE), row.id);
      sealed++;
    }
    return sealed;
  }

  /** Opens one encrypted secret, if any: SecretKeyMismatchError when the key is not theirs. */
  checkKey(): void {
    const secret = this.db
      .prepare<[], string>(`SELECT secret FROM webhooks WHERE secret LIKE 'v1:%' ORDER BY id DESC LIMIT 1`)
      .pluck()
      .get();
    if (secret !== undefined) this.box.openOrPlain(secret, WEBHOOK_SECRET_PURPOSE);
  }

  private recordOf(row: Row): WebhookRecord {
    return webhookRecordOf(row, this.box);
  }
}
