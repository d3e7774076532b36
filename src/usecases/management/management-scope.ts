import type { ServiceGroupRecord, TenantRef, TenantStore } from '../../store/index.js';
import { NotFoundError } from './management-errors.js';

/**
 * What an operation may reach: one service group (the management API's paths, and a console
 * user's later), the resources of one contract, or all of them (`{}`, the operator's
 * `kumo admin`, which names resources by id alone).
 */
export type Scope = TenantRef | { contractId?: number };

/** Every resource: the operator's reach. */
export const EVERYWHERE: Scope = {};

export function isGroupScope(scope: Scope): scope is TenantRef {
  return 'servicegroupId' in scope;
}

/** Whether the scope is the operator's: every contract. */
export function isEverywhere(scope: Scope): boolean {
  return !isGroupScope(scope) && scope.contractId === undefined;
}

/** Whether a record of a tenant lies within the scope. */
export function reaches(scope: Scope, record: TenantRef): boolean {
  if (scope.contractId !== undefined && record.contractId !== scope.contractId) return false;
  return !isGroupScope(scope) || record.servicegroupId === scope.servicegroupId;
}

/** How a "no such resource" message names the scope: ` in this service group`, or nothing. */
export function withinText(scope: Scope): string {
  if (isGroupScope(scope)) return ' in this service group';
  return scope.contractId === undefined ? '' : ` in contract ${scope.contractId}`;
}

/**
 * The service group of a tenant, or NotFoundError naming it: the one check every operation on
 * a service group's resources starts with.
 */
export async function requireServiceGroup(
  tenants: TenantStore,
  tenant: TenantRef,
): Promise<ServiceGroupRecord> {
  const group = await tenants.getServiceGroup(tenant.contractId, tenant.servicegroupId);
  if (!group) {
    throw new NotFoundError(
      'service group',
      tenant.servicegroupId,
      `no service group ${tenant.servicegroupId} in contract ${tenant.contractId}`,
    );
  }
  return group;
}
