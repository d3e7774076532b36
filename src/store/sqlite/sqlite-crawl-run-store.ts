import type { Synchronous } from './synchronous-store.js';
import {
  type RunMessagePart,
  type ArtifactFileName,
  type RunEndReason,
  RunState,
  type RunStateId,
} from '../../domain/index.js';
import type Database from 'better-sqlite3';
import type { InstantCrawlerSetting } from '../../domain/schemas.js';
import { type SecretBox, settingFromStoredJson, storedSettingJson } from '../../security/index.js';
import { checkPasswordKey, sealPlainPasswordRows } from './setting-password-rows.js';
import { claimFairly, countRunning } from './run-claims.js';
import {
  ActiveRunLimitError,
  type ClaimPolicy,
  type CrawlRunStore,
  type HistoryQuery,
  type RunListQuery,
  type RunRecord,
  type RunningCounts,
  type ScheduledRunInput,
  type SlotRunResult,
  type SettingHistoryQuery,
  type TenantRef,
} from '../record-store.js';
import { type RunRow, runRecordOf } from '../record-rows.js';

const SELECT_RUN = `SELECT r.*, q.setting_json, q.received_us FROM crawl_runs r JOIN crawl_requests q ON q.id = r.request_id`;
const ACTIVE = `r.state IN (${RunState.pending}, ${RunState.running})`;
/** Instant crawl requests only: scheduled runs share the tables but not the instant API. */
const INSTANT = 'r.service_setting_id IS NULL';

/** Crawl requests and runs; the passwords of a request's setting are stored encrypted. */
export class SqliteCrawlRunStore implements Synchronous<CrawlRunStore> {
  constructor(
    private readonly db: Database.Database,
    private readonly box: SecretBox,
  ) {}

  private readonly toRecord = (row: RunRow): RunRecord => runRecordOf(row, this.box);

  createInstantRun(
    tenant: TenantRef,
    setting: InstantCrawlerSetting,
    nowMicros: number,
    maxActiveRuns?: number,
  ): RunRecord {
    // Immediate: the write lock is taken before the count, so no other writer inserts in between.
    const runId = this.db
      .transaction(() => {
        if (maxActiveRuns !== undefined) {
          const active = this.countActiveRuns(tenant);
          if (active >= maxActiveRuns) throw new ActiveRunLimitError(active, maxActiveRuns);
        }
        const request = this.db
          .prepare(
            `INSERT INTO crawl_requests (contract_id, servicegroup_id, setting_json, received_us, created_us, updated_us)
           VALUES (?, ?, ?, ?, ?, ?)`,
          )
          .run(
            tenant.contractId,
            tenant.servicegroupId,
            storedSettingJson(setting, this.box),
            nowMicros,
            nowMicros,
            nowMicros,
          );
        const run = this.db
          .prepare(
            `INSERT INTO crawl_runs (request_id, contract_id, servicegroup_id, state, created_us, updated_us)
           VALUES (?, ?, ?, ?, ?, ?)`,
          )
          .run(
            request.lastInsertRowid,
            tenant.contractId,
            tenant.servicegroupId,
            RunState.pending,
            nowMicros,
            nowMicros,
          );
        return Number(run.lastInsertRowid);
      })
      .immediate();
    return this.getRun(runId)!;
  }

  countActiveRuns(tenant: TenantRef): number {
    return this.db
      .prepare<[number, number], { count: number }>(
        `SELECT count(*) AS count FROM crawl_runs r WHERE r.contract_id = ? AND r.servicegroup_id = ? AND ${ACTIVE}`,
      )
      .get(tenant.contractId, tenant.servicegroupId)!.count;
  }

  createSlotRun(input: ScheduledRunInput, slotMicros: number, nowMicros: number): SlotRunResult {
    return this.db
      .transaction((): SlotRunResult => {
        // Deleted or paused since the scheduler listed it: the slot is not taken.
        const taken = this.db
          .prepare(
            `UPDATE service_settings SET last_slot_us = ?
             WHERE id = ? AND last_slot_us < ? AND deleted_us IS NULL AND paused_us IS NULL`,
          )
          .run(slotMicros, input.setting.id, slotMicros);
        if (taken.changes === 0) return { kind: 'taken' };
        // The crawler setting as it is now: an edit made since the listing applies to this run.
        const stored = this.db
          .prepare<[number], string>('SELECT setting_json FROM service_settings WHERE id = ?')
          .pluck()
          .get(input.setting.id)!;
        const current = { ...input.setting, setting: settingFromStoredJson(stored, this.box) };
        const run = this.createScheduledRun({ ...input, setting: current }, nowMicros);
        return run === undefined ? { kind: 'busy' } : { kind: 'started', run };
      })
      .immediate();
  }

  createScheduledRun(input: ScheduledRunInput, nowMicros: number): RunRecord | undefined {
    const { setting } = input;
    const runId = this.db
      .transaction(() => {
        if (this.activeRunOfSetting(setting.id) !== undefined) return undefined;
        const request = this.db
          .prepare(
            `INSERT INTO crawl_requests (contract_id, servicegroup_id, setting_json, received_us, created_us, updated_us)
           VALUES (?, ?, ?, ?, ?, ?)`,
          )
          .run(
            setting.contractId,
            setting.servicegroupId,
            storedSettingJson(setting.setting, this.box),
            nowMicros,
            nowMicros,
            nowMicros,
          );
        const run = this.db
          .prepare(
            `INSERT INTO crawl_runs (request_id, contract_id, servicegroup_id, state, created_us, updated_us,
             service_setting_id, download_key, trigger)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            request.lastInsertRowid,
            setting.contractId,
            setting.servicegroupId,
            RunState.pending,
            nowMicros,
            nowMicros,
            setting.id,
            input.downloadKey,
            input.trigger,
          );
        return Number(run.lastInsertRowid);
      })
      .immediate();
    return runId === undefined ? undefined : this.getRun(runId);
  }

  activeRunOfSetting(serviceSettingId: number): RunRecord | undefined {
    const row = this.db
      .prepare<[number], RunRow>(`${SELECT_RUN} WHERE r.service_setting_id = ? AND ${ACTIVE} LIMIT 1`)
      .get(serviceSettingId);
    return row && this.toRecord(row);
  }

  listSettingHistory(serviceSettingId: number, query: SettingHistoryQuery): RunRecord[] {
    return this.db
      .prepare<[number, number, number, number], RunRow>(
        `${SELECT_RUN} WHERE r.service_setting_id = ? AND NOT ${ACTIVE} AND r.start_us >= ? AND r.start_us <= ?
         ORDER BY r.start_us DESC, r.id DESC LIMIT ?`,
      )
      .all(serviceSettingId, query.fromMicros, query.toMicros, query.limit)
      .map(this.toRecord);
  }

  getByDownloadKey(downloadKey: string): RunRecord | undefined {
    const row = this.db.prepare<[string], RunRow>(`${SELECT_RUN} WHERE r.download_key = ?`).get(downloadKey);
    return row && this.toRecord(row);
  }

  getByRequest(tenant: TenantRef, requestId: number): RunRecord | undefined {
    const row = this.db
      .prepare<[number, number, number], RunRow>(
        `${SELECT_RUN} WHERE r.request_id = ? AND r.contract_id = ? AND r.servicegroup_id = ? AND ${INSTANT}`,
      )
      .get(requestId, tenant.contractId, tenant.servicegroupId);
    return row && this.toRecord(row);
  }

  getRun(runId: number): RunRecord | undefined {
    const row = this.db.prepare<[number], RunRow>(`${SELECT_RUN} WHERE r.id = ?`).get(runId);
    return row && this.toRecord(row);
  }

  listActive(tenant: TenantRef, requestIds?: readonly number[]): RunRecord[] {
    const parameters: number[] = [tenant.contractId, tenant.servicegroupId];
    let filter = '';
    if (requestIds !== undefined) {
      filter = ` AND r.request_id IN (${requestIds.map(() => '?').join(',')})`;
      parameters.push(...requestIds);
    }
    return this.db
      .prepare<number[], RunRow>(
        `${SELECT_RUN} WHERE r.contract_id = ? AND r.servicegroup_id = ? AND ${INSTANT} AND ${ACTIVE}${filter} ORDER BY r.id`,
      )
      .all(...parameters)
      .map(this.toRecord);
  }

  listHistory(tenant: TenantRef, query: HistoryQuery): RunRecord[] {
    const clauses = ['r.contract_id = ?', 'r.servicegroup_id = ?', INSTANT, `NOT ${ACTIVE}`];
    const parameters: number[] = [tenant.contractId, tenant.servicegroupId];
    if (query.fromMicros !== undefined) {
      clauses.push('r.start_us >= ?');
      parameters.push(query.fromMicros);
    }
    if (query.toMicros !== undefined) {
      clauses.push('r.start_us <= ?');
      parameters.push(query.toMicros);
    }
    if (query.requestId !== undefined) {
      clauses.push('r.request_id = ?');
      parameters.push(query.requestId);
    }
    parameters.push(query.limit);
    return this.db
      .prepare<number[], RunRow>(
        `${SELECT_RUN} WHERE ${clauses.join(' AND ')} ORDER BY r.created_us DESC, r.id DESC LIMIT ?`,
      )
      .all(...parameters)
      .map(this.toRecord);
  }

  usageByContract(): Map<number, { runs: number; pagesFetched: number }> {
    const rows = this.db
      .prepare<[], { contract_id: number; runs: number; pages: number }>(
        'SELECT contract_id, count(*) AS runs, coalesce(sum(crawled_count), 0) AS pages FROM crawl_runs GROUP BY contract_id',
      )
      .all();
    return new Map(rows.map((row) => [row.contract_id, { runs: row.runs, pagesFetched: row.pages }]));
  }

  runsWithArtifacts(contractId: number): number[] {
    return this.db
      .prepare<[number], number>(
        `SELECT id FROM crawl_runs WHERE contract_id = ? AND artifacts_deleted_us IS NULL AND end_us IS NOT NULL`,
      )
      .pluck()
      .all(contractId);
  }

  listRuns(tenant: TenantRef, query: RunListQuery): RunRecord[] {
    const clauses = ['r.contract_id = ?', 'r.servicegroup_id = ?'];
    const parameters: number[] = [tenant.contractId, tenant.servicegroupId];
    if (query.kind === 'instant') clauses.push(INSTANT);
    if (query.kind === 'scheduled') clauses.push(`NOT ${INSTANT}`);
    if (query.state === 'active') clauses.push(ACTIVE);
    else if (query.state === 'ended') clauses.push(`NOT ${ACTIVE}`);
    else if (query.state !== undefined) {
      clauses.push('r.state = ?');
      parameters.push(query.state);
    }
    if (query.serviceSettingId !== undefined) {
      clauses.push('r.service_setting_id = ?');
      parameters.push(query.serviceSettingId);
    }
    if (query.beforeId !== undefined) {
      clauses.push('r.id < ?');
      parameters.push(query.beforeId);
    }
    parameters.push(query.limit);
    return this.db
      .prepare<number[], RunRow>(`${SELECT_RUN} WHERE ${clauses.join(' AND ')} ORDER BY r.id DESC LIMIT ?`)
      .all(...parameters)
      .map(this.toRecord);
  }

  claimNextPending(nowMicros: number, policy: ClaimPolicy = {}): RunRecord | undefined {
    const runId = claimFairly(this.db, nowMicros, policy);
    return runId === undefined ? undefined : this.getRun(runId);
  }

  countRunning(contractId: number): RunningCounts {
    return countRunning(this.db, contractId);
  }

  listRunning(): RunRecord[] {
    return this.db
      .prepare<[], RunRow>(`${SELECT_RUN} WHERE r.state = ${RunState.running} ORDER BY r.id`)
      .all()
      .map(this.toRecord);
  }

  countByState(): Record<RunStateId, number> {
    const counts = Object.fromEntries(Object.values(RunState).map((state) => [state, 0])) as Record<
      RunStateId,
      number
    >;
    // Read from the crawl_runs_state index alone.
    const rows = this.db
      .prepare<[], { state: number; count: number }>(
        'SELECT state, count(*) AS count FROM crawl_runs GROUP BY state',
      )
      .all();
    for (const row of rows) if (row.state in counts) counts[row.state as RunStateId] = row.count;
    return counts;
  }

  requestCancel(runId: number, nowMicros: number): void {
    this.db
      .prepare('UPDATE crawl_runs SET is_cancel_request = 1, updated_us = ? WHERE id = ?')
      .run(nowMicros, runId);
  }

  finishIfPending(
    runId: number,
    state: RunStateId,
    nowMicros: number,
    message: string,
    messageParts: readonly RunMessagePart[] = [],
  ): boolean {
    const result = this.db
      .prepare(
        `UPDATE crawl_runs SET state = ?, end_us = ?, updated_us = ?, artifacts = '', message = ?,
           message_parts = ?, start_us = COALESCE(start_us, ?) WHERE id = ? AND state = ${RunState.pending}`,
      )
      .run(state, nowMicros, nowMicros, message, JSON.stringify(messageParts), nowMicros, runId);
    return result.changes > 0;
  }

  updateProgress(runId: number, crawled: number, total: number, nowMicros: number): void {
    this.db
      .prepare('UPDATE crawl_runs SET crawled_count = ?, total_count = ?, updated_us = ? WHERE id = ?')
      .run(crawled, total, nowMicros, runId);
  }

  finish(
    runId: number,
    state: RunStateId,
    nowMicros: number,
    artifacts: ArtifactFileName[],
    message: string,
    messageParts: readonly RunMessagePart[] = [],
    endReason: RunEndReason | null = null,
  ): void {
    this.db
      .prepare(
        `UPDATE crawl_runs SET state = ?, end_us = ?, updated_us = ?, artifacts = ?, message = ?,
           message_parts = ?, end_reason = ?, start_us = COALESCE(start_us, ?) WHERE id = ?`,
      )
      .run(
        state,
        nowMicros,
        nowMicros,
        artifacts.join(','),
        message,
        JSON.stringify(messageParts),
        endReason,
        nowMicros,
        runId,
      );
  }

  listArtifactsEndedBefore(cutoffMicros: number): RunRecord[] {
    return this.db
      .prepare<[number], RunRow>(
        `${SELECT_RUN} WHERE r.artifacts != '' AND r.artifacts_deleted_us IS NULL AND r.end_us < ? ORDER BY r.id`,
      )
      .all(cutoffMicros)
      .map(this.toRecord);
  }

  markArtifactsDeleted(runId: number, nowMicros: number): void {
    this.db
      .prepare('UPDATE crawl_runs SET artifacts_deleted_us = ?, updated_us = ? WHERE id = ?')
      .run(nowMicros, nowMicros, runId);
  }

  /** Encrypts the passwords older versions stored in plain text; inside the caller's transaction. */
  sealPlainPasswords(): number {
    return sealPlainPasswordRows(this.db, 'crawl_requests', this.box);
  }

  /** SecretKeyMismatchError when the stored passwords were encrypted with another key. */
  checkKey(): void {
    checkPasswordKey(this.db, 'crawl_requests', this.box, 1000);
  }
}
