import type { Synchronous } from './synchronous-store.js';
import type Database from 'better-sqlite3';
import type { SearchServiceConfig } from '../../domain/search-service-config.js';
import type { SearchServiceRecord, SearchServiceStore, TenantRef } from '../service-store.js';

interface Row {
  id: number;
  contract_id: number;
  servicegroup_id: number;
  name: string;
  config_json: string;
  created_us: number;
  updated_us: number;
}

export class SqliteSearchServiceStore implements Synchronous<SearchServiceStore> {
  constructor(private readonly db: Database.Database) {}

  create(
    tenant: TenantRef,
    name: string,
    config: SearchServiceConfig,
    nowMicros: number,
    id?: number,
  ): SearchServiceRecord {
    const result = this.db
      .prepare(
        `INSERT INTO search_services (id, contract_id, servicegroup_id, name, config_json, created_us, updated_us)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id ?? null,
        tenant.contractId,
        tenant.servicegroupId,
        name,
        JSON.stringify(config),
        nowMicros,
        nowMicros,
      );
    return this.get(Number(result.lastInsertRowid))!;
  }

  get(id: number): SearchServiceRecord | undefined {
    const row = this.db.prepare<[number], Row>('SELECT * FROM search_services WHERE id = ?').get(id);
    return row && recordOf(row);
  }

  list(tenant?: TenantRef): SearchServiceRecord[] {
    const rows =
      tenant === undefined
        ? this.db.prepare<[], Row>('SELECT * FROM search_services ORDER BY id').all()
        : this.db
            .prepare<[number, number], Row>(
              'SELECT * FROM search_services WHERE contract_id = ? AND servicegroup_id = ? ORDER BY id',
            )
            .all(tenant.contractId, tenant.servicegroupId);
    return rows.map(recordOf);
  }

  updateConfig(id: number, config: SearchServiceConfig, nowMicros: number): boolean {
    const result = this.db
      .prepare('UPDATE search_services SET config_json = ?, updated_us = ? WHERE id = ?')
      .run(JSON.stringify(config), nowMicros, id);
    return result.changes > 0;
  }
}

function recordOf(row: Row): SearchServiceRecord {
  return {
    id: row.id,
    contractId: row.contract_id,
    servicegroupId: row.servicegroup_id,
    name: row.name,
    config: JSON.parse(row.config_json) as SearchServiceConfig,
    createdMicros: row.created_us,
    updatedMicros: row.updated_us,
  };
}
