import { type SecretBox, storedSettingJson } from '../../security/index.js';
import type {
  ServiceSettingInput,
  ServiceSettingRecord,
  ServiceSettingStore,
  TenantRef,
} from '../record-store.js';
import { type ServiceSettingRow as Row, serviceSettingRecordOf } from '../record-rows.js';
import type { PgSql } from './pg-connection.js';
import { insertWithId } from './pg-identity.js';

/** Crawl service settings; the passwords of their authorizations are stored encrypted. */
export class PgServiceSettingStore implements ServiceSettingStore {
  constructor(
    private readonly sql: PgSql,
    private readonly box: SecretBox,
  ) {}

  async create(
    tenant: TenantRef,
    input: ServiceSettingInput,
    lastSlotMicros: number,
    nowMicros: number,
    id?: number,
  ): Promise<ServiceSettingRecord> {
    const settingId = await insertWithId(this.sql, 'service_settings', id, async (tx, chosen) => {
      const [row] = await tx<{ id: number }[]>`
        INSERT INTO service_settings (id, contract_id, servicegroup_id, search_service_id, name, setting_json,
          schedule_json, last_slot_us, created_us, updated_us)
        VALUES (${chosen === undefined ? tx`DEFAULT` : chosen}, ${tenant.contractId}, ${tenant.servicegroupId},
          ${input.searchServiceId}, ${input.name}, ${storedSettingJson(input.setting, this.box)},
          ${JSON.stringify(input.schedule)}, ${lastSlotMicros}, ${nowMicros}, ${nowMicros})
        RETURNING id`;
      return row!.id;
    });
    return (await this.get(settingId))!;
  }

  async get(id: number): Promise<ServiceSettingRecord | undefined> {
    const [row] = await this.sql<
      Row[]
    >`SELECT * FROM service_settings WHERE id = ${id} AND deleted_us IS NULL`;
    return row && this.recordOf(row);
  }

  async list(tenant?: TenantRef): Promise<ServiceSettingRecord[]> {
    const filter =
      tenant === undefined
        ? this.sql``
        : this.sql`AND contract_id = ${tenant.contractId} AND servicegroup_id = ${tenant.servicegroupId}`;
    const rows = await this.sql<Row[]>`
      SELECT * FROM service_settings WHERE deleted_us IS NULL ${filter} ORDER BY id`;
    return rows.map((row) => this.recordOf(row));
  }

  async update(
    id: number,
    input: ServiceSettingInput,
    lastSlotMicros: number,
    nowMicros: number,
  ): Promise<boolean> {
    const result = await this.sql`
      UPDATE service_settings SET name = ${input.name}, setting_json = ${storedSettingJson(input.setting, this.box)},
        schedule_json = ${JSON.stringify(input.schedule)}, search_service_id = ${input.searchServiceId},
        last_slot_us = greatest(last_slot_us, ${lastSlotMicros}), updated_us = ${nowMicros}
      WHERE id = ${id} AND deleted_us IS NULL`;
    return result.count > 0;
  }

  async delete(id: number, nowMicros: number): Promise<boolean> {
    const result = await this.sql`
      UPDATE service_settings SET deleted_us = ${nowMicros}, updated_us = ${nowMicros}
      WHERE id = ${id} AND deleted_us IS NULL`;
    return result.count > 0;
  }

  async setPaused(
    id: number,
    pausedMicros: number | null,
    lastSlotMicros: number,
    nowMicros: number,
  ): Promise<boolean> {
    const result = await this.sql`
      UPDATE service_settings SET paused_us = ${pausedMicros}, last_slot_us = greatest(last_slot_us, ${lastSlotMicros}),
        updated_us = ${nowMicros}
      WHERE id = ${id} AND deleted_us IS NULL`;
    return result.count > 0;
  }

  async known(id: number): Promise<boolean> {
    const rows = await this.sql`SELECT 1 FROM service_settings WHERE id = ${id}`;
    return rows.length > 0;
  }

  async listScheduled(): Promise<ServiceSettingRecord[]> {
    const rows = await this.sql<Row[]>`
      SELECT * FROM service_settings WHERE deleted_us IS NULL AND paused_us IS NULL
        AND (schedule_json::jsonb ->> 'interval')::numeric <> 0
      ORDER BY id`;
    return rows.map((row) => this.recordOf(row));
  }

  private recordOf(row: Row): ServiceSettingRecord {
    return serviceSettingRecordOf(row, this.box);
  }
}
