import type { AccountRole } from '../../store/index.js';
import { ForbiddenError, type ManagedResource, NotFoundError } from './management-errors.js';
import type { Scope } from './management-scope.js';

/**
 * Who may do what (docs/api.md, Roles): the operator everything; within its own contract a
 * viewer reads, an editor also changes crawl service settings, runs and search services, an
 * owner also API keys, webhooks, service groups and users, and reads the audit log. Contracts are
 * the operator's alone. A resource of another contract is not found, as the scope makes it.
 */
export const ACCOUNT_ROLES: readonly AccountRole[] = ['owner', 'editor', 'viewer'];

export type Need = AccountRole | 'operator';

const RANK: Record<AccountRole, number> = { viewer: 0, editor: 1, owner: 2 };

/** The role a change of each resource needs. */
export const CHANGE_NEEDS: Record<ManagedResource, Need> = {
  contract: 'operator',
  'service group': 'owner',
  'API key': 'owner',
  webhook: 'owner',
  delivery: 'owner',
  'crawl service setting': 'editor',
  'crawl run': 'editor',
  'search service': 'editor',
  account: 'owner',
  invitation: 'owner',
  session: 'owner',
  'operator session': 'operator',
  'audit log': 'owner',
};

/** An account signed in to the console, acting within its contract. */
export interface AccountActor {
  kind: 'account';
  accountId: number;
  email: string;
  contractId: number;
  role: AccountRole;
  /** The session the request came with. */
  sessionId: number;
}

/**
 * The operator: the `KUMO_ADMIN_TOKEN` holder through the API, whoever runs `kumo admin`, or
 * `kumo serve` itself making the demo tenant at its first start.
 */
export interface OperatorActor {
  kind: 'operator';
  via: 'admin-api' | 'cli' | 'console' | 'first-start';
}

export type Actor = OperatorActor | AccountActor;

/**
 * Throws unless the actor may act with `need` within the scope: NotFoundError for another
 * contract (as a missing resource answers), ForbiddenError for a role below `need`.
 */
export function authorize(actor: Actor, scope: Scope, need: Need, what: ManagedResource): void {
  if (actor.kind === 'operator') return;
  if (scope.contractId === undefined) throw new ForbiddenError('only the operator may reach every contract');
  if (scope.contractId !== actor.contractId) {
    throw new NotFoundError('contract', scope.contractId, `no contract ${scope.contractId}`);
  }
  if (need === 'operator' || RANK[actor.role] < RANK[need]) {
    const needed = need === 'operator' ? 'the operator' : `the ${need} role`;
    throw new ForbiddenError(`a ${actor.role} may not change a ${what}: it needs ${needed}`);
  }
}

export function isAccountRole(value: string): value is AccountRole {
  return (ACCOUNT_ROLES as readonly string[]).includes(value);
}
