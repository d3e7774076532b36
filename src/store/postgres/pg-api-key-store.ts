import type { ApiKeyRecord, ApiKeyStore, TenantRef } from '../record-store.js';
import type { PgSql } from './pg-connection.js';

export class PgApiKeyStore implements ApiKeyStore {
  constructor(private readonly sql: PgSql) {}

  private readonly columns = () => this.sql`
    id, contract_id AS "contractId", servicegroup_id AS "servicegroupId", prefix, label,
    created_us AS "createdMicros", revoked_us AS "revokedMicros", last_used_us AS "lastUsedMicros"`;

  async insert(
    tenant: TenantRef,
    keyHash: Buffer,
    prefix: string,
    label: string,
    nowMicros: number,
  ): Promise<ApiKeyRecord> {
    const [row] = await this.sql<ApiKeyRecord[]>`
      INSERT INTO api_keys (contract_id, servicegroup_id, key_hash, prefix, label, created_us)
      VALUES (${tenant.contractId}, ${tenant.servicegroupId}, ${keyHash}, ${prefix}, ${label}, ${nowMicros})
      RETURNING ${this.columns()}`;
    return row!;
  }

  async findActiveByHash(keyHash: Buffer): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.sql<ApiKeyRecord[]>`
      SELECT ${this.columns()} FROM api_keys WHERE key_hash = ${keyHash} AND revoked_us IS NULL`;
    return row;
  }

  async list(contractId?: number): Promise<ApiKeyRecord[]> {
    const filter = contractId === undefined ? this.sql`` : this.sql`WHERE contract_id = ${contractId}`;
    return [
      ...(await this.sql<ApiKeyRecord[]>`SELECT ${this.columns()} FROM api_keys ${filter} ORDER BY id`),
    ];
  }

  async revoke(id: number, nowMicros: number): Promise<boolean> {
    const result = await this.sql`
      UPDATE api_keys SET revoked_us = ${nowMicros} WHERE id = ${id} AND revoked_us IS NULL`;
    return result.count > 0;
  }

  async markUsed(id: number, nowMicros: number): Promise<void> {
    await this.sql`
      UPDATE api_keys SET last_used_us = greatest(coalesce(last_used_us, 0), ${nowMicros}) WHERE id = ${id}`;
  }
}
