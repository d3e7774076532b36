import type { SessionRecord, SessionStore } from '../account-store.js';
import type { PgSql } from './pg-connection.js';

const COLUMNS = `id, account_id AS "accountId", created_us AS "createdMicros", last_seen_us AS "lastSeenMicros",
  expires_us AS "expiresMicros", revoked_us AS "revokedMicros", user_agent AS "userAgent", address`;

/** Console sessions, found by the SHA-256 of their id. */
export class PgSessionStore implements SessionStore {
  constructor(private readonly sql: PgSql) {}

  private readonly columns = () => this.sql.unsafe(COLUMNS);

  async create(session: Omit<SessionRecord, 'id' | 'revokedMicros'>, idHash: Buffer): Promise<SessionRecord> {
    const [row] = await this.sql<SessionRecord[]>`
      INSERT INTO sessions (account_id, id_hash, created_us, last_seen_us, expires_us, user_agent, address)
      VALUES (${session.accountId}, ${idHash}, ${session.createdMicros}, ${session.lastSeenMicros},
        ${session.expiresMicros}, ${session.userAgent}, ${session.address})
      RETURNING ${this.columns()}`;
    return row!;
  }

  async findByHash(idHash: Buffer): Promise<SessionRecord | undefined> {
    const [row] = await this.sql<
      SessionRecord[]
    >`SELECT ${this.columns()} FROM sessions WHERE id_hash = ${idHash}`;
    return row;
  }

  async get(id: number): Promise<SessionRecord | undefined> {
    const [row] = await this.sql<SessionRecord[]>`SELECT ${this.columns()} FROM sessions WHERE id = ${id}`;
    return row;
  }

  async listActive(accountId: number, nowMicros: number): Promise<SessionRecord[]> {
    return [
      ...(await this.sql<SessionRecord[]>`
        SELECT ${this.columns()} FROM sessions
        WHERE account_id = ${accountId} AND revoked_us IS NULL AND expires_us > ${nowMicros} ORDER BY id`),
    ];
  }

  async touch(id: number, nowMicros: number): Promise<void> {
    await this.sql`UPDATE sessions SET last_seen_us = ${nowMicros} WHERE id = ${id}`;
  }

  async revoke(id: number, nowMicros: number): Promise<boolean> {
    const result = await this.sql`
      UPDATE sessions SET revoked_us = ${nowMicros} WHERE id = ${id} AND revoked_us IS NULL`;
    return result.count > 0;
  }

  async revokeAll(accountId: number, nowMicros: number, exceptId?: number): Promise<number> {
    const result = await this.sql`
      UPDATE sessions SET revoked_us = ${nowMicros}
      WHERE account_id = ${accountId} AND revoked_us IS NULL AND id <> ${exceptId ?? 0}`;
    return result.count;
  }
}
