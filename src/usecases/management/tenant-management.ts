import type { ContractRecord, ServiceGroupRecord, TenantRef } from '../../store/index.js';
import { type Actor, ManagementOperations } from './management-context.js';
import { NotFoundError } from './management-errors.js';
import { requireServiceGroup } from './management-scope.js';
import { requiredName } from './input-rules.js';

/** Contracts (the tenants) and their service groups. */
export class TenantManagement extends ManagementOperations {
  async listContracts(): Promise<ContractRecord[]> {
    return this.store.tenants.listContracts();
  }

  /** The contract, or NotFoundError. */
  async getContract(id: number): Promise<ContractRecord> {
    const contract = await this.store.tenants.getContract(id);
    if (!contract) throw new NotFoundError('contract', id, `no contract ${id}`);
    return contract;
  }

  async createContract(actor: Actor, input: { name: string }): Promise<ContractRecord> {
    this.mayChange(actor, {}, 'contract');
    const name = requiredName(input.name);
    const now = this.now();
    const contract = await this.store.tenants.createContract(name, now);
    await this.changed(actor, 'create', 'contract', { id: contract.id, contractId: contract.id }, now);
    return contract;
  }

  /** The service groups of one contract, or of every contract (no existence check: a filter). */
  async listServiceGroups(contractId?: number): Promise<ServiceGroupRecord[]> {
    return this.store.tenants.listServiceGroups(contractId);
  }

  /** The service group, or NotFoundError naming it. */
  async getServiceGroup(tenant: TenantRef): Promise<ServiceGroupRecord> {
    return requireServiceGroup(this.store.tenants, tenant);
  }

  /** A new service group of an existing contract (NotFoundError naming the contract otherwise). */
  async createServiceGroup(
    actor: Actor,
    contractId: number,
    input: { name: string },
  ): Promise<ServiceGroupRecord> {
    this.mayChange(actor, { contractId }, 'service group');
    const contract = await this.getContract(contractId);
    const name = requiredName(input.name);
    const now = this.now();
    const group = await this.store.tenants.createServiceGroup(contract.id, name, now);
    await this.changed(
      actor,
      'create',
      'service group',
      { id: group.id, contractId: contract.id, servicegroupId: group.id },
      now,
    );
    return group;
  }
}
