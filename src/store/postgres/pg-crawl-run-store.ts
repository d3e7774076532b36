import {
  type ArtifactFileName,
  type RunMessagePart,
  type RunEndReason,
  RunState,
  type RunStateId,
} from '../../domain/index.js';
import type { InstantCrawlerSetting } from '../../domain/schemas.js';
import { type SecretBox, settingFromStoredJson, storedSettingJson } from '../../security/index.js';
import {
  ActiveRunLimitError,
  type ClaimPolicy,
  type CrawlRunStore,
  type HistoryQuery,
  type RunListQuery,
  type RunRecord,
  type RunningCounts,
  type ScheduledRunInput,
  type SettingHistoryQuery,
  type SlotRunResult,
  type TenantRef,
} from '../record-store.js';
import type { PgQueryable, PgSql } from './pg-connection.js';
import { claimFairly, countRunning } from './pg-run-claims.js';
import { type RunRow, runRecordOf } from '../record-rows.js';
import { ACTIVE, INSTANT, SELECT_RUN } from './pg-run-rows.js';

interface NewRun {
  tenant: TenantRef;
  setting: InstantCrawlerSetting;
  scheduled?: ScheduledRunInput;
}

/** Crawl requests and runs; the passwords of a request's setting are stored encrypted. */
export class PgCrawlRunStore implements CrawlRunStore {
  constructor(
    private readonly sql: PgSql,
    private readonly box: SecretBox,
  ) {}

  private readonly select = () => this.sql.unsafe(SELECT_RUN);
  private readonly active = () => this.sql.unsafe(ACTIVE);
  private readonly instant = () => this.sql.unsafe(INSTANT);

  private async one(rows: Promise<RunRow[]>): Promise<RunRecord | undefined> {
    const [row] = await rows;
    return row && runRecordOf(row, this.box);
  }

  private async all(rows: Promise<RunRow[]>): Promise<RunRecord[]> {
    return (await rows).map((row) => runRecordOf(row, this.box));
  }

  async createInstantRun(
    tenant: TenantRef,
    setting: InstantCrawlerSetting,
    nowMicros: number,
    maxActiveRuns?: number,
  ): Promise<RunRecord> {
    const runId = await this.sql.begin(async (tx) => {
      if (maxActiveRuns !== undefined) {
        // One creation per tenant at a time holds the lock from the count to the commit.
        await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`kumo.active-runs:${tenant.contractId}:${tenant.servicegroupId}`}, 0))`;
        const active = await countActive(tx, tenant);
        if (active >= maxActiveRuns) throw new ActiveRunLimitError(active, maxActiveRuns);
      }
      return this.insertRun(tx, { tenant, setting }, nowMicros);
    });
    return (await this.getRun(runId))!;
  }

  countActiveRuns(tenant: TenantRef): Promise<number> {
    return countActive(this.sql, tenant);
  }

  async createScheduledRun(input: ScheduledRunInput, nowMicros: number): Promise<RunRecord | undefined> {
    const runId = await this.sql.begin((tx) => this.insertUnlessActive(tx, input, nowMicros));
    return runId === undefined ? undefined : this.getRun(runId);
  }

  async createSlotRun(
    input: ScheduledRunInput,
    slotMicros: number,
    nowMicros: number,
  ): Promise<SlotRunResult> {
    const outcome = await this.sql.begin(async (tx) => {
      // The conditional update takes the slot: a second scheduler's waits for this transaction,
      // then finds the slot handled and changes nothing.
      // Deleted or paused since the scheduler listed it: the slot is not taken.
      const [taken] = await tx<{ setting_json: string }[]>`
        UPDATE service_settings SET last_slot_us = ${slotMicros}
        WHERE id = ${input.setting.id} AND last_slot_us < ${slotMicros}
          AND deleted_us IS NULL AND paused_us IS NULL
        RETURNING setting_json`;
      if (taken === undefined) return { kind: 'taken' as const };
      // The crawler setting as it is now: an edit made since the listing applies to this run.
      const current = { ...input.setting, setting: settingFromStoredJson(taken.setting_json, this.box) };
      const runId = await this.insertUnlessActive(tx, { ...input, setting: current }, nowMicros);
      return runId === undefined ? { kind: 'busy' as const } : { kind: 'started' as const, runId };
    });
    if (outcome.kind !== 'started') return outcome;
    return { kind: 'started', run: (await this.getRun(outcome.runId))! };
  }

  /** Stores the setting's run unless one is pending or running; the new run's id, or undefined. */
  private async insertUnlessActive(
    tx: PgQueryable,
    input: ScheduledRunInput,
    nowMicros: number,
  ): Promise<number | undefined> {
    const { setting } = input;
    // One creation per setting at a time: the check and the insert cannot interleave with another.
    await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`kumo.setting-runs:${setting.id}`}, 0))`;
    const [existing] = await tx`
      SELECT 1 FROM crawl_runs r WHERE r.service_setting_id = ${setting.id} AND ${tx.unsafe(ACTIVE)} LIMIT 1`;
    if (existing !== undefined) return undefined;
    const tenant = { contractId: setting.contractId, servicegroupId: setting.servicegroupId };
    return this.insertRun(tx, { tenant, setting: setting.setting, scheduled: input }, nowMicros);
  }

  private async insertRun(tx: PgQueryable, run: NewRun, nowMicros: number): Promise<number> {
    const { tenant, scheduled } = run;
    const [request] = await tx<{ id: number }[]>`
      INSERT INTO crawl_requests (contract_id, servicegroup_id, setting_json, received_us, created_us, updated_us)
      VALUES (${tenant.contractId}, ${tenant.servicegroupId}, ${storedSettingJson(run.setting, this.box)},
        ${nowMicros}, ${nowMicros}, ${nowMicros})
      RETURNING id`;
    const [row] = await tx<{ id: number }[]>`
      INSERT INTO crawl_runs (request_id, contract_id, servicegroup_id, state, created_us, updated_us,
        service_setting_id, download_key, trigger)
      VALUES (${request!.id}, ${tenant.contractId}, ${tenant.servicegroupId}, ${RunState.pending}, ${nowMicros},
        ${nowMicros}, ${scheduled?.setting.id ?? null}, ${scheduled?.downloadKey ?? null},
        ${scheduled?.trigger ?? 'api'})
      RETURNING id`;
    return row!.id;
  }

  activeRunOfSetting(serviceSettingId: number): Promise<RunRecord | undefined> {
    return this.one(this.sql<RunRow[]>`
      ${this.select()} WHERE r.service_setting_id = ${serviceSettingId} AND ${this.active()} LIMIT 1`);
  }

  listSettingHistory(serviceSettingId: number, query: SettingHistoryQuery): Promise<RunRecord[]> {
    return this.all(this.sql<RunRow[]>`
      ${this.select()} WHERE r.service_setting_id = ${serviceSettingId} AND NOT ${this.active()}
        AND r.start_us >= ${query.fromMicros} AND r.start_us <= ${query.toMicros}
      ORDER BY r.start_us DESC, r.id DESC LIMIT ${query.limit}`);
  }

  getByDownloadKey(downloadKey: string): Promise<RunRecord | undefined> {
    return this.one(this.sql<RunRow[]>`${this.select()} WHERE r.download_key = ${downloadKey}`);
  }

  getByRequest(tenant: TenantRef, requestId: number): Promise<RunRecord | undefined> {
    return this.one(this.sql<RunRow[]>`
      ${this.select()} WHERE r.request_id = ${requestId} AND r.contract_id = ${tenant.contractId}
        AND r.servicegroup_id = ${tenant.servicegroupId} AND ${this.instant()}`);
  }

  getRun(runId: number): Promise<RunRecord | undefined> {
    return this.one(this.sql<RunRow[]>`${this.select()} WHERE r.id = ${runId}`);
  }

  listActive(tenant: TenantRef, requestIds?: readonly number[]): Promise<RunRecord[]> {
    const filter =
      requestIds === undefined
        ? this.sql``
        : this.sql`AND r.request_id = ANY(${`{${requestIds.map(Number).join(',')}}`}::bigint[])`;
    return this.all(this.sql<RunRow[]>`
      ${this.select()} WHERE r.contract_id = ${tenant.contractId} AND r.servicegroup_id = ${tenant.servicegroupId}
        AND ${this.instant()} AND ${this.active()} ${filter}
      ORDER BY r.id`);
  }

  listHistory(tenant: TenantRef, query: HistoryQuery): Promise<RunRecord[]> {
    const { sql } = this;
    return this.all(sql<RunRow[]>`
      ${this.select()} WHERE r.contract_id = ${tenant.contractId} AND r.servicegroup_id = ${tenant.servicegroupId}
        AND ${this.instant()} AND NOT ${this.active()}
        ${query.fromMicros === undefined ? sql`` : sql`AND r.start_us >= ${query.fromMicros}`}
        ${query.toMicros === undefined ? sql`` : sql`AND r.start_us <= ${query.toMicros}`}
        ${query.requestId === undefined ? sql`` : sql`AND r.request_id = ${query.requestId}`}
      ORDER BY r.created_us DESC, r.id DESC LIMIT ${query.limit}`);
  }

  async usageByContract(): Promise<Map<number, { runs: number; pagesFetched: number }>> {
    const rows = await this.sql<{ contract_id: number; runs: number; pages: number }[]>`
      SELECT contract_id, count(*) AS runs, coalesce(sum(crawled_count), 0)::bigint AS pages
      FROM crawl_runs GROUP BY contract_id`;
    return new Map(rows.map((row) => [row.contract_id, { runs: row.runs, pagesFetched: row.pages }]));
  }

  async runsWithArtifacts(contractId: number): Promise<number[]> {
    const rows = await this.sql<{ id: number }[]>`
      SELECT id FROM crawl_runs
      WHERE contract_id = ${contractId} AND artifacts_deleted_us IS NULL AND end_us IS NOT NULL
      ORDER BY id`;
    return rows.map((row) => row.id);
  }

  listRuns(tenant: TenantRef, query: RunListQuery): Promise<RunRecord[]> {
    const { sql } = this;
    const kind =
      query.kind === 'instant'
        ? sql`AND ${this.instant()}`
        : query.kind === 'scheduled'
          ? sql`AND NOT ${this.instant()}`
          : sql``;
    const state =
      query.state === undefined
        ? sql``
        : query.state === 'active'
          ? sql`AND ${this.active()}`
          : query.state === 'ended'
            ? sql`AND NOT ${this.active()}`
            : sql`AND r.state = ${query.state}`;
    return this.all(sql<RunRow[]>`
      ${this.select()} WHERE r.contract_id = ${tenant.contractId} AND r.servicegroup_id = ${tenant.servicegroupId}
        ${kind} ${state}
        ${query.serviceSettingId === undefined ? sql`` : sql`AND r.service_setting_id = ${query.serviceSettingId}`}
        ${query.beforeId === undefined ? sql`` : sql`AND r.id < ${query.beforeId}`}
      ORDER BY r.id DESC LIMIT ${query.limit}`);
  }

  async claimNextPending(nowMicros: number, policy: ClaimPolicy = {}): Promise<RunRecord | undefined> {
    const runId = await claimFairly(this.sql, nowMicros, policy);
    return runId === undefined ? undefined : this.getRun(runId);
  }

  countRunning(contractId: number): Promise<RunningCounts> {
    return countRunning(this.sql, contractId);
  }

  listRunning(): Promise<RunRecord[]> {
    return this.all(this.sql<RunRow[]>`${this.select()} WHERE r.state = ${RunState.running} ORDER BY r.id`);
  }

  async countByState(): Promise<Record<RunStateId, number>> {
    const counts = Object.fromEntries(Object.values(RunState).map((state) => [state, 0])) as Record<
      RunStateId,
      number
    >;
    const rows = await this.sql<{ state: number; count: number }[]>`
      SELECT state, count(*) AS count FROM crawl_runs GROUP BY state`;
    for (const row of rows) if (row.state in counts) counts[row.state as RunStateId] = row.count;
    return counts;
  }

  async requestCancel(runId: number, nowMicros: number): Promise<void> {
    await this
      .sql`UPDATE crawl_runs SET is_cancel_request = TRUE, updated_us = ${nowMicros} WHERE id = ${runId}`;
  }

  async finishIfPending(
    runId: number,
    state: RunStateId,
    nowMicros: number,
    message: string,
    messageParts: readonly RunMessagePart[] = [],
  ): Promise<boolean> {
    const result = await this.sql`
      UPDATE crawl_runs SET state = ${state}, end_us = ${nowMicros}, updated_us = ${nowMicros}, artifacts = '',
        message = ${message}, message_parts = ${JSON.stringify(messageParts)},
        start_us = coalesce(start_us, ${nowMicros})
      WHERE id = ${runId} AND state = ${RunState.pending}`;
    return result.count > 0;
  }

  async updateProgress(runId: number, crawled: number, total: number, nowMicros: number): Promise<void> {
    await this.sql`
      UPDATE crawl_runs SET crawled_count = ${crawled}, total_count = ${total}, updated_us = ${nowMicros}
      WHERE id = ${runId}`;
  }

  async finish(
    runId: number,
    state: RunStateId,
    nowMicros: number,
    artifacts: ArtifactFileName[],
    message: string,
    messageParts: readonly RunMessagePart[] = [],
    endReason: RunEndReason | null = null,
  ): Promise<void> {
    await this.sql`
      UPDATE crawl_runs SET state = ${state}, end_us = ${nowMicros}, updated_us = ${nowMicros},
        artifacts = ${artifacts.join(',')}, message = ${message}, end_reason = ${endReason},
        message_parts = ${JSON.stringify(messageParts)}, start_us = coalesce(start_us, ${nowMicros}),
        lease_owner = NULL, lease_until_us = NULL
      WHERE id = ${runId}`;
  }

  listArtifactsEndedBefore(cutoffMicros: number): Promise<RunRecord[]> {
    return this.all(this.sql<RunRow[]>`
      ${this.select()} WHERE r.artifacts <> '' AND r.artifacts_deleted_us IS NULL AND r.end_us < ${cutoffMicros}
      ORDER BY r.id`);
  }

  async markArtifactsDeleted(runId: number, nowMicros: number): Promise<void> {
    await this.sql`
      UPDATE crawl_runs SET artifacts_deleted_us = ${nowMicros}, updated_us = ${nowMicros} WHERE id = ${runId}`;
  }
}

async function countActive(sql: PgQueryable, tenant: TenantRef): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    SELECT count(*) AS count FROM crawl_runs r
    WHERE r.contract_id = ${tenant.contractId} AND r.servicegroup_id = ${tenant.servicegroupId}
      AND ${sql.unsafe(ACTIVE)}`;
  return row!.count;
}
