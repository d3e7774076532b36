import type { Synchronous } from './synchronous-store.js';
import type Database from 'better-sqlite3';
import type { AuditEntry, AuditStore } from '../account-store.js';

const COLUMNS = `id, at_us AS atMicros, contract_id AS contractId, servicegroup_id AS servicegroupId,
  actor_kind AS actorKind, actor_via AS actorVia, actor_account_id AS actorAccountId,
  actor_email AS actorEmail, action, resource, resource_id AS resourceId`;

/** The audit log of management changes: appended, never changed. */
export class SqliteAuditStore implements Synchronous<AuditStore> {
  constructor(private readonly db: Database.Database) {}

  append(entry: Omit<AuditEntry, 'id'>): void {
    this.db
      .prepare(
        `INSERT INTO audit_log (at_us, contract_id, servicegroup_id, actor_kind, actor_via,
           actor_account_id, actor_email, action, resource, resource_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        entry.atMicros,
        entry.contractId,
        entry.servicegroupId,
        entry.actorKind,
        entry.actorVia,
        entry.actorAccountId,
        entry.actorEmail,
        entry.action,
        entry.resource,
        entry.resourceId,
      );
  }

  list(filter: { contractId?: number; beforeId?: number; limit: number }): AuditEntry[] {
    const before = filter.beforeId ?? Number.MAX_SAFE_INTEGER;
    if (filter.contractId === undefined) {
      return this.db
        .prepare<[number, number], AuditEntry>(
          `SELECT ${COLUMNS} FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT ?`,
        )
        .all(before, filter.limit);
    }
    return this.db
      .prepare<[number, number, number], AuditEntry>(
        `SELECT ${COLUMNS} FROM audit_log WHERE contract_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
      )
      .all(filter.contractId, before, filter.limit);
  }
}
