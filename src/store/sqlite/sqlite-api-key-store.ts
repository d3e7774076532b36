import type { Synchronous } from './synchronous-store.js';
import type Database from 'better-sqlite3';
import type { ApiKeyRecord, ApiKeyStore, TenantRef } from '../record-store.js';

const COLUMNS = `id, contract_id AS contractId, servicegroup_id AS servicegroupId, prefix, label,
  created_us AS createdMicros, revoked_us AS revokedMicros, last_used_us AS lastUsedMicros`;

export class SqliteApiKeyStore implements Synchronous<ApiKeyStore> {
  constructor(private readonly db: Database.Database) {}

  insert(tenant: TenantRef, keyHash: Buffer, prefix: string, label: string, nowMicros: number): ApiKeyRecord {
    const result = this.db
      .prepare(
        'INSERT INTO api_keys (contract_id, servicegroup_id, key_hash, prefix, label, created_us) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(tenant.contractId, tenant.servicegroupId, keyHash, prefix, label, nowMicros);
    return this.db
      .prepare<[number], ApiKeyRecord>(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`)
      .get(Number(result.lastInsertRowid))!;
  }

  findActiveByHash(keyHash: Buffer): ApiKeyRecord | undefined {
    return this.db
      .prepare<[Buffer], ApiKeyRecord>(
        `SELECT ${COLUMNS} FROM api_keys WHERE key_hash = ? AND revoked_us IS NULL`,
      )
      .get(keyHash);
  }

  list(contractId?: number): ApiKeyRecord[] {
    if (contractId === undefined) {
      return this.db.prepare<[], ApiKeyRecord>(`SELECT ${COLUMNS} FROM api_keys ORDER BY id`).all();
    }
    return this.db
      .prepare<[number], ApiKeyRecord>(`SELECT ${COLUMNS} FROM api_keys WHERE contract_id = ? ORDER BY id`)
      .all(contractId);
  }

  revoke(id: number, nowMicros: number): boolean {
    return (
      this.db
        .prepare('UPDATE api_keys SET revoked_us = ? WHERE id = ? AND revoked_us IS NULL')
        .run(nowMicros, id).changes > 0
    );
  }

  markUsed(id: number, nowMicros: number): void {
    this.db
      .prepare('UPDATE api_keys SET last_used_us = max(coalesce(last_used_us, 0), ?) WHERE id = ?')
      .run(nowMicros, id);
  }
}
