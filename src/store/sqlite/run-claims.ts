import type Database from 'better-sqlite3';
import { RunState } from '../../domain/index.js';
import type { ClaimPolicy, RunningCounts } from '../record-store.js';

/**
 * The pending run to claim next (docs/reference/run-states.md, Waiting). Every service group with
 * a pending run that may start is a candidate; its contract's turn is the latest turn of any of
 * the contract's groups (0: never served), so contracts take turns whichever group was served.
 * Order: contract turn, contract's oldest pending run, group turn, group's oldest pending run.
 * A group's oldest pending run stands for the group, so the winner's run is that run.
 */
const NEXT_PENDING = `
  WITH running AS (
    SELECT contract_id, count(*) AS n FROM crawl_runs
    WHERE state = ${RunState.running} AND (@holders IS NULL OR id IN (SELECT value FROM json_each(@holders)))
    GROUP BY contract_id
  ),
  waiting AS (
    SELECT contract_id, servicegroup_id, min(id) AS first_id FROM crawl_runs
    WHERE state = ${RunState.pending} AND is_cancel_request = 0
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
    WHERE @cap IS NULL OR coalesce(r.n, 0) < @cap
  )
  SELECT contract_id, servicegroup_id, first_id AS id FROM candidates
  ORDER BY contract_turn, contract_first_id, group_turn, first_id
  LIMIT 1`;

interface Candidate {
  id: number;
  contract_id: number;
  servicegroup_id: number;
}

/**
 * Marks the next pending run running and records its group's turn, in one write transaction
 * (taken before reading, so two claimers never take the same run or the same turn). Returns the
 * run's id, or undefined when no run may start.
 */
export function claimFairly(
  db: Database.Database,
  nowMicros: number,
  policy: ClaimPolicy,
): number | undefined {
  const parameters = {
    cap: policy.maxRunningPerContract ?? null,
    holders: policy.slotHolderRunIds === undefined ? null : JSON.stringify(policy.slotHolderRunIds),
  };
  return db
    .transaction(() => {
      const next = db.prepare<typeof parameters, Candidate>(NEXT_PENDING).get(parameters);
      if (!next) return undefined;
      db.prepare(
        `UPDATE crawl_runs SET state = ?, start_us = COALESCE(start_us, ?), updated_us = ? WHERE id = ?`,
      ).run(RunState.running, nowMicros, nowMicros, next.id);
      db.prepare(
        `INSERT INTO run_claim_turns (contract_id, servicegroup_id, last_turn)
         VALUES (?, ?, (SELECT coalesce(max(last_turn), 0) + 1 FROM run_claim_turns))
         ON CONFLICT (contract_id, servicegroup_id) DO UPDATE SET last_turn = excluded.last_turn`,
      ).run(next.contract_id, next.servicegroup_id);
      return next.id;
    })
    .immediate();
}

export function countRunning(db: Database.Database, contractId: number): RunningCounts {
  return db
    .prepare<[number], RunningCounts>(
      `SELECT count(*) AS total, coalesce(sum(contract_id = ?), 0) AS ofContract
       FROM crawl_runs WHERE state = ${RunState.running}`,
    )
    .get(contractId)!;
}
