/**
 * When the health check's components turn NG (docs/api.md, Health): a worker that holds runs and
 * has not renewed their leases for half their length is about to lose them; a scheduler is
 * stalled when it has not looked at the schedules for three intervals, but not while its first
 * look, at start, is under way.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runLeaseProblem, schedulerProblem } from '../../src/observability/health.js';

test('leases renewed within half their length are fine; later, the runs held and the age are named', () => {
  assert.equal(runLeaseProblem({ held: 2, sinceRenewedMs: 15_000, leaseMs: 30_000 }), undefined);
  assert.equal(
    runLeaseProblem({ held: 2, sinceRenewedMs: 16_000, leaseMs: 30_000 }),
    'the leases of 2 running run(s) were last renewed 16 s ago',
  );
});

test('a worker holding nothing, or not renewed yet, is fine', () => {
  assert.equal(runLeaseProblem({ held: 0, sinceRenewedMs: 600_000, leaseMs: 30_000 }), undefined);
  assert.equal(runLeaseProblem({ held: 1, sinceRenewedMs: undefined, leaseMs: 30_000 }), undefined);
});

test('a scheduler whose first look is under way is fine; one that never looked, or stopped looking, is not', () => {
  const state = { running: true, lastTickMicros: undefined, intervalMs: 60_000 };
  assert.equal(schedulerProblem({ ...state, sinceLastTickMs: undefined, sinceStartMs: 50 }), undefined);
  assert.equal(
    schedulerProblem({ ...state, sinceLastTickMs: undefined, sinceStartMs: 200_000 }),
    'the scheduler has not looked at the schedules since it started 200 s ago',
  );
  assert.equal(schedulerProblem({ ...state, sinceLastTickMs: 100_000, sinceStartMs: 900_000 }), undefined);
  assert.equal(
    schedulerProblem({ ...state, sinceLastTickMs: 200_000, sinceStartMs: 900_000 }),
    'the scheduler last looked at the schedules 200 s ago',
  );
  assert.equal(
    schedulerProblem({ ...state, running: false, sinceLastTickMs: 1, sinceStartMs: 1 }),
    'the scheduler is not running',
  );
});
