import { RunState } from '../../domain/index.js';
import type { ClaimPolicy, RunningCounts } from '../record-store.js';
import { bigintArrayLiteral, type PgQueryable, type PgSql } from './pg-connection.js';

/**
 * Fair claiming of pending runs on PostgreSQL (docs/reference/run-states.md, Waiting), in the order
 * of the SQLite store's run-claims.ts: contract turn, contract's oldest pending run, group turn,
 * group's oldest pending run. Several processes claim at once:
 *
 * - a claimer takes a contract with `pg_try_advisory_xact_lock`, so the contract's cap is checked
 *   and its turn moved by one claimer at a time, while the others pass on to the next contract
 *   (which is the fair next one, as the locked contract is taking its turn);
 * - the run itself is taken with `FOR UPDATE SKIP LOCKED`, so a run being cancelled or claimed
 *   elsewhere is never waited for nor taken twice;
 * - turn numbers come from a sequence, so concurrent claims never share or lose a turn; a claimer
 *   that finds the contract's turn moved since it read the order reads the order again.
 */

/** How many times a claim reads the order again when other claimers got in its way. */
const ATTEMPTS = 8;

interface Candidate {
  contract_id: number;
  servicegroup_id: number;
  contract_turn: number;
}

type Outcome = { kind: 'claimed'; id: number } | { kind: 'none' } | { kind: 'contended' };

export async function claimFairly(
  sql: PgSql,
  nowMicros: number,
  policy: ClaimPolicy,
): Promise<number | undefined> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const outcome: Outcome = await sql.begin((tx) => tryClaim(tx, nowMicros, policy));
    if (outcome.kind === 'claimed') return outcome.id;
    if (outcome.kind === 'none') return undefined;
  }
  return undefined;
}

/** `{1,2,3}`: the slot holders as a BIGINT[] literal; null when every running run holds a slot. */
function holdersOf(policy: ClaimPolicy): string | null {
  return policy.slotHolderRunIds === undefined ? null : bigintArrayLiteral(policy.slotHolderRunIds);
}

async function tryClaim(tx: PgQueryable, nowMicros: number, policy: ClaimPolicy): Promise<Outcome> {
  const holders = holdersOf(policy);
  const cap = policy.maxRunningPerContract ?? null;
  // Every service group with a pending run that may start, in claiming order; the rows of one
  // contract are together, its best group first.
  const candidates = await tx<Candidate[]>`
    WITH running AS (
      SELECT contract_id, count(*) AS n FROM crawl_runs
      WHERE state = ${RunState.running} AND (${holders}::bigint[] IS NULL OR id = ANY(${holders}::bigint[]))
      GROUP BY contract_id
    ),
    waiting AS (
      SELECT contract_id, servicegroup_id, min(id) AS first_id FROM crawl_runs
      WHERE state = ${RunState.pending} AND NOT is_cancel_request
      GROUP BY contract_id, servicegroup_id
    ),
    candidates AS (
      SELECT w.contract_id, w.servicegroup_id, w.first_id,
        coalesce(t.last_turn, 0) AS group_turn,
        coalesce((SELECT max(c.last_turn) FROM run_claim_turns c WHERE c.contract_id = w.contract_id), 0)
          AS contract_turn,
        min(w.first_id) OVER (PARTITION BY w.contract_id) AS contract_first_id
      FROM waiting w
      LEFT JOIN run_claim_turns t ON t.contract_id = w.contract_id AND t.servicegroup_id = w.servicegroup_id
      LEFT JOIN running r ON r.contract_id = w.contract_id
      WHERE ${cap}::bigint IS NULL OR coalesce(r.n, 0) < ${cap}::bigint
    )
    SELECT contract_id, servicegroup_id, contract_turn FROM candidates
    ORDER BY contract_turn, contract_first_id, group_turn, first_id`;

  let contended = false;
  const held = new Set<number>();
  const passed = new Set<number>();
  for (const candidate of candidates) {
    const contractId = candidate.contract_id;
    if (passed.has(contractId)) continue;
    if (!held.has(contractId)) {
      const [lock] = await tx<{ locked: boolean }[]>`
        SELECT pg_try_advisory_xact_lock(hashtext('kumo.run-claims'), (${contractId}::bigint % 2147483647)::integer)
          AS locked`;
      if (!lock?.locked) {
        contended = true;
        passed.add(contractId);
        continue;
      }
      held.add(contractId);
      // The contract is this claimer's now: its turn and running runs as they are committed.
      const [now] = await tx<{ turn: number; running: number }[]>`
        SELECT
          (SELECT coalesce(max(last_turn), 0) FROM run_claim_turns WHERE contract_id = ${contractId}) AS turn,
          (SELECT count(*) FROM crawl_runs WHERE contract_id = ${contractId} AND state = ${RunState.running}
             AND (${holders}::bigint[] IS NULL OR id = ANY(${holders}::bigint[]))) AS running`;
      if (now!.turn !== candidate.contract_turn) return { kind: 'contended' };
      if (cap !== null && now!.running >= cap) {
        passed.add(contractId);
        continue;
      }
    }
    const [run] = await tx<{ id: number }[]>`
      SELECT id FROM crawl_runs
      WHERE contract_id = ${contractId} AND servicegroup_id = ${candidate.servicegroup_id}
        AND state = ${RunState.pending} AND NOT is_cancel_request
      ORDER BY id LIMIT 1
      FOR UPDATE SKIP LOCKED`;
    if (run === undefined) {
      contended = true;
      continue;
    }
    await tx`
      UPDATE crawl_runs SET state = ${RunState.running}, start_us = coalesce(start_us, ${nowMicros}),
        updated_us = ${nowMicros}, lease_owner = ${policy.lease?.owner ?? null},
        lease_until_us = ${policy.lease?.untilMicros ?? null}
      WHERE id = ${run.id}`;
    await tx`
      INSERT INTO run_claim_turns (contract_id, servicegroup_id, last_turn)
      VALUES (${contractId}, ${candidate.servicegroup_id}, nextval('run_claim_turn_numbers'))
      ON CONFLICT (contract_id, servicegroup_id) DO UPDATE SET last_turn = excluded.last_turn`;
    return { kind: 'claimed', id: run.id };
  }
  return { kind: contended ? 'contended' : 'none' };
}

export async function countRunning(sql: PgQueryable, contractId: number): Promise<RunningCounts> {
  const [row] = await sql<RunningCounts[]>`
    SELECT count(*) AS total, count(*) FILTER (WHERE contract_id = ${contractId}) AS "ofContract"
    FROM crawl_runs WHERE state = ${RunState.running}`;
  return { total: row!.total, ofContract: row!.ofContract };
}
