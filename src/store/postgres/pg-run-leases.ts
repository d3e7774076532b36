import { RunState } from '../../domain/index.js';
import type { SecretBox } from '../../security/index.js';
import { type RunRow, runRecordOf } from '../record-rows.js';
import type { RunLease } from '../run-leases.js';
import type { CheckpointEntry, CheckpointLink, CheckpointRow, RunCheckpoint } from '../../run-data/index.js';
import type { RunLeaseStore, RunRecord } from '../record-store.js';
import { bigintArrayLiteral, type PgQueryable, type PgSql } from './pg-connection.js';
import { SELECT_RUN } from './pg-run-rows.js';

/** Rows read at a time when a worker restores a run from its checkpoints. */
const READ_BATCH = 2000;

/**
 * What the triggers of crawl_runs announce at each commit (pg-schema.ts): `pending` (runs were
 * queued) or `cancel:<run id>`.
 */
const RUNS_CHANNEL = 'kumo_runs';

/**
 * Run leases and checkpoints on PostgreSQL (docs/design/scale-out.md, Run leases). A checkpoint is
 * one transaction that first locks the run's row and checks the lease, so a worker that lost its
 * run (paused past its lease while another took over) can never write into it. Rows go in as arrays
 * (`unnest`): one statement per table whatever the number of pages since the last checkpoint.
 */
export class PgRunLeaseStore implements RunLeaseStore {
  constructor(
    private readonly sql: PgSql,
    private readonly box: SecretBox,
  ) {}

  async takeAbandoned(
    lease: RunLease,
    nowMicros: number,
    executing: readonly number[] = [],
  ): Promise<RunRecord | undefined> {
    const [taken] = await this.sql<{ id: number }[]>`
      UPDATE crawl_runs SET lease_owner = ${lease.owner}, lease_until_us = ${lease.untilMicros},
        updated_us = ${nowMicros}
      WHERE id = (
        SELECT id FROM crawl_runs
        WHERE state = ${RunState.running} AND (lease_until_us IS NULL OR lease_until_us < ${nowMicros})
          AND NOT (id = ANY(${bigintArrayLiteral(executing)}::bigint[]))
        ORDER BY id LIMIT 1
        FOR UPDATE SKIP LOCKED)
      RETURNING id`;
    if (taken === undefined) return undefined;
    const [row] = await this.sql<RunRow[]>`${this.sql.unsafe(SELECT_RUN)} WHERE r.id = ${taken.id}`;
    return row && runRecordOf(row, this.box);
  }

  async renew(owner: string, runIds: readonly number[], untilMicros: number): Promise<Map<number, boolean>> {
    if (runIds.length === 0) return new Map();
    const held = await this.sql<{ id: number; is_cancel_request: boolean }[]>`
      UPDATE crawl_runs SET lease_until_us = ${untilMicros}
      WHERE id = ANY(${bigintArrayLiteral(runIds)}::bigint[]) AND lease_owner = ${owner} AND state = ${RunState.running}
        AND lease_until_us <> 0
      RETURNING id, is_cancel_request`;
    return new Map(held.map((run) => [run.id, run.is_cancel_request]));
  }

  async release(owner: string, runId: number): Promise<void> {
    await this.sql`
      UPDATE crawl_runs SET lease_until_us = 0 WHERE id = ${runId} AND lease_owner = ${owner}`;
  }

  async releaseAll(): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`
        UPDATE crawl_runs SET lease_until_us = 0 WHERE state = ${RunState.running} AND lease_until_us > 0`;
      // The hosts a dead process held too (each still free only after its last gap).
      await tx`UPDATE host_tenures SET owner = NULL, wanted_us = NULL WHERE owner IS NOT NULL`;
    });
  }

  async listen(
    events: { pending(): void; cancelAsked(runId: number): void },
    connected: () => void,
  ): Promise<{ close(): Promise<void> }> {
    const listening = await this.sql.listen(
      RUNS_CHANNEL,
      (payload) => {
        if (payload === 'pending') events.pending();
        const cancel = /^cancel:(\d+)$/.exec(payload);
        if (cancel !== null) events.cancelAsked(Number(cancel[1]));
      },
      connected,
    );
    return { close: () => listening.unlisten() };
  }

  async dropCheckpoints(runId: number): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`DELETE FROM run_frontier WHERE run_id = ${runId}`;
      await tx`DELETE FROM run_url_rows WHERE run_id = ${runId}`;
      await tx`DELETE FROM run_link_rows WHERE run_id = ${runId}`;
    });
  }
}

/** The run's checkpointed entries in seq order, a batch at a time (also read by the checkpoint thread). */
export async function* checkpointEntries(sql: PgSql, runId: number): AsyncIterable<CheckpointEntry[]> {
  const batches = sql<CheckpointEntry[]>`
    SELECT seq, fingerprint, url, depth, referrer, state FROM run_frontier
    WHERE run_id = ${runId} ORDER BY seq`.cursor(READ_BATCH);
  for await (const batch of batches) yield batch;
}

export async function* checkpointRows(sql: PgSql, runId: number): AsyncIterable<CheckpointRow[]> {
  const batches = sql<CheckpointRow[]>`
    SELECT id, crawl_url AS "crawlUrl", last_url AS "lastUrl", ok, crawl_us AS "crawlMicros",
      http_status AS "httpStatus", last_modified AS "lastModified", content_type AS "contentType",
      content_length AS "contentLength", fetch_error AS "fetchError", depth, piece,
      piece_offset AS "pieceOffset", object_bytes AS "objectBytes"
    FROM run_url_rows WHERE run_id = ${runId} ORDER BY id`.cursor(READ_BATCH);
  for await (const batch of batches) yield batch;
}

export async function* checkpointLinks(sql: PgSql, runId: number): AsyncIterable<CheckpointLink[]> {
  const batches = sql<CheckpointLink[]>`
    SELECT id, source_url AS "sourceUrl", link_url AS "linkUrl", anchor_text AS "anchorText", rel
    FROM run_link_rows WHERE run_id = ${runId} ORDER BY id`.cursor(READ_BATCH);
  for await (const batch of batches) yield batch;
}

/** Thrown inside a checkpoint's transaction to roll it back: the lease was lost meanwhile. */
class LeaseLost extends Error {}

/**
 * RunLeaseStore.saveCheckpoint, batch by batch, on a connection of its own (the checkpoint
 * thread's): one transaction that checks the lease, adds the batches, runs `beforeCommit` (the
 * piece's upload: rows never name a piece that is not stored), and commits only if the lease is
 * still the owner's, the run's row locked for that last check alone (a long upload never holds
 * up the renewals). False when the lease is not, or no longer, the owner's: nothing is written.
 */
export async function saveRunCheckpoint(
  sql: PgSql,
  owner: string,
  runId: number,
  batches: Iterable<RunCheckpoint>,
  beforeCommit: () => Promise<void> = async () => undefined,
): Promise<boolean> {
  try {
    return await sql.begin(async (tx) => {
      const held = await tx`
        SELECT id FROM crawl_runs
        WHERE id = ${runId} AND lease_owner = ${owner} AND state = ${RunState.running}`;
      if (held.length === 0) return false;
      for (const batch of batches) {
        await insertEntries(tx, runId, batch.entries);
        await insertRows(tx, runId, batch.rows);
        await insertLinks(tx, runId, batch.links);
      }
      await beforeCommit();
      const [still] = await tx`
        SELECT id FROM crawl_runs
        WHERE id = ${runId} AND lease_owner = ${owner} AND state = ${RunState.running}
        FOR UPDATE`;
      if (still === undefined) throw new LeaseLost();
      return true;
    });
  } catch (error) {
    if (error instanceof LeaseLost) return false;
    throw error;
  }
}

/** New entries, and the state of entries already stored (a page fetched or skipped since). */
async function insertEntries(
  tx: PgQueryable,
  runId: number,
  entries: readonly CheckpointEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await tx`
    INSERT INTO run_frontier (run_id, seq, fingerprint, url, depth, referrer, state)
    SELECT ${runId}, seq, decode(fingerprint, 'hex'), url, depth, referrer, state
    FROM unnest(
      ${tx.array(entries.map((entry) => entry.seq))}::bigint[],
      ${tx.array(entries.map((entry) => Buffer.from(entry.fingerprint).toString('hex')))}::text[],
      ${tx.array(entries.map((entry) => entry.url))}::text[],
      ${tx.array(entries.map((entry) => entry.depth))}::integer[],
      ${tx.array(entries.map((entry) => entry.referrer))}::text[],
      ${tx.array(entries.map((entry) => entry.state))}::smallint[]
    ) AS e(seq, fingerprint, url, depth, referrer, state)
    ON CONFLICT (run_id, seq) DO UPDATE SET state = excluded.state`;
}

async function insertRows(tx: PgQueryable, runId: number, rows: readonly CheckpointRow[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(pick: (row: CheckpointRow) => T) => tx.array(rows.map(pick) as never[]);
  await tx`
    INSERT INTO run_url_rows (run_id, id, crawl_url, last_url, ok, crawl_us, http_status, last_modified,
      content_type, content_length, fetch_error, depth, piece, piece_offset, object_bytes)
    SELECT ${runId}, * FROM unnest(
      ${column((row) => row.id)}::bigint[],
      ${column((row) => row.crawlUrl)}::text[],
      ${column((row) => row.lastUrl)}::text[],
      ${column((row) => row.ok)}::boolean[],
      ${column((row) => row.crawlMicros)}::bigint[],
      ${column((row) => row.httpStatus)}::integer[],
      ${column((row) => row.lastModified)}::text[],
      ${column((row) => row.contentType)}::text[],
      ${column((row) => row.contentLength)}::bigint[],
      ${column((row) => row.fetchError)}::text[],
      ${column((row) => row.depth)}::integer[],
      ${column((row) => row.piece)}::text[],
      ${column((row) => row.pieceOffset)}::bigint[],
      ${column((row) => row.objectBytes)}::bigint[]
    )
    ON CONFLICT (run_id, id) DO NOTHING`;
}

async function insertLinks(tx: PgQueryable, runId: number, links: readonly CheckpointLink[]): Promise<void> {
  if (links.length === 0) return;
  await tx`
    INSERT INTO run_link_rows (run_id, id, source_url, link_url, anchor_text, rel)
    SELECT ${runId}, * FROM unnest(
      ${tx.array(links.map((link) => link.id))}::bigint[],
      ${tx.array(links.map((link) => link.sourceUrl))}::text[],
      ${tx.array(links.map((link) => link.linkUrl))}::text[],
      ${tx.array(links.map((link) => link.anchorText))}::text[],
      ${tx.array(links.map((link) => link.rel))}::text[]
    )
    ON CONFLICT (run_id, id) DO NOTHING`;
}
