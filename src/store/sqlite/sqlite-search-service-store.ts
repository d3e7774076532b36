import type { Synchronous } from './synchronous-store.js';
import type Database from 'better-sqlite3';
import type { SearchServiceConfig } from '../../domain/schemas.js';
import type { SearchServiceRecord, SearchServiceStore, TenantRef } from '../record-store.js';
import { type SearchServiceRow, searchServiceRecordOf } from '../record-rows.js';

export class SqliteSearchServiceStore implements Synchronous<SearchServiceStore> {
  private byId: Database.Statement<[number], SearchServiceRow> | undefined;

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
    // Prepared once: every site search reads its service.
    this.byId ??= this.db.prepare<[number], SearchServiceRow>('SELECT * FROM search_services WHERE id = ?');
    const row = this.byId.get(id);
    return row && searchServiceRecordOf(row);
  }

  list(tenant?: TenantRef): SearchServiceRecord[] {
    const rows =
      tenant === undefined
        ? this.db.prepare<[], SearchServiceRow>('SELECT * FROM search_services ORDER BY id').all()
        : this.db
            .prepare<[number, number], SearchServiceRow>(
              'SELECT * FROM search_services WHERE contract_id = ? AND servicegroup_id = ? ORDER BY id',
            )
            .all(tenant.contractId, tenant.servicegroupId);
    return rows.map(searchServiceRecordOf);
  }

  updateConfig(id: number, config: SearchServiceConfig, nowMicros: number): boolean {
    const result = this.db
      .prepare('UPDATE search_services SET config_json = ?, updated_us = ? WHERE id = ?')
      .run(JSON.stringify(config), nowMicros, id);
    return result.changes > 0;
  }
}
