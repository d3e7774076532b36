/**
 * What an area of the console contributes: its pages by address pattern, and the entries of the
 * navigation that lead to them (docs/console.md, Addresses).
 */
import type { ComponentChild } from 'preact';
import type { Role } from '../session.js';

/** Where a navigation entry shows: beside a service group's pages, a contract's, or the operator's. */
export type NavScope = 'group' | 'contract' | 'operator';

export interface ConsoleRoute {
  /** `/contracts/:contract/groups/:group/settings`; `:name` parts are handed to the view. */
  pattern: string;
  view(params: Record<string, string>): ComponentChild;
  nav?: {
    scope: NavScope;
    /** The entry's text in the current language. */
    label(): string;
    /** Position among the entries of its scope (lower first). */
    order: number;
    /** The entry shows only to this role or a higher one. */
    role?: Role;
  };
}

/** The ids of the contract and service group a path is under, if any. */
export function scopeOf(path: string): { contractId: number; groupId: number | null } | null {
  const match = /^\/contracts\/(\d+)(?:\/groups\/(\d+))?(?:\/|$)/.exec(path);
  if (match === null) return null;
  return { contractId: Number(match[1]), groupId: match[2] === undefined ? null : Number(match[2]) };
}

/** The inside path of a service group's page: `groupHref(1, 2, '/settings')`. */
export function groupHref(contractId: number, groupId: number, rest = ''): string {
  return `/contracts/${contractId}/groups/${groupId}${rest}`;
}
