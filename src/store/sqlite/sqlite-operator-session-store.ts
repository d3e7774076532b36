import type { Synchronous } from './synchronous-store.js';
import type Database from 'better-sqlite3';
import type { OperatorSessionRecord, OperatorSessionStore } from '../account-store.js';

const COLUMNS = `id, created_us AS createdMicros, last_seen_us AS lastSeenMicros, expires_us AS expiresMicros,
  revoked_us AS revokedMicros, user_agent AS userAgent, address, token_fingerprint AS tokenFingerprint`;

/** The operator's console sessions, found by the SHA-256 of their id. */
export class SqliteOperatorSessionStore implements Synchronous<OperatorSessionStore> {
  constructor(private readonly db: Database.Database) {}

  create(
    session: Omit<OperatorSessionRecord, 'id' | 'revokedMicros'>,
    idHash: Buffer,
  ): OperatorSessionRecord {
    const result = this.db
      .prepare(
        `INSERT INTO operator_sessions
           (id_hash, created_us, last_seen_us, expires_us, user_agent, address, token_fingerprint)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        idHash,
        session.createdMicros,
        session.lastSeenMicros,
        session.expiresMicros,
        session.userAgent,
        session.address,
        session.tokenFingerprint,
      );
    return this.db
      .prepare<[number], OperatorSessionRecord>(`SELECT ${COLUMNS} FROM operator_sessions WHERE id = ?`)
      .get(Number(result.lastInsertRowid))!;
  }

  findByHash(idHash: Buffer): OperatorSessionRecord | undefined {
    return this.db
      .prepare<[Buffer], OperatorSessionRecord>(`SELECT ${COLUMNS} FROM operator_sessions WHERE id_hash = ?`)
      .get(idHash);
  }

  listActive(tokenFingerprint: Buffer, nowMicros: number): OperatorSessionRecord[] {
    return this.db
      .prepare<[Buffer, number], OperatorSessionRecord>(
        `SELECT ${COLUMNS} FROM operator_sessions
         WHERE token_fingerprint = ? AND revoked_us IS NULL AND expires_us > ? ORDER BY id`,
      )
      .all(tokenFingerprint, nowMicros);
  }

  touch(id: number, nowMicros: number): void {
    this.db.prepare('UPDATE operator_sessions SET last_seen_us = ? WHERE id = ?').run(nowMicros, id);
  }

  revoke(id: number, nowMicros: number): boolean {
    return (
      this.db
        .prepare('UPDATE operator_sessions SET revoked_us = ? WHERE id = ? AND revoked_us IS NULL')
        .run(nowMicros, id).changes > 0
    );
  }
}
