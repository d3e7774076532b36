/**
 * Console accounts, their invitations and sessions, and the audit log of management changes
 * (docs/design/management.md, Accounts and sessions). Secrets are never stored: invitation tokens
 * and session ids as their SHA-256, passwords as scrypt hashes.
 */

/** What an account may do within its contract (docs/api.md, Accounts and sessions). */
export type AccountRole = 'owner' | 'editor' | 'viewer';

export interface AccountRecord {
  id: number;
  contractId: number;
  /** Lower case; one account per address over all contracts. */
  email: string;
  role: AccountRole;
  /** `scrypt$N$r$p$salt$hash` (password-hash.ts). */
  passwordHash: string;
  createdMicros: number;
  updatedMicros: number;
}

export interface InvitationRecord {
  id: number;
  contractId: number;
  email: string;
  role: AccountRole;
  createdMicros: number;
  expiresMicros: number;
  /** When it was accepted; an invitation is used once. */
  usedMicros: number | null;
}

/** setRole or remove would leave a contract without an owner: refused, nothing changed. */
export class LastOwnerError extends Error {
  override name = 'LastOwnerError';

  constructor(readonly accountId: number) {
    super(`account ${accountId} is the contract's last owner`);
  }
}

export interface AccountStore {
  findByEmail(email: string): Promise<AccountRecord | undefined>;
  get(id: number): Promise<AccountRecord | undefined>;
  list(contractId?: number): Promise<AccountRecord[]>;
  setPassword(id: number, passwordHash: string, nowMicros: number): Promise<boolean>;
  /**
   * Sets the role; false when there is no such account. Demoting the contract's last owner
   * throws LastOwnerError: the count of owners and the change are one transaction, so two
   * concurrent demotions cannot leave a contract without one.
   */
  setRole(id: number, role: AccountRole, nowMicros: number): Promise<boolean>;
  /**
   * Deletes the account and its sessions, in one transaction; false when there is none.
   * Removing the contract's last owner throws LastOwnerError, as setRole.
   */
  remove(id: number): Promise<boolean>;
  createInvitation(
    invitation: Omit<InvitationRecord, 'id' | 'usedMicros'>,
    tokenHash: Buffer,
  ): Promise<InvitationRecord>;
  findInvitation(tokenHash: Buffer): Promise<InvitationRecord | undefined>;
  /**
   * Marks the invitation used and creates its account, in one transaction; undefined when it was
   * used meanwhile (the account is not created then).
   */
  acceptInvitation(
    invitationId: number,
    passwordHash: string,
    nowMicros: number,
  ): Promise<AccountRecord | undefined>;
}

export interface SessionRecord {
  id: number;
  accountId: number;
  createdMicros: number;
  lastSeenMicros: number;
  /** The absolute end: no use extends it. */
  expiresMicros: number;
  revokedMicros: number | null;
  userAgent: string;
  address: string;
}

export interface SessionStore {
  create(session: Omit<SessionRecord, 'id' | 'revokedMicros'>, idHash: Buffer): Promise<SessionRecord>;
  findByHash(idHash: Buffer): Promise<SessionRecord | undefined>;
  get(id: number): Promise<SessionRecord | undefined>;
  /** Sessions of the account neither revoked nor past their absolute end at `nowMicros`. */
  listActive(accountId: number, nowMicros: number): Promise<SessionRecord[]>;
  touch(id: number, nowMicros: number): Promise<void>;
  revoke(id: number, nowMicros: number): Promise<boolean>;
  /** Revokes every active session of the account but `exceptId`; answers how many. */
  revokeAll(accountId: number, nowMicros: number, exceptId?: number): Promise<number>;
}

/** A console session of the operator, who signed in with the admin token: no account. */
export interface OperatorSessionRecord extends Omit<SessionRecord, 'accountId'> {
  /**
   * The fingerprint of the admin token the session was made with (never the token); null for a
   * session made before sessions were bound to their token, which no token opens.
   */
  tokenFingerprint: Buffer | null;
}

export interface OperatorSessionStore {
  create(
    session: Omit<OperatorSessionRecord, 'id' | 'revokedMicros'>,
    idHash: Buffer,
  ): Promise<OperatorSessionRecord>;
  findByHash(idHash: Buffer): Promise<OperatorSessionRecord | undefined>;
  /** The sessions of a token's fingerprint neither revoked nor past their absolute end, oldest first. */
  listActive(tokenFingerprint: Buffer, nowMicros: number): Promise<OperatorSessionRecord[]>;
  touch(id: number, nowMicros: number): Promise<void>;
  revoke(id: number, nowMicros: number): Promise<boolean>;
}

/** One change made through the management operations (docs/api.md, Audit log). */
export interface AuditEntry {
  id: number;
  atMicros: number;
  /** Null for a change outside any contract. */
  contractId: number | null;
  servicegroupId: number | null;
  actorKind: 'operator' | 'account';
  /** `admin-api` or `cli` for the operator, `session` for an account. */
  actorVia: string;
  actorAccountId: number | null;
  actorEmail: string | null;
  action: string;
  resource: string;
  resourceId: number;
}

export interface AuditStore {
  append(entry: Omit<AuditEntry, 'id'>): Promise<void>;
  /** A contract's entries (or all), newest first, those with an id below `beforeId` when given. */
  list(filter: { contractId?: number; beforeId?: number; limit: number }): Promise<AuditEntry[]>;
}
