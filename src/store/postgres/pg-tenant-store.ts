import type { ContractRecord, ServiceGroupRecord, TenantStore } from '../record-store.js';
import type { PgSql } from './pg-connection.js';
import { insertWithId } from './pg-identity.js';

export class PgTenantStore implements TenantStore {
  constructor(private readonly sql: PgSql) {}

  private readonly contractColumns = () => this.sql`id, name, created_us AS "createdMicros"`;
  private readonly groupColumns = () =>
    this.sql`id, contract_id AS "contractId", name, created_us AS "createdMicros"`;

  async createContract(name: string, nowMicros: number, id?: number): Promise<ContractRecord> {
    const contractId = await insertWithId(this.sql, 'contracts', id, async (tx, chosen) => {
      const [row] = await tx<{ id: number }[]>`
        INSERT INTO contracts (id, name, created_us)
        VALUES (${chosen === undefined ? tx`DEFAULT` : chosen}, ${name}, ${nowMicros}) RETURNING id`;
      return row!.id;
    });
    return (await this.getContract(contractId))!;
  }

  async createServiceGroup(
    contractId: number,
    name: string,
    nowMicros: number,
    id?: number,
  ): Promise<ServiceGroupRecord> {
    const groupId = await insertWithId(this.sql, 'service_groups', id, async (tx, chosen) => {
      const [row] = await tx<{ id: number }[]>`
        INSERT INTO service_groups (id, contract_id, name, created_us)
        VALUES (${chosen === undefined ? tx`DEFAULT` : chosen}, ${contractId}, ${name}, ${nowMicros}) RETURNING id`;
      return row!.id;
    });
    return (await this.getServiceGroup(contractId, groupId))!;
  }

  async getContract(id: number): Promise<ContractRecord | undefined> {
    const [row] = await this.sql<ContractRecord[]>`
      SELECT ${this.contractColumns()} FROM contracts WHERE id = ${id}`;
    return row;
  }

  async getServiceGroup(contractId: number, servicegroupId: number): Promise<ServiceGroupRecord | undefined> {
    const [row] = await this.sql<ServiceGroupRecord[]>`
      SELECT ${this.groupColumns()} FROM service_groups WHERE contract_id = ${contractId} AND id = ${servicegroupId}`;
    return row;
  }

  async listContracts(): Promise<ContractRecord[]> {
    return [
      ...(await this.sql<ContractRecord[]>`SELECT ${this.contractColumns()} FROM contracts ORDER BY id`),
    ];
  }

  async listServiceGroups(contractId?: number): Promise<ServiceGroupRecord[]> {
    const filter = contractId === undefined ? this.sql`` : this.sql`WHERE contract_id = ${contractId}`;
    return [
      ...(await this.sql<ServiceGroupRecord[]>`
        SELECT ${this.groupColumns()} FROM service_groups ${filter} ORDER BY id`),
    ];
  }
}
