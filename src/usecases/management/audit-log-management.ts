import type { AuditEntry } from '../../store/index.js';
import { type Actor, authorize } from './account-roles.js';
import { ManagementOperations } from './management-context.js';
import { NotFoundError } from './management-errors.js';

/** Entries per page of the audit log: default and bounds (docs/api.md, Audit log). */
export const AUDIT_PAGE = { default: 50, min: 1, max: 200 } as const;

/** A page of the audit log and where the next (older) one starts. */
export interface AuditPage {
  entries: AuditEntry[];
  /** `before_id` of the next page; null when this page holds the oldest entry. */
  nextBeforeId: number | null;
}

/**
 * The audit log of a contract: every change made through the management operations, with who
 * (the operator or an account), what and when, newest first. Owners and the operator read it.
 */
export class AuditLogManagement extends ManagementOperations {
  async list(
    actor: Actor,
    contractId: number,
    page: { limit?: number; beforeId?: number },
  ): Promise<AuditPage> {
    authorize(actor, { contractId }, 'owner', 'audit log');
    if (!(await this.store.tenants.getContract(contractId)))
      throw new NotFoundError('contract', contractId, `no contract ${contractId}`);
    const limit = Math.min(AUDIT_PAGE.max, Math.max(AUDIT_PAGE.min, page.limit ?? AUDIT_PAGE.default));
    const fetched = await this.store.audit.list({ contractId, beforeId: page.beforeId, limit: limit + 1 });
    const entries = fetched.slice(0, limit);
    return { entries, nextBeforeId: fetched.length > limit ? entries[entries.length - 1]!.id : null };
  }
}
