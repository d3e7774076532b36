import type { ContractRecord } from '../../store/index.js';
import type { Actor } from './account-roles.js';
import { ManagementOperations } from './management-context.js';
import { ForbiddenError } from './management-errors.js';
import { Semaphore } from '../../util/index.js';

/** Stored sizes read at once for the usage page. */
const USAGE_READS_AT_ONCE = 8;

/** What a contract uses of the service (docs/console.md, Operator pages). */
export interface ContractUsage {
  contract: ContractRecord;
  serviceGroups: number;
  users: number;
  runs: number;
  pagesFetched: number;
  /** Bytes of the artifacts (and run reports) kept for its runs. */
  artifactBytes: number;
  searchServices: number;
  /** Bytes of its search services' index files. */
  indexBytes: number;
}

/** Every contract with its usage: the operator's alone. */
export class ContractUsageManagement extends ManagementOperations {
  async list(actor: Actor): Promise<ContractUsage[]> {
    if (actor.kind !== 'operator') throw new ForbiddenError('only the operator sees every contract');
    const runs = await this.store.runs.usageByContract();
    const groups = await this.store.tenants.listServiceGroups();
    const accounts = await this.store.accounts.list();
    const services = await this.store.searchServices.list();
    const files = this.deps.runs?.files;
    const indexes = this.deps.searchIndexes;
    // Object storage answers one listing per run (docs/operations.md, Object storage): a few at
    // a time over every contract, not thousands at once.
    const listings = new Semaphore(USAGE_READS_AT_ONCE);
    const storedBytes = async (runIds: number[]): Promise<number> => {
      if (files === undefined) return 0;
      const sizes = await Promise.all(
        runIds.map(async (runId) => {
          await listings.acquire();
          try {
            return await files.storedBytes(runId);
          } finally {
            listings.release();
          }
        }),
      );
      return sizes.reduce((sum, bytes) => sum + bytes, 0);
    };
    const contracts = (await this.store.tenants.listContracts()).map(async (contract) => {
      const own = services.filter((service) => service.contractId === contract.id);
      return {
        contract,
        serviceGroups: groups.filter((group) => group.contractId === contract.id).length,
        users: accounts.filter((account) => account.contractId === contract.id).length,
        runs: runs.get(contract.id)?.runs ?? 0,
        pagesFetched: runs.get(contract.id)?.pagesFetched ?? 0,
        // Object storage answers a listing per run (docs/operations.md, Object storage).
        artifactBytes: await storedBytes(
          files === undefined ? [] : await this.store.runs.runsWithArtifacts(contract.id),
        ),
        searchServices: own.length,
        indexBytes: own.reduce((sum, service) => sum + (indexes?.indexFileBytes(service.id) ?? 0), 0),
      };
    });
    return Promise.all(contracts);
  }
}
