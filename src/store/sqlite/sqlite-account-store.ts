import type { Synchronous } from './synchronous-store.js';
import type Database from 'better-sqlite3';
import {
  type AccountRecord,
  type AccountRole,
  type AccountStore,
  type InvitationRecord,
  LastOwnerError,
} from '../account-store.js';

const ACCOUNT = `id, contract_id AS contractId, email, role, password_hash AS passwordHash,
  created_us AS createdMicros, updated_us AS updatedMicros`;
const INVITATION = `id, contract_id AS contractId, email, role, created_us AS createdMicros,
  expires_us AS expiresMicros, used_us AS usedMicros`;

/** Accounts and their invitations in the service database. */
export class SqliteAccountStore implements Synchronous<AccountStore> {
  constructor(private readonly db: Database.Database) {}

  findByEmail(email: string): AccountRecord | undefined {
    return this.db
      .prepare<[string], AccountRecord>(`SELECT ${ACCOUNT} FROM accounts WHERE email = ?`)
      .get(email);
  }

  get(id: number): AccountRecord | undefined {
    return this.db.prepare<[number], AccountRecord>(`SELECT ${ACCOUNT} FROM accounts WHERE id = ?`).get(id);
  }

  list(contractId?: number): AccountRecord[] {
    if (contractId === undefined)
      return this.db.prepare<[], AccountRecord>(`SELECT ${ACCOUNT} FROM accounts ORDER BY id`).all();
    return this.db
      .prepare<[number], AccountRecord>(`SELECT ${ACCOUNT} FROM accounts WHERE contract_id = ? ORDER BY id`)
      .all(contractId);
  }

  setPassword(id: number, passwordHash: string, nowMicros: number): boolean {
    return (
      this.db
        .prepare('UPDATE accounts SET password_hash = ?, updated_us = ? WHERE id = ?')
        .run(passwordHash, nowMicros, id).changes > 0
    );
  }

  setRole(id: number, role: AccountRole, nowMicros: number): boolean {
    return this.db
      .transaction(() => {
        if (role !== 'owner') this.keepAnOwner(id);
        return (
          this.db
            .prepare('UPDATE accounts SET role = ?, updated_us = ? WHERE id = ?')
            .run(role, nowMicros, id).changes > 0
        );
      })
      .immediate();
  }

  remove(id: number): boolean {
    return this.db
      .transaction(() => {
        this.keepAnOwner(id);
        this.db.prepare('DELETE FROM sessions WHERE account_id = ?').run(id);
        return this.db.prepare('DELETE FROM accounts WHERE id = ?').run(id).changes > 0;
      })
      .immediate();
  }

  /** Throws LastOwnerError when the account is its contract's only owner (inside the change's transaction). */
  private keepAnOwner(id: number): void {
    const account = this.db
      .prepare<[number], { contract_id: number; role: string }>(
        'SELECT contract_id, role FROM accounts WHERE id = ?',
      )
      .get(id);
    if (account?.role !== 'owner') return;
    const owners = this.db
      .prepare<[number], number>(`SELECT count(*) FROM accounts WHERE contract_id = ? AND role = 'owner'`)
      .pluck()
      .get(account.contract_id)!;
    if (owners <= 1) throw new LastOwnerError(id);
  }

  createInvitation(
    invitation: Omit<InvitationRecord, 'id' | 'usedMicros'>,
    tokenHash: Buffer,
  ): InvitationRecord {
    const result = this.db
      .prepare(
        `INSERT INTO invitations (contract_id, email, role, token_hash, created_us, expires_us)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(
        invitation.contractId,
        invitation.email,
        invitation.role,
        tokenHash,
        invitation.createdMicros,
        invitation.expiresMicros,
      );
    return this.invitation(Number(result.lastInsertRowid))!;
  }

  findInvitation(tokenHash: Buffer): InvitationRecord | undefined {
    return this.db
      .prepare<[Buffer], InvitationRecord>(`SELECT ${INVITATION} FROM invitations WHERE token_hash = ?`)
      .get(tokenHash);
  }

  acceptInvitation(invitationId: number, passwordHash: string, nowMicros: number): AccountRecord | undefined {
    return this.db
      .transaction(() => {
        const marked = this.db
          .prepare('UPDATE invitations SET used_us = ? WHERE id = ? AND used_us IS NULL')
          .run(nowMicros, invitationId);
        if (marked.changes === 0) return undefined;
        const invitation = this.invitation(invitationId)!;
        const result = this.db
          .prepare(
            `INSERT INTO accounts (contract_id, email, role, password_hash, created_us, updated_us)
             VALUES (?, ?, ?, ?, ?, ?)`,
          )
          .run(invitation.contractId, invitation.email, invitation.role, passwordHash, nowMicros, nowMicros);
        return this.get(Number(result.lastInsertRowid));
      })
      .immediate();
  }

  private invitation(id: number): InvitationRecord | undefined {
    return this.db
      .prepare<[number], InvitationRecord>(`SELECT ${INVITATION} FROM invitations WHERE id = ?`)
      .get(id);
  }
}
