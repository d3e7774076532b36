import type { Synchronous } from './synchronous-store.js';
import type Database from 'better-sqlite3';
import type { ContractRecord, ServiceGroupRecord, TenantStore } from '../record-store.js';

const CONTRACT_COLUMNS = 'id, name, created_us AS createdMicros';
const GROUP_COLUMNS = 'id, contract_id AS contractId, name, created_us AS createdMicros';

export class SqliteTenantStore implements Synchronous<TenantStore> {
  constructor(private readonly db: Database.Database) {}

  createContract(name: string, nowMicros: number, id?: number): ContractRecord {
    const result = this.db
      .prepare('INSERT INTO contracts (id, name, created_us) VALUES (?, ?, ?)')
      .run(id ?? null, name, nowMicros);
    return this.getContract(Number(result.lastInsertRowid))!;
  }

  createServiceGroup(contractId: number, name: string, nowMicros: number, id?: number): ServiceGroupRecord {
    const result = this.db
      .prepare('INSERT INTO service_groups (id, contract_id, name, created_us) VALUES (?, ?, ?, ?)')
      .run(id ?? null, contractId, name, nowMicros);
    return this.getServiceGroup(contractId, Number(result.lastInsertRowid))!;
  }

  getContract(id: number): ContractRecord | undefined {
    return this.db
      .prepare<[number], ContractRecord>(`SELECT ${CONTRACT_COLUMNS} FROM contracts WHERE id = ?`)
      .get(id);
  }

  getServiceGroup(contractId: number, servicegroupId: number): ServiceGroupRecord | undefined {
    return this.db
      .prepare<[number, number], ServiceGroupRecord>(
        `SELECT ${GROUP_COLUMNS} FROM service_groups WHERE contract_id = ? AND id = ?`,
      )
      .get(contractId, servicegroupId);
  }

  listContracts(): ContractRecord[] {
    return this.db.prepare<[], ContractRecord>(`SELECT ${CONTRACT_COLUMNS} FROM contracts ORDER BY id`).all();
  }

  listServiceGroups(contractId?: number): ServiceGroupRecord[] {
    if (contractId === undefined) {
      return this.db
        .prepare<[], ServiceGroupRecord>(`SELECT ${GROUP_COLUMNS} FROM service_groups ORDER BY id`)
        .all();
    }
    return this.db
      .prepare<[number], ServiceGroupRecord>(
        `SELECT ${GROUP_COLUMNS} FROM service_groups WHERE contract_id = ? ORDER BY id`,
      )
      .all(contractId);
  }
}
