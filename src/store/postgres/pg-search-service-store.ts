import type { SearchServiceConfig } from '../../domain/schemas.js';
import type { SearchServiceRecord, SearchServiceStore, TenantRef } from '../record-store.js';
import { type SearchServiceRow, searchServiceRecordOf } from '../record-rows.js';
import type { PgSql } from './pg-connection.js';
import { insertWithId } from './pg-identity.js';

export class PgSearchServiceStore implements SearchServiceStore {
  constructor(private readonly sql: PgSql) {}

  async create(
    tenant: TenantRef,
    name: string,
    config: SearchServiceConfig,
    nowMicros: number,
    id?: number,
  ): Promise<SearchServiceRecord> {
    const serviceId = await insertWithId(this.sql, 'search_services', id, async (tx, chosen) => {
      const [row] = await tx<{ id: number }[]>`
        INSERT INTO search_services (id, contract_id, servicegroup_id, name, config_json, created_us, updated_us)
        VALUES (${chosen === undefined ? tx`DEFAULT` : chosen}, ${tenant.contractId}, ${tenant.servicegroupId},
          ${name}, ${JSON.stringify(config)}, ${nowMicros}, ${nowMicros})
        RETURNING id`;
      return row!.id;
    });
    return (await this.get(serviceId))!;
  }

  async get(id: number): Promise<SearchServiceRecord | undefined> {
    const [row] = await this.sql<SearchServiceRow[]>`SELECT * FROM search_services WHERE id = ${id}`;
    return row && searchServiceRecordOf(row);
  }

  async list(tenant?: TenantRef): Promise<SearchServiceRecord[]> {
    const filter =
      tenant === undefined
        ? this.sql``
        : this.sql`WHERE contract_id = ${tenant.contractId} AND servicegroup_id = ${tenant.servicegroupId}`;
    const rows = await this.sql<SearchServiceRow[]>`SELECT * FROM search_services ${filter} ORDER BY id`;
    return rows.map(searchServiceRecordOf);
  }

  async updateConfig(id: number, config: SearchServiceConfig, nowMicros: number): Promise<boolean> {
    const result = await this.sql`
      UPDATE search_services SET config_json = ${JSON.stringify(config)}, updated_us = ${nowMicros}
      WHERE id = ${id}`;
    return result.count > 0;
  }
}
