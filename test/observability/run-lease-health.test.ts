/**
 * The health check's run_leases component (docs/api.md, Health): a worker that holds runs and has
 * not renewed their leases for half their length is about to lose them, and says so.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runLeaseProblem } from '../../src/observability/health.js';

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
