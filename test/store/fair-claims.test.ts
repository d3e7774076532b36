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
async function contractIn(store: ServiceStore, name: string): Promise<TenantRef> {
  const now = systemClock.nowMicros();
  const contract = await store.tenants.createContract(name, now);
  const group = await store.tenants.createServiceGroup(contract.id, `${name}-1`, now);
  return { contractId: contract.id, servicegroupId: group.id };
}

async function secondGroupOf(store: ServiceStore, tenant: TenantRef, name: string): Promise<TenantRef> {
  const group = await store.tenants.createServiceGroup(tenant.contractId, name, systemClock.nowMicros());
  return { contractId: tenant.contractId, servicegroupId: group.id };
}

/** Queues an instant run named `label` (its seed URL carries the label). */
async function post(
  store: ServiceStore,
  tenant: TenantRef,
  label: string,
  names: Map<number, string>,
): Promise<void> {
  const run = await store.runs.createInstantRun(
    tenant,
    { seed_urls: [`http://127.0.0.1:9/${label}`] },
    systemClock.nowMicros(),
  );
  names.set(run.id, label);
}

/** Claims until nothing more may start; the labels in claim order. */
async function claimAll(
  store: ServiceStore,
  names: Map<number, string>,
  policy: ClaimPolicy = {},
): Promise<string[]> {
  const order: string[] = [];
  for (;;) {
    const run = await store.runs.claimNextPending(systemClock.nowMicros(), policy);
    if (run === undefined) return order;
    assert.equal(run.state, RunState.running);
    order.push(names.get(run.id)!);
  }
}

test('contracts take turns: one run of each contract with pending runs, then the next round', async () => {
  const store = open(freshFile());
  try {
    const names = new Map<number, string>();
    const a = await contractIn(store, 'a');
    const b = await contractIn(store, 'b');
    const c = await contractIn(store, 'c');
    // Each contract posts its whole batch before the next one posts.
    for (const label of ['a1', 'a2', 'a3']) await post(store, a, label, names);
    for (const label of ['b1', 'b2']) await post(store, b, label, names);
    for (const label of ['c1', 'c2', 'c3', 'c4']) await post(store, c, label, names);
    assert.deepEqual(await claimAll(store, names), ['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'c3', 'c4']);
  } finally {
    await store.close();
  }
});

test('a contract that joins later goes before the contracts already served', async () => {
  const store = open(freshFile());
  try {
    const names = new Map<number, string>();
    const a = await contractIn(store, 'a');
    const b = await contractIn(store, 'b');
    for (const label of ['a1', 'a2', 'a3']) await post(store, a, label, names);
    assert.deepEqual(await claimAll(store, names, { maxRunningPerContract: 1 }), ['a1']);
    await post(store, b, 'b1', names);
    for (const run of await store.runs.listRunning())
      await store.runs.finish(run.id, RunState.stopped, 1, [], '');
    // a2 is older than b1, but contract a had the last turn.
    assert.deepEqual(await claimAll(store, names), ['b1', 'a2', 'a3']);
  } finally {
    await store.close();
  }
});

test('the service groups of a contract take turns within its turn, oldest first within a group', async () => {
  const store = open(freshFile());
  try {
    const names = new Map<number, string>();
    const g1 = await contractIn(store, 'a');
    const g2 = await secondGroupOf(store, g1, 'a-2');
    const b = await contractIn(store, 'b');
    for (const label of ['g1-1', 'g1-2', 'g1-3']) await post(store, g1, label, names);
    for (const label of ['g2-1', 'g2-2']) await post(store, g2, label, names);
    for (const label of ['b1', 'b2']) await post(store, b, label, names);
    assert.deepEqual(await claimAll(store, names), ['g1-1', 'b1', 'g2-1', 'b2', 'g1-2', 'g2-2', 'g1-3']);
  } finally {
    await store.close();
  }
});

test('a contract at its cap is passed over, its service groups together, until one of its runs ends', async () => {
  const store = open(freshFile());
  try {
    const names = new Map<number, string>();
    const a = await contractIn(store, 'a');
    const a2 = await secondGroupOf(store, a, 'a-2');
    const b = await contractIn(store, 'b');
    await post(store, a, 'a1', names);
    await post(store, a, 'a2', names);
    await post(store, a2, 'a2-1', names);
    await post(store, b, 'b1', names);
    await post(store, b, 'b2', names);
    const cap = { maxRunningPerContract: 2 };
    assert.deepEqual(await claimAll(store, names, cap), ['a1', 'b1', 'a2-1', 'b2']);
    assert.deepEqual(await store.runs.countRunning(a.contractId), { total: 4, ofContract: 2 });
    assert.deepEqual(await store.runs.countRunning(b.contractId), { total: 4, ofContract: 2 });
    const a1 = [...names].find(([, label]) => label === 'a1')![0];
    await store.runs.finish(a1, RunState.stopped, systemClock.nowMicros(), [], '');
    assert.deepEqual(await claimAll(store, names, cap), ['a2']);
    assert.deepEqual(await store.runs.countRunning(a.contractId), { total: 4, ofContract: 2 });
  } finally {
    await store.close();
  }
});

test('runs left running by an earlier process count toward the cap, and the turns are kept', async () => {
  const file = freshFile();
  const names = new Map<number, string>();
  let a: TenantRef;
  let b: TenantRef;
  const first = open(file);
  try {
    a = await contractIn(first, 'a');
    b = await contractIn(first, 'b');
    await post(first, a, 'a1', names);
    await post(first, a, 'a2', names);
    assert.deepEqual(await claimAll(first, names, { maxRunningPerContract: 1 }), ['a1']);
  } finally {
    await first.close();
  }
  // The process stopped with a1 running; the next one finds it in the store.
  const second = open(file);
  try {
    await post(second, b, 'b1', names);
    await post(second, b, 'b2', names);
    assert.equal((await second.runs.listRunning()).length, 1);
    assert.deepEqual(await claimAll(second, names, { maxRunningPerContract: 1 }), ['b1']);
    for (const run of await second.runs.listRunning())
      await second.runs.finish(run.id, RunState.stopped, 1, [], '');
    // Contract a had the turn before b1's: a2 goes before b2 although the store was reopened.
    assert.deepEqual(await claimAll(second, names, { maxRunningPerContract: 1 }), ['a2', 'b2']);
  } finally {
    await second.close();
  }
});

test('a run still running in the store but holding no slot (its end was not recorded) does not count', async () => {
  const store = open(freshFile());
  try {
    const names = new Map<number, string>();
    const a = await contractIn(store, 'a');
    await post(store, a, 'a1', names);
    await post(store, a, 'a2', names);
    await post(store, a, 'a3', names);
    const claim = async (policy: ClaimPolicy) => {
      const run = await store.runs.claimNextPending(systemClock.nowMicros(), policy);
      return run && names.get(run.id);
    };
    assert.equal(await claim({ maxRunningPerContract: 1 }), 'a1');
    // a1 stays 2020 in the store, but the pool holds no slot for it: a2 may start.
    assert.equal(await claim({ maxRunningPerContract: 1, slotHolderRunIds: [] }), 'a2');
    const a2 = [...names].find(([, label]) => label === 'a2')![0];
    assert.equal(await claim({ maxRunningPerContract: 1, slotHolderRunIds: [a2] }), undefined);
    // Left to the store alone, a1 counts as well.
    assert.equal(await claim({ maxRunningPerContract: 2 }), undefined);
    assert.equal(await claim({ maxRunningPerContract: 2, slotHolderRunIds: [a2] }), 'a3');
  } finally {
    await store.close();
  }
});

test('a pending run whose cancel was requested is never claimed', async () => {
  const store = open(freshFile());
  try {
    const names = new Map<number, string>();
    const a = await contractIn(store, 'a');
    await post(store, a, 'a1', names);
    await post(store, a, 'a2', names);
    const a1 = [...names].find(([, label]) => label === 'a1')![0];
    await store.runs.requestCancel(a1, systemClock.nowMicros());
    assert.deepEqual(await claimAll(store, names), ['a2']);
  } finally {
    await store.close();
  }
});
