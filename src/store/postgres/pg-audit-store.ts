import type { AuditEntry, AuditStore } from '../account-store.js';
import type { PgSql } from './pg-connection.js';

const COLUMNS = `id, at_us AS "atMicros", contract_id AS "contractId", servicegroup_id AS "servicegroupId",
  actor_kind AS "actorKind", actor_via AS "actorVia", actor_account_id AS "actorAccountId",
  actor_email AS "actorEmail", action, resource, resource_id AS "resourceId"`;

/** The audit log of management changes: appended, never changed. */
export class PgAuditStore implements AuditStore {
  constructor(private readonly sql: PgSql) {}

  async append(entry: Omit<AuditEntry, 'id'>): Promise<void> {
    await this.sql`
      INSERT INTO audit_log (at_us, contract_id, servicegroup_id, actor_kind, actor_via,
        actor_account_id, actor_email, action, resource, resource_id)
      VALUES (${entry.atMicros}, ${entry.contractId}, ${entry.servicegroupId}, ${entry.actorKind},
        ${entry.actorVia}, ${entry.actorAccountId}, ${entry.actorEmail}, ${entry.action}, ${entry.resource},
        ${entry.resourceId})`;
  }

  async list(filter: { contractId?: number; beforeId?: number; limit: number }): Promise<AuditEntry[]> {
    const contract =
      filter.contractId === undefined ? this.sql`` : this.sql`AND contract_id = ${filter.contractId}`;
    return [
      ...(await this.sql<AuditEntry[]>`
        SELECT ${this.sql.unsafe(COLUMNS)} FROM audit_log
        WHERE id < ${filter.beforeId ?? Number.MAX_SAFE_INTEGER} ${contract}
        ORDER BY id DESC LIMIT ${filter.limit}`),
    ];
  }
}
