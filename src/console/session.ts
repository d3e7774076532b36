/**
 * Who is signed in (docs/api.md, Accounts and sessions): read once from GET /admin/v1/session and
 * given to every view through a context. `can` answers what the role may do, to offer only the
 * actions that will succeed; the server decides every call whatever the page shows.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export type Role = 'viewer' | 'editor' | 'owner';

export interface Account {
  id: number;
  contract_id: number;
  email: string;
  role: Role;
  created_datetime: string;
}

export interface CurrentSession {
  /** The signed-in account; null for the operator, signed in with the admin token. */
  account: Account | null;
  csrf_token: string;
  /** The service's time zone (KUMO_TIMEZONE): every timestamp of the API is in it. */
  timezone: string;
  /**
   * Where visitors reach site search, the widget and the hosted search pages
   * (KUMO_SEARCH_PUBLIC_URL); null when the API knows no such address.
   */
  search_url: string | null;
}

const RANK: Record<Role, number> = { viewer: 0, editor: 1, owner: 2 };

/** Whether the signed-in role is at least `needed` (docs/api.md, Roles). */
export function roleAllows(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

export const SessionContext = createContext<CurrentSession | null>(null);

/** The session of a signed-in page; the shell renders signed-in pages only inside one. */
export function useSession(): CurrentSession {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession outside a signed-in page');
  return session;
}

/** Whether the signed-in account may do what needs `role`; the operator may do everything. */
export function useCan(role: Role): boolean {
  const { account } = useSession();
  return account === null || roleAllows(account.role, role);
}
