import { type FieldError, InvalidInputError } from '../../domain/index.js';
import type { AccountRecord, AccountRole, InvitationRecord } from '../../store/index.js';
import { type AccountActor, type Actor, isAccountRole } from './account-roles.js';
import { type ManagementDeps, ManagementOperations } from './management-context.js';
import { NotFoundError } from './management-errors.js';
import { checkPassword, hashPassword, verifyPassword } from './password-hash.js';
import { hashSecret, newSecret } from './secret-tokens.js';
import {
  accountAttemptsKey,
  reserveAttempt,
  settle,
  SIGN_IN_LIMITS,
  type SignInLimiter,
} from './sign-in-limiter.js';

/** How long an invitation can be accepted (docs/api.md, Accounts and sessions). */
export const INVITATION_TTL_MICROS = 7 * 24 * 3600 * 1_000_000;

export const EMAIL_MAX_CHARS = 254;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An account as shown: never its password hash. */
export type AccountView = Omit<AccountRecord, 'passwordHash'>;

/** An invitation just made: the token is in this answer only (the store keeps its hash). */
export interface CreatedInvitation {
  invitation: InvitationRecord;
  token: string;
}

/**
 * Console accounts of a contract: invitations (made by the operator or an owner, used once,
 * expiring), accepting one (which sets the password), the users of a contract, changing one's
 * password, and ending a user's sessions (docs/design/management.md, Accounts and sessions).
 */
export class AccountManagement extends ManagementOperations {
  /** `limiter` counts the password attempts of accounts, shared with signing in. */
  constructor(
    deps: ManagementDeps,
    private readonly limiter: SignInLimiter,
  ) {
    super(deps);
  }

  /** The accounts of a contract (every role may read them), or NotFoundError for the contract. */
  async listUsers(scope: { contractId?: number }): Promise<AccountView[]> {
    if (scope.contractId !== undefined) await this.contract(scope.contractId);
    return (await this.store.accounts.list(scope.contractId)).map(shown);
  }

  /**
   * Invites an email address to the contract with a role. An address that already has an
   * account, in this contract or another, is answered like any other (docs/api.md, Accounts and
   * sessions): the answer never tells whether an address has an account; accepting such an
   * invitation is refused.
   */
  async invite(
    actor: Actor,
    contractId: number,
    input: { email: string; role: string },
  ): Promise<CreatedInvitation> {
    this.mayChange(actor, { contractId }, 'invitation');
    await this.contract(contractId);
    const email = normalEmail(input.email);
    const errors: FieldError[] = [];
    if (email.length > EMAIL_MAX_CHARS) {
      errors.push({ field: 'email', reason: `must be at most ${EMAIL_MAX_CHARS} characters long` });
    } else if (!EMAIL.test(email)) {
      errors.push({ field: 'email', reason: 'must be an email address (name@example.com)' });
    }
    if (!isAccountRole(input.role)) {
      errors.push({ field: 'role', reason: 'must be one of owner, editor, viewer' });
    }
    if (errors.length > 0) throw new InvalidInputError(errors);
    const token = newSecret();
    const now = this.now();
    const invitation = await this.store.accounts.createInvitation(
      {
        contractId,
        email,
        role: input.role as AccountRole,
        createdMicros: now,
        expiresMicros: now + INVITATION_TTL_MICROS,
      },
      hashSecret(token),
    );
    await this.changed(actor, 'create', 'invitation', { id: invitation.id, contractId }, now);
    return { invitation, token };
  }

  /**
   * Accepts an invitation: its account is created with the password. Refused (a field error of
   * `token`) when the token is unknown, used or expired; the password's rules name `password`.
   */
  async acceptInvitation(input: { token: string; password: string }): Promise<AccountView> {
    const invitation = await this.store.accounts.findInvitation(hashSecret(input.token));
    const tokenError = (reason: string) => new InvalidInputError([{ field: 'token', reason }]);
    if (invitation === undefined) throw tokenError('no such invitation');
    if (invitation.usedMicros !== null) throw tokenError('the invitation was already used');
    if (invitation.expiresMicros <= this.now()) throw tokenError('the invitation has expired');
    await checkPassword(input.password, 'password');
    if ((await this.store.accounts.findByEmail(invitation.email)) !== undefined) {
      throw new InvalidInputError([{ field: 'token', reason: 'its email address already has an account' }]);
    }
    const passwordHash = await hashPassword(input.password);
    const now = this.now();
    const account = await this.store.accounts.acceptInvitation(invitation.id, passwordHash, now);
    if (account === undefined) throw tokenError('the invitation was already used');
    const actor: Actor = { kind: 'account', ...identity(account), sessionId: 0 };
    await this.changed(
      actor,
      'accept',
      'invitation',
      { id: invitation.id, contractId: account.contractId },
      now,
    );
    await this.changed(actor, 'create', 'account', { id: account.id, contractId: account.contractId }, now);
    return shown(account);
  }

  /**
   * Sets a new password after checking the current one, and ends the account's other sessions
   * (docs/api.md, Accounts and sessions); answers how many were ended. A wrong current password
   * counts as a failed attempt at the account's password, in the account's sign-in limit:
   * SignInLimitedError once it is used up, so a session taken over cannot try passwords at will.
   */
  async changePassword(
    actor: AccountActor,
    input: { currentPassword: string; newPassword: string },
  ): Promise<number> {
    const account = await this.store.accounts.get(actor.accountId);
    if (account === undefined) throw new NotFoundError('account', actor.accountId, 'the account was removed');
    await checkPassword(input.newPassword, 'new_password');
    const accountKey = accountAttemptsKey(account.email);
    const attempt = reserveAttempt(
      this.limiter,
      [{ key: accountKey, limit: SIGN_IN_LIMITS.perAccount }],
      this.now(),
      "attempts at the account's password",
    );
    if (!(await settle(attempt, () => verifyPassword(input.currentPassword, account.passwordHash)))) {
      attempt.failed(this.now());
      throw new InvalidInputError([{ field: 'current_password', reason: 'is not the current password' }]);
    }
    attempt.succeeded();
    this.limiter.clear(accountKey);
    const now = this.now();
    await this.store.accounts.setPassword(account.id, await hashPassword(input.newPassword), now);
    const ended = await this.store.sessions.revokeAll(account.id, now, actor.sessionId);
    await this.changed(actor, 'update', 'account', { id: account.id, contractId: account.contractId }, now);
    return ended;
  }

  /** Ends every session of a user of the contract (an owner's or the operator's); answers how many. */
  async revokeSessions(actor: Actor, contractId: number, accountId: number): Promise<number> {
    this.mayChange(actor, { contractId }, 'session');
    const account = await this.store.accounts.get(accountId);
    if (account === undefined || account.contractId !== contractId) {
      throw new NotFoundError('account', accountId, `no account ${accountId} in contract ${contractId}`);
    }
    const now = this.now();
    const ended = await this.store.sessions.revokeAll(account.id, now);
    await this.changed(actor, 'revoke', 'session', { id: account.id, contractId }, now);
    return ended;
  }

  private async contract(contractId: number): Promise<void> {
    if (!(await this.store.tenants.getContract(contractId)))
      throw new NotFoundError('contract', contractId, `no contract ${contractId}`);
  }
}

/** Email addresses compare without case and surrounding blanks. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function shown(account: AccountRecord): AccountView {
  const { passwordHash: _hash, ...view } = account;
  return view;
}

export function identity(account: AccountRecord): Omit<AccountActor, 'kind' | 'sessionId'> {
  return { accountId: account.id, email: account.email, contractId: account.contractId, role: account.role };
}

/**
 * The console page that accepts an invitation; the token rides in the fragment, which browsers
 * never send to a server or in a Referer (docs/api.md, Accounts and sessions).
 */
export function invitationUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/console/invitation#token=${token}`;
}
