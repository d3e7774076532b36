import {
  type AccountRecord,
  type AccountRole,
  type AccountStore,
  type InvitationRecord,
  LastOwnerError,
} from '../account-store.js';
import type { PgQueryable, PgSql } from './pg-connection.js';

const ACCOUNT = `id, contract_id AS "contractId", email, role, password_hash AS "passwordHash",
  created_us AS "createdMicros", updated_us AS "updatedMicros"`;
const INVITATION = `id, contract_id AS "contractId", email, role, created_us AS "createdMicros",
  expires_us AS "expiresMicros", used_us AS "usedMicros"`;

/** Console accounts and their invitations. */
export class PgAccountStore implements AccountStore {
  constructor(private readonly sql: PgSql) {}

  private readonly account = () => this.sql.unsafe(ACCOUNT);
  private readonly invitation = () => this.sql.unsafe(INVITATION);

  async findByEmail(email: string): Promise<AccountRecord | undefined> {
    const [row] = await this.sql<
      AccountRecord[]
    >`SELECT ${this.account()} FROM accounts WHERE email = ${email}`;
    return row;
  }

  async get(id: number): Promise<AccountRecord | undefined> {
    const [row] = await this.sql<AccountRecord[]>`SELECT ${this.account()} FROM accounts WHERE id = ${id}`;
    return row;
  }

  async list(contractId?: number): Promise<AccountRecord[]> {
    const filter = contractId === undefined ? this.sql`` : this.sql`WHERE contract_id = ${contractId}`;
    return [
      ...(await this.sql<AccountRecord[]>`SELECT ${this.account()} FROM accounts ${filter} ORDER BY id`),
    ];
  }

  async setPassword(id: number, passwordHash: string, nowMicros: number): Promise<boolean> {
    const result = await this.sql`
      UPDATE accounts SET password_hash = ${passwordHash}, updated_us = ${nowMicros} WHERE id = ${id}`;
    return result.count > 0;
  }

  async setRole(id: number, role: AccountRole, nowMicros: number): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      if (role !== 'owner') await keepAnOwner(tx, id);
      const result = await tx`UPDATE accounts SET role = ${role}, updated_us = ${nowMicros} WHERE id = ${id}`;
      return result.count > 0;
    });
  }

  async remove(id: number): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      await keepAnOwner(tx, id);
      await tx`DELETE FROM sessions WHERE account_id = ${id}`;
      const result = await tx`DELETE FROM accounts WHERE id = ${id}`;
      return result.count > 0;
    });
  }

  async createInvitation(
    invitation: Omit<InvitationRecord, 'id' | 'usedMicros'>,
    tokenHash: Buffer,
  ): Promise<InvitationRecord> {
    const [row] = await this.sql<InvitationRecord[]>`
      INSERT INTO invitations (contract_id, email, role, token_hash, created_us, expires_us)
      VALUES (${invitation.contractId}, ${invitation.email}, ${invitation.role}, ${tokenHash},
        ${invitation.createdMicros}, ${invitation.expiresMicros})
      RETURNING ${this.invitation()}`;
    return row!;
  }

  async findInvitation(tokenHash: Buffer): Promise<InvitationRecord | undefined> {
    const [row] = await this.sql<InvitationRecord[]>`
      SELECT ${this.invitation()} FROM invitations WHERE token_hash = ${tokenHash}`;
    return row;
  }

  async acceptInvitation(
    invitationId: number,
    passwordHash: string,
    nowMicros: number,
  ): Promise<AccountRecord | undefined> {
    return this.sql.begin(async (tx) => {
      // The update locks the invitation: a concurrent acceptance waits, then finds it used.
      const [invitation] = await tx<{ contract_id: number; email: string; role: AccountRole }[]>`
        UPDATE invitations SET used_us = ${nowMicros} WHERE id = ${invitationId} AND used_us IS NULL
        RETURNING contract_id, email, role`;
      if (invitation === undefined) return undefined;
      const [account] = await tx<AccountRecord[]>`
        INSERT INTO accounts (contract_id, email, role, password_hash, created_us, updated_us)
        VALUES (${invitation.contract_id}, ${invitation.email}, ${invitation.role}, ${passwordHash},
          ${nowMicros}, ${nowMicros})
        RETURNING ${tx.unsafe(ACCOUNT)}`;
      return account;
    });
  }
}

/**
 * Throws LastOwnerError when the account is its contract's only owner. The owners of a contract
 * are counted under a lock of that contract held to the end of the change's transaction, so two
 * concurrent demotions or removals are counted one after the other.
 */
async function keepAnOwner(tx: PgQueryable, id: number): Promise<void> {
  const [account] = await tx<{ contract_id: number; role: string }[]>`
    SELECT contract_id, role FROM accounts WHERE id = ${id}`;
  if (account === undefined || account.role !== 'owner') return;
  await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`kumo.owners:${account.contract_id}`}, 0))`;
  const [owners] = await tx<{ count: number }[]>`
    SELECT count(*) AS count FROM accounts WHERE contract_id = ${account.contract_id} AND role = 'owner'`;
  if (owners!.count <= 1) throw new LastOwnerError(id);
}
