/**
 * The management operations over a real SQLite record store in a temporary folder, with a clock
 * the test sets, a dispatcher and a change feed that record what they are told.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type Actor,
  Management,
  type ManagementChange,
  ScheduledCrawlService,
  TenantWork,
} from '../../src/usecases/index.js';
import type { RecordStore, TenantRef } from '../../src/store/index.js';
import { openTestRecordStore } from './test-store.js';
import type { Clock } from '../../src/util/index.js';
import type { RunDispatcher } from '../../src/worker/index.js';

/** 2030-01-15T12:00:00Z: the fixture's clock starts there. */
export const START_MICROS = Date.UTC(2030, 0, 15, 12) * 1000;

export const OPERATOR: Actor = { kind: 'operator', via: 'admin-api' };

export interface ManagementFixture {
  store: RecordStore;
  management: Management;
  clock: Clock & { micros: number };
  /** The changes reported so far, oldest first. */
  changes: ManagementChange[];
  /** What the operations asked of the worker pool. */
  dispatched: { pending: number; cancelled: number[]; ended: number[] };
  /** How often the webhook dispatcher was told of queued deliveries. */
  deliveriesQueued: { count: number };
  /** Contract "acme", service group "web". */
  tenant: TenantRef;
  /** Contract "globex", service group "web": another tenant. */
  other: TenantRef;
}

const opened: { store: RecordStore; folder: string }[] = [];

/** Closes the stores and removes the folders of every fixture made so far. */
export async function closeManagementFixtures(): Promise<void> {
  for (const { store, folder } of opened.splice(0)) {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A fresh store with two tenants (made in the store, so no change is reported for them). */
export async function managementFixture(timezone = 'UTC'): Promise<ManagementFixture> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-management-'));
  const store = await openTestRecordStore(path.join(folder, 'kumo.db'));
  opened.push({ store, folder });
  const clock = { micros: START_MICROS, nowMicros: () => clock.micros };
  const dispatched = { pending: 0, cancelled: [] as number[], ended: [] as number[] };
  const dispatcher: RunDispatcher = {
    notifyPending: () => void (dispatched.pending += 1),
    cancelRun: (runId) => void dispatched.cancelled.push(runId),
    runEnded: (runId) => void dispatched.ended.push(runId),
  };
  const changes: ManagementChange[] = [];
  const deliveriesQueued = { count: 0 };
  const management = new Management({
    store,
    scheduledCrawl: new ScheduledCrawlService(store, dispatcher, clock, timezone),
    tenantWork: new TenantWork(),
    clock,
    timezone,
    onDeliveriesQueued: () => void (deliveriesQueued.count += 1),
    onChange: (change) => void changes.push(change),
  });
  const tenantOf = async (contract: string): Promise<TenantRef> => {
    const { id: contractId } = await store.tenants.createContract(contract, START_MICROS);
    const { id: servicegroupId } = await store.tenants.createServiceGroup(contractId, 'web', START_MICROS);
    return { contractId, servicegroupId };
  };
  const tenant = await tenantOf('acme');
  const other = await tenantOf('globex');
  return { store, management, clock, changes, dispatched, deliveriesQueued, tenant, other };
}
