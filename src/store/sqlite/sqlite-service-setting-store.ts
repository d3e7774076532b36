import type { Synchronous } from './synchronous-store.js';
import type Database from 'better-sqlite3';
import { type SecretBox, storedSettingJson } from '../../security/index.js';
import { checkPasswordKey, sealPlainPasswordRows } from './setting-password-rows.js';
import type {
  ServiceSettingInput,
  ServiceSettingRecord,
  ServiceSettingStore,
  TenantRef,
} from '../record-store.js';
import { type ServiceSettingRow as Row, serviceSettingRecordOf } from '../record-rows.js';

const LIVE = 'deleted_us IS NULL';

/** Crawl service settings; the passwords of their authorizations are stored encrypted. */
export class SqliteServiceSettingStore implements Synchronous<ServiceSettingStore> {
  constructor(
    private readonly db: Database.Database,
    private readonly box: SecretBox,
  ) {}

  create(
    tenant: TenantRef,
    input: ServiceSettingInput,
    lastSlotMicros: number,
    nowMicros: number,
    id?: number,
  ): ServiceSettingRecord {
    const result = this.db
      .prepare(
        `INSERT INTO service_settings (id, contract_id, servicegroup_id, search_service_id, name, setting_json,
           schedule_json, last_slot_us, created_us, updated_us)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id ?? null,
        tenant.contractId,
        tenant.servicegroupId,
        input.searchServiceId,
        input.name,
        storedSettingJson(input.setting, this.box),
        JSON.stringify(input.schedule),
        lastSlotMicros,
        nowMicros,
        nowMicros,
      );
    return this.get(Number(result.lastInsertRowid))!;
  }

  get(id: number): ServiceSettingRecord | undefined {
    const row = this.db
      .prepare<[number], Row>(`SELECT * FROM service_settings WHERE id = ? AND ${LIVE}`)
      .get(id);
    return row && this.recordOf(row);
  }

  list(tenant?: TenantRef): ServiceSettingRecord[] {
    const rows =
      tenant === undefined
        ? this.db.prepare<[], Row>(`SELECT * FROM service_settings WHERE ${LIVE} ORDER BY id`).all()
        : this.db
            .prepare<[number, number], Row>(
              `SELECT * FROM service_settings WHERE contract_id = ? AND servicegroup_id = ? AND ${LIVE} ORDER BY id`,
            )
            .all(tenant.contractId, tenant.servicegroupId);
    return rows.map((row) => this.recordOf(row));
  }

  update(id: number, input: ServiceSettingInput, lastSlotMicros: number, nowMicros: number): boolean {
    const result = this.db
      .prepare(
        `UPDATE service_settings SET name = ?, setting_json = ?, schedule_json = ?, search_service_id = ?,
           last_slot_us = max(last_slot_us, ?), updated_us = ? WHERE id = ? AND ${LIVE}`,
      )
      .run(
        input.name,
        storedSettingJson(input.setting, this.box),
        JSON.stringify(input.schedule),
        input.searchServiceId,
        lastSlotMicros,
        nowMicros,
        id,
      );
    return result.changes > 0;
  }

  delete(id: number, nowMicros: number): boolean {
    const result = this.db
      .prepare(`UPDATE service_settings SET deleted_us = ?, updated_us = ? WHERE id = ? AND ${LIVE}`)
      .run(nowMicros, nowMicros, id);
    return result.changes > 0;
  }

  setPaused(id: number, pausedMicros: number | null, lastSlotMicros: number, nowMicros: number): boolean {
    const result = this.db
      .prepare(
        `UPDATE service_settings SET paused_us = ?, last_slot_us = max(last_slot_us, ?), updated_us = ?
         WHERE id = ? AND ${LIVE}`,
      )
      .run(pausedMicros, lastSlotMicros, nowMicros, id);
    return result.changes > 0;
  }

  known(id: number): boolean {
    return this.db.prepare('SELECT 1 FROM service_settings WHERE id = ?').pluck().get(id) === 1;
  }

  listScheduled(): ServiceSettingRecord[] {
    return this.db
      .prepare<[], Row>(
        `SELECT * FROM service_settings WHERE ${LIVE} AND paused_us IS NULL
           AND json_extract(schedule_json, '$.interval') != 0 ORDER BY id`,
      )
      .all()
      .map((row) => this.recordOf(row));
  }

  /** Encrypts the passwords older versions stored in plain text; inside the caller's transaction. */
  sealPlainPasswords(): number {
    return sealPlainPasswordRows(this.db, 'service_settings', this.box);
  }

  /** SecretKeyMismatchError when the stored passwords were encrypted with another key. */
  checkKey(): void {
    checkPasswordKey(this.db, 'service_settings', this.box, Number.MAX_SAFE_INTEGER);
  }

  private recordOf(row: Row): ServiceSettingRecord {
    return serviceSettingRecordOf(row, this.box);
  }
}
