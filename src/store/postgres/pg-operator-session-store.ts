import type { OperatorSessionRecord, OperatorSessionStore } from '../account-store.js';
import type { PgSql } from './pg-connection.js';

const COLUMNS = `id, created_us AS "createdMicros", last_seen_us AS "lastSeenMicros", expires_us AS "expiresMicros",
  revoked_us AS "revokedMicros", user_agent AS "userAgent", address, token_fingerprint AS "tokenFingerprint"`;

/** The operator's console sessions, found by the SHA-256 of their id. */
export class PgOperatorSessionStore implements OperatorSessionStore {
  constructor(private readonly sql: PgSql) {}

  private readonly columns = () => this.sql.unsafe(COLUMNS);

  async create(
    session: Omit<OperatorSessionRecord, 'id' | 'revokedMicros'>,
    idHash: Buffer,
  ): Promise<OperatorSessionRecord> {
    const [row] = await this.sql<OperatorSessionRecord[]>`
      INSERT INTO operator_sessions
        (id_hash, created_us, last_seen_us, expires_us, user_agent, address, token_fingerprint)
      VALUES (${idHash}, ${session.createdMicros}, ${session.lastSeenMicros}, ${session.expiresMicros},
        ${session.userAgent}, ${session.address}, ${session.tokenFingerprint})
      RETURNING ${this.columns()}`;
    return row!;
  }

  async findByHash(idHash: Buffer): Promise<OperatorSessionRecord | undefined> {
    const [row] = await this.sql<OperatorSessionRecord[]>`
      SELECT ${this.columns()} FROM operator_sessions WHERE id_hash = ${idHash}`;
    return row;
  }

  async listActive(tokenFingerprint: Buffer, nowMicros: number): Promise<OperatorSessionRecord[]> {
    return [
      ...(await this.sql<OperatorSessionRecord[]>`
        SELECT ${this.columns()} FROM operator_sessions
        WHERE token_fingerprint = ${tokenFingerprint} AND revoked_us IS NULL AND expires_us > ${nowMicros}
        ORDER BY id`),
    ];
  }

  async touch(id: number, nowMicros: number): Promise<void> {
    await this.sql`UPDATE operator_sessions SET last_seen_us = ${nowMicros} WHERE id = ${id}`;
  }

  async revoke(id: number, nowMicros: number): Promise<boolean> {
    const result = await this.sql`
      UPDATE operator_sessions SET revoked_us = ${nowMicros} WHERE id = ${id} AND revoked_us IS NULL`;
    return result.count > 0;
  }
}
