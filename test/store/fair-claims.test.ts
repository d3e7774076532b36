/**
 * Fair claiming of pending runs (docs/reference/run-states.md, Waiting), on the SQLite store:
 * contracts take turns, service groups take turns within their contract, oldest first within a
 * service group; a contract at its cap of running runs is passed over, runs left running by an
 * earlier process included; the turns survive reopening the store.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { RunState } from '../../src/domain/run-states.js';
import type { ClaimPolicy, ServiceStore, TenantRef } from '../../src/store/service-store.js';
import { openSqliteServiceStore } from '../../src/store/sqlite/open-service-store.js';
import { systemClock } from '../../src/util/clock.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'kumo-fair-claims-'));
after(() => rmSync(root, { recursive: true, force: true }));

const SECRET_KEY = Buffer.alloc(32, 0x33);
let serial = 0;

function freshFile(): string {
  return path.join(mkdtempSync(path.join(root, `${++serial}-`)), 'kumo.db');
}

const open = (file: string) => openSqliteServiceStore(file, { secretKey: SECRET_KEY });

/** A new contract with one service group. */
function contractIn(store: ServiceStore, name: string): TenantRef {
  const now = systemClock.nowMicros();
  const contract = store.tenants.createContract(name, now);
  const group = store.tenants.createServiceGroup(contract.id, `${name}-1`, now);
  return { contractId: contract.id, servicegroupId: group.id };
}

function secondGroupOf(store: ServiceStore, tenant: TenantRef, name: string): TenantRef {
  const group = store.tenants.createServiceGroup(tenant.contractId, name, systemClock.nowMicros());
  return { contractId: tenant.contractId, servicegroupId: group.id };
}

/** Queues an instant run named `label` (its seed URL carries the label). */
function post(store: ServiceStore, tenant: TenantRef, label: string, names: Map<number, string>): void {
  const run = store.runs.createInstantRun(
    tenant,
    { seed_urls: [`http://127.0.0.1:9/${label}`] },
    systemClock.nowMicros(),
  );
  names.set(run.id, label);
}

/** Claims until nothing more may start; the labels in claim order. */
function claimAll(store: ServiceStore, names: Map<number, string>, policy: ClaimPolicy = {}): string[] {
  const order: string[] = [];
  for (;;) {
    const run = store.runs.claimNextPending(systemClock.nowMicros(), policy);
    if (run === undefined) return order;
    assert.equal(run.state, RunState.running);
    order.push(names.get(run.id)!);
  }
}

test('contracts take turns: one run of each contract with pending runs, then the next round', () => {
  const store = open(freshFile());
  try {
    const names = new Map<number, string>();
    const [a, b, c] = ['a', 'b', 'c'].map((name) => contractIn(store, name)) as [
      TenantRef,
      TenantRef,
      TenantRef,
    ];
    // Each contract posts its whole batch before the next one posts.
    for (const label of ['a1', 'a2', 'a3']) post(store, a, label, names);
    for (const label of ['b1', 'b2']) post(store, b, label, names);
    for (const label of ['c1', 'c2', 'c3', 'c4']) post(store, c, label, names);
    assert.deepEqual(claimAll(store, names), ['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'c3', 'c4']);
  } finally {
    store.close();
  }
});

test('a contract that joins later goes before the contracts already served', () => {
  const store = open(freshFile());
  try {
    const names = new Map<number, string>();
    const a = contractIn(store, 'a');
    const b = contractIn(store, 'b');
    for (const label of ['a1', 'a2', 'a3']) post(store, a, label, names);
    assert.deepEqual(claimAll(store, names, { maxRunningPerContract: 1 }), ['a1']);
    post(store, b, 'b1', names);
    for (const run of store.runs.listRunning()) store.runs.finish(run.id, RunState.stopped, 1, [], '');
    // a2 is older than b1, but contract a had the last turn.
    assert.deepEqual(claimAll(store, names), ['b1', 'a2', 'a3']);
  } finally {
    store.close();
  }
});

test('the service groups of a contract take turns within its turn, oldest first within a group', () => {
  const store = open(freshFile());
  try {
    const names = new Map<number, string>();
    const g1 = contractIn(store, 'a');
    const g2 = secondGroupOf(store, g1, 'a-2');
    const b = contractIn(store, 'b');
    for (const label of ['g1-1', 'g1-2', 'g1-3']) post(store, g1, label, names);
    for (const label of ['g2-1', 'g2-2']) post(store, g2, label, names);
    for (const label of ['b1', 'b2']) post(store, b, label, names);
    assert.deepEqual(claimAll(store, names), ['g1-1', 'b1', 'g2-1', 'b2', 'g1-2', 'g2-2', 'g1-3']);
  } finally {
    store.close();
  }
});

test('a contract at its cap is passed over, its service groups together, until one of its runs ends', () => {
  const store = open(freshFile());
  try {
    const names = new Map<number, string>();
    const a = contractIn(store, 'a');
    const a2 = secondGroupOf(store, a, 'a-2');
    const b = contractIn(store, 'b');
    post(store, a, 'a1', names);
    post(store, a, 'a2', names);
    post(store, a2, 'a2-1', names);
    post(store, b, 'b1', names);
    post(store, b, 'b2', names);
    const cap = { maxRunningPerContract: 2 };
    assert.deepEqual(claimAll(store, names, cap), ['a1', 'b1', 'a2-1', 'b2']);
    assert.deepEqual(store.runs.countRunning(a.contractId), { total: 4, ofContract: 2 });
    assert.deepEqual(store.runs.countRunning(b.contractId), { total: 4, ofContract: 2 });
    const a1 = [...names].find(([, label]) => label === 'a1')![0];
    store.runs.finish(a1, RunState.stopped, systemClock.nowMicros(), [], '');
    assert.deepEqual(claimAll(store, names, cap), ['a2']);
    assert.deepEqual(store.runs.countRunning(a.contractId), { total: 4, ofContract: 2 });
  } finally {
    store.close();
  }
});

test('runs left running by an earlier process count toward the cap, and the turns are kept', () => {
  const file = freshFile();
  const names = new Map<number, string>();
  let a: TenantRef;
  let b: TenantRef;
  const first = open(file);
  try {
    a = contractIn(first, 'a');
    b = contractIn(first, 'b');
    post(first, a, 'a1', names);
    post(first, a, 'a2', names);
    assert.deepEqual(claimAll(first, names, { maxRunningPerContract: 1 }), ['a1']);
  } finally {
    first.close();
  }
  // The process stopped with a1 running; the next one finds it in the store.
  const second = open(file);
  try {
    post(second, b, 'b1', names);
    post(second, b, 'b2', names);
    assert.equal(second.runs.listRunning().length, 1);
    assert.deepEqual(claimAll(second, names, { maxRunningPerContract: 1 }), ['b1']);
    for (const run of second.runs.listRunning()) second.runs.finish(run.id, RunState.stopped, 1, [], '');
    // Contract a had the turn before b1's: a2 goes before b2 although the store was reopened.
    assert.deepEqual(claimAll(second, names, { maxRunningPerContract: 1 }), ['a2', 'b2']);
  } finally {
    second.close();
  }
});

test('a run still running in the store but holding no slot (its end was not recorded) does not count', () => {
  const store = open(freshFile());
  try {
    const names = new Map<number, string>();
    const a = contractIn(store, 'a');
    post(store, a, 'a1', names);
    post(store, a, 'a2', names);
    post(store, a, 'a3', names);
    const claim = (policy: ClaimPolicy) => {
      const run = store.runs.claimNextPending(systemClock.nowMicros(), policy);
      return run && names.get(run.id);
    };
    assert.equal(claim({ maxRunningPerContract: 1 }), 'a1');
    // a1 stays 2020 in the store, but the pool holds no slot for it: a2 may start.
    assert.equal(claim({ maxRunningPerContract: 1, slotHolderRunIds: [] }), 'a2');
    const a2 = [...names].find(([, label]) => label === 'a2')![0];
    assert.equal(claim({ maxRunningPerContract: 1, slotHolderRunIds: [a2] }), undefined);
    // Left to the store alone, a1 counts as well.
    assert.equal(claim({ maxRunningPerContract: 2 }), undefined);
    assert.equal(claim({ maxRunningPerContract: 2, slotHolderRunIds: [a2] }), 'a3');
  } finally {
    store.close();
  }
});

test('a pending run whose cancel was requested is never claimed', () => {
  const store = open(freshFile());
  try {
    const names = new Map<number, string>();
    const a = contractIn(store, 'a');
    post(store, a, 'a1', names);
    post(store, a, 'a2', names);
    const a1 = [...names].find(([, label]) => label === 'a1')![0];
    store.runs.requestCancel(a1, systemClock.nowMicros());
    assert.deepEqual(claimAll(store, names), ['a2']);
  } finally {
    store.close();
  }
});
