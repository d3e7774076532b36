import type { Synchronous } from './synchronous-store.js';
import type Database from 'better-sqlite3';
import type { SessionRecord, SessionStore } from '../account-store.js';

const COLUMNS = `id, account_id AS accountId, created_us AS createdMicros, last_seen_us AS lastSeenMicros,
  expires_us AS expiresMicros, revoked_us AS revokedMicros, user_agent AS userAgent, address`;

/** Console sessions, found by the SHA-256 of their id. */
export class SqliteSessionStore implements Synchronous<SessionStore> {
  constructor(private readonly db: Database.Database) {}

  create(session: Omit<SessionRecord, 'id' | 'revokedMicros'>, idHash: Buffer): SessionRecord {
    const result = this.db
      .prepare(
        `INSERT INTO sessions (account_id, id_hash, created_us, last_seen_us, expires_us, user_agent, address)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        session.accountId,
        idHash,
        session.createdMicros,
        session.lastSeenMicros,
        session.expiresMicros,
        session.userAgent,
        session.address,
      );
    return this.get(Number(result.lastInsertRowid))!;
  }

  findByHash(idHash: Buffer): SessionRecord | undefined {
    return this.db
      .prepare<[Buffer], SessionRecord>(`SELECT ${COLUMNS} FROM sessions WHERE id_hash = ?`)
      .get(idHash);
  }

  get(id: number): SessionRecord | undefined {
    return this.db.prepare<[number], SessionRecord>(`SELECT ${COLUMNS} FROM sessions WHERE id = ?`).get(id);
  }

  listActive(accountId: number, nowMicros: number): SessionRecord[] {
    return this.db
      .prepare<[number, number], SessionRecord>(
        `SELECT ${COLUMNS} FROM sessions
         WHERE account_id = ? AND revoked_us IS NULL AND expires_us > ? ORDER BY id`,
      )
      .all(accountId, nowMicros);
  }

  touch(id: number, nowMicros: number): void {
    this.db.prepare('UPDATE sessions SET last_seen_us = ? WHERE id = ?').run(nowMicros, id);
  }

  revoke(id: number, nowMicros: number): boolean {
    return (
      this.db
        .prepare('UPDATE sessions SET revoked_us = ? WHERE id = ? AND revoked_us IS NULL')
        .run(nowMicros, id).changes > 0
    );
  }

  revokeAll(accountId: number, nowMicros: number, exceptId?: number): number {
    return this.db
      .prepare('UPDATE sessions SET revoked_us = ? WHERE account_id = ? AND revoked_us IS NULL AND id <> ?')
      .run(nowMicros, accountId, exceptId ?? 0).changes;
  }
}
