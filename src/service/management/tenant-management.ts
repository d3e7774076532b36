import type { ContractRecord, ServiceGroupRecord, TenantRef } from '../../store/service-store.js';
import { type Actor, ManagementOperations } from './management-context.js';
import { NotFoundError } from './management-errors.js';
import { requireServiceGroup } from './management-scope.js';
import { requiredName } from './input-rules.js';

/** Contracts (the tenants) and their service groups. */
export class TenantManagement extends ManagementOperations {
  listContracts(): ContractRecord[] {
    return this.store.tenants.listContracts();
  }

  /** The contract, or NotFoundError. */
  getContract(id: number): ContractRecord {
    const contract = this.store.tenants.getContract(id);
    if (!contract) throw new NotFoundError('contract', id, `no contract ${id}`);
    return contract;
  }

  createContract(actor: Actor, input: { name: string }): ContractRecord {
    this.mayChange(actor, {}, 'contract');
    const name = requiredName(input.name);
    const now = this.now();
    const contract = this.store.tenants.createContract(name, now);
    this.changed(actor, 'create', 'contract', { id: contract.id, contractId: contract.id }, now);
    return contract;
  }

  /** The service groups of one contract, or of every contract (no existence check: a filter). */
  listServiceGroups(contractId?: number): ServiceGroupRecord[] {
    return this.store.tenants.listServiceGroups(contractId);
  }

  /** The service group, or NotFoundError naming it. */
  getServiceGroup(tenant: TenantRef): ServiceGroupRecord {
    return requireServiceGroup(this.store.tenants, tenant);
  }

  /** A new service group of an existing contract (NotFoundError naming the contract otherwise). */
  createServiceGroup(actor: Actor, contractId: number, input: { name: string }): ServiceGroupRecord {
    this.mayChange(actor, { contractId }, 'service group');
    const contract = this.getContract(contractId);
    const name = requiredName(input.name);
    const now = this.now();
    const group = this.store.tenants.createServiceGroup(contract.id, name, now);
    this.changed(
      actor,
      'create',
      'service group',
      { id: group.id, contractId: contract.id, servicegroupId: group.id },
      now,
    );
    return group;
  }
}
