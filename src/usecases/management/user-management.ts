import { InvalidInputError } from '../../domain/index.js';
import {
  type AccountRecord,
  type AccountRole,
  LastOwnerError,
  type SessionRecord,
} from '../../store/index.js';
import { type Actor, isAccountRole } from './account-roles.js';
import { shown, type AccountView } from './account-management.js';
import { ManagementOperations } from './management-context.js';
import { ConflictError, NotFoundError } from './management-errors.js';
import { isLive } from './session-management.js';

/**
 * What an owner (or the operator) does to the users of a contract (docs/api.md, Accounts and
 * sessions): change a role, remove a user, read a user's sessions and end one of them. A contract
 * always keeps an owner: the last one can be neither demoted nor removed.
 */
export class UserManagement extends ManagementOperations {
  async changeRole(actor: Actor, contractId: number, accountId: number, role: string): Promise<AccountView> {
    this.mayChange(actor, { contractId }, 'account');
    const account = await this.account(contractId, accountId);
    if (!isAccountRole(role))
      throw new InvalidInputError([{ field: 'role', reason: 'must be one of owner, editor, viewer' }]);
    const now = this.now();
    await keepingAnOwner(account, 'demoted', () =>
      this.store.accounts.setRole(account.id, role as AccountRole, now),
    );
    await this.changed(actor, 'update', 'account', account, now);
    return shown((await this.store.accounts.get(account.id))!);
  }

  /** Removes the account and ends its sessions; its entries in the audit log stay. */
  async remove(actor: Actor, contractId: number, accountId: number): Promise<void> {
    this.mayChange(actor, { contractId }, 'account');
    const account = await this.account(contractId, accountId);
    await keepingAnOwner(account, 'removed', () => this.store.accounts.remove(account.id));
    await this.changed(actor, 'delete', 'account', account, this.now());
  }

  /** The user's live sessions, oldest first. */
  async sessions(actor: Actor, contractId: number, accountId: number): Promise<SessionRecord[]> {
    this.mayChange(actor, { contractId }, 'session');
    const account = await this.account(contractId, accountId);
    const now = this.now();
    return (await this.store.sessions.listActive(account.id, now)).filter((session) => isLive(session, now));
  }

  /** Ends one session of the user; NotFoundError when it is not one of theirs or has ended. */
  async endSession(actor: Actor, contractId: number, accountId: number, sessionId: number): Promise<void> {
    const session = (await this.sessions(actor, contractId, accountId)).find((one) => one.id === sessionId);
    const now = this.now();
    if (session === undefined || !(await this.store.sessions.revoke(session.id, now))) {
      throw new NotFoundError('session', sessionId, `no active session ${sessionId} of account ${accountId}`);
    }
    await this.changed(actor, 'revoke', 'session', { id: session.id, contractId }, now);
  }

  private async account(contractId: number, accountId: number): Promise<AccountRecord> {
    const account = await this.store.accounts.get(accountId);
    if (account === undefined || account.contractId !== contractId) {
      throw new NotFoundError('account', accountId, `no account ${accountId} in contract ${contractId}`);
    }
    return account;
  }
}

/** Runs a change the store refuses for a contract's last owner (LastOwnerError): a ConflictError then. */
async function keepingAnOwner(
  account: AccountRecord,
  what: string,
  change: () => Promise<boolean>,
): Promise<void> {
  try {
    await change();
  } catch (error) {
    if (!(error instanceof LastOwnerError)) throw error;
    throw new ConflictError(
      'account',
      account.id,
      `account ${account.id} is the contract's last owner and cannot be ${what}; make another user owner first`,
    );
  }
}
