/**
 * What callers rely on from a RecordStore, whatever keeps it: one suite that each implementation
 * runs (`describeRecordStoreContract(name, open)`), `open` giving a new, empty store each time.
 * Values, orders, not-found answers, limits, the one active run per crawl service setting and the
 * fair claiming order (docs/reference/run-states.md, Waiting).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ArtifactFile, RunState } from '../../src/domain/index.js';
import type { InstantCrawlerSetting, SearchServiceConfig } from '../../src/domain/schemas.js';
import { LastOwnerError } from '../../src/store/account-store.js';
import {
  ActiveRunLimitError,
  type ClaimPolicy,
  type ServiceSettingInput,
  type RecordStore,
  type TenantRef,
} from '../../src/store/record-store.js';

export type OpenStore = () => Promise<RecordStore>;

const T0 = 1_750_000_000_000_000;
const setting = (label: string): InstantCrawlerSetting => ({ seed_urls: [`http://127.0.0.1:9/${label}`] });
const withPassword: InstantCrawlerSetting = {
  seed_urls: ['http://127.0.0.1:9/private'],
  authorizations: [
    { type: 'BASIC', url_pattern: '^http://127\\.0\\.0\\.1:9/', user: 'u', password: 'hunter2' },
  ],
};
const hash = (text: string) => Buffer.from(text.padEnd(32, '.'));

/** A new contract with one service group. */
export async function contractIn(store: RecordStore, name: string): Promise<TenantRef> {
  const contract = await store.tenants.createContract(name, T0);
  const group = await store.tenants.createServiceGroup(contract.id, `${name}-1`, T0);
  return { contractId: contract.id, servicegroupId: group.id };
}

/** Queues an instant run labelled `label`; returns its id. */
export async function post(
  store: RecordStore,
  tenant: TenantRef,
  label: string,
  names: Map<number, string>,
): Promise<number> {
  const run = await store.runs.createInstantRun(tenant, setting(label), T0 + names.size);
  names.set(run.id, label);
  return run.id;
}

/** Claims until nothing more may start; the labels in claim order. */
export async function claimAll(
  store: RecordStore,
  names: Map<number, string>,
  policy: ClaimPolicy = {},
): Promise<string[]> {
  const order: string[] = [];
  for (;;) {
    const run = await store.runs.claimNextPending(T0, policy);
    if (run === undefined) return order;
    assert.equal(run.state, RunState.running);
    order.push(names.get(run.id)!);
  }
}

const scheduleInput = (name: string, interval = 2): ServiceSettingInput => ({
  name,
  setting: withPassword,
  schedule: { interval, min: 0, hour: 9 },
  searchServiceId: null,
});

export function describeRecordStoreContract(name: string, open: OpenStore): void {
  /** Runs `body` on a new store, closed afterwards. */
  const withStore = (body: (store: RecordStore) => Promise<void>) => async () => {
    const store = await open();
    try {
      await body(store);
    } finally {
      await store.close();
    }
  };

  describe(`${name}: tenants, keys, search services`, () => {
    test(
      'contracts and service groups: values, order, chosen ids, not found',
      withStore(async (store) => {
        assert.equal(await store.ping(), true);
        const a = await store.tenants.createContract('a', T0);
        assert.deepEqual(a, { id: a.id, name: 'a', createdMicros: T0 });
        const pinned = await store.tenants.createContract('pinned', T0 + 1, 40);
        assert.equal(pinned.id, 40);
        const next = await store.tenants.createContract('next', T0 + 2);
        assert.ok(next.id > 40, 'an id after a chosen one continues past it');
        assert.deepEqual(
          (await store.tenants.listContracts()).map((c) => c.name),
          ['a', 'pinned', 'next'],
        );
        const g1 = await store.tenants.createServiceGroup(a.id, 'g1', T0);
        const g2 = await store.tenants.createServiceGroup(pinned.id, 'g2', T0, 7);
        assert.deepEqual(g1, { id: g1.id, contractId: a.id, name: 'g1', createdMicros: T0 });
        assert.equal(g2.id, 7);
        assert.deepEqual(await store.tenants.getServiceGroup(a.id, g1.id), g1);
        assert.equal(await store.tenants.getServiceGroup(pinned.id, g1.id), undefined);
        assert.equal(await store.tenants.getContract(999), undefined);
        assert.deepEqual(await store.tenants.listServiceGroups(a.id), [g1]);
        assert.equal((await store.tenants.listServiceGroups()).length, 2);
      }),
    );

    test(
      'API keys: found by hash while not revoked, listed per contract, last use only moves forward',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const b = await contractIn(store, 'b');
        const key = await store.apiKeys.insert(a, hash('ka'), 'kumo_abc', 'ci', T0);
        await store.apiKeys.insert(b, hash('kb'), 'kumo_def', 'other', T0);
        assert.deepEqual(key, {
          id: key.id,
          ...a,
          prefix: 'kumo_abc',
          label: 'ci',
          createdMicros: T0,
          revokedMicros: null,
          lastUsedMicros: null,
        });
        assert.deepEqual(await store.apiKeys.findActiveByHash(hash('ka')), key);
        assert.equal(await store.apiKeys.findActiveByHash(hash('nope')), undefined);
        await store.apiKeys.markUsed(key.id, T0 + 60);
        await store.apiKeys.markUsed(key.id, T0 + 30);
        assert.equal((await store.apiKeys.findActiveByHash(hash('ka')))?.lastUsedMicros, T0 + 60);
        assert.deepEqual(
          (await store.apiKeys.list(a.contractId)).map((k) => k.label),
          ['ci'],
        );
        assert.equal((await store.apiKeys.list()).length, 2);
        assert.equal(await store.apiKeys.revoke(key.id, T0 + 90), true);
        assert.equal(await store.apiKeys.revoke(key.id, T0 + 91), false);
        assert.equal(await store.apiKeys.findActiveByHash(hash('ka')), undefined);
        assert.equal((await store.apiKeys.list(a.contractId))[0]?.revokedMicros, T0 + 90);
      }),
    );

    test(
      'search services: configuration kept as given, listed per tenant, updates of unknown ids refused',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const b = await contractIn(store, 'b');
        const config = { allowed_origins: ['https://a.example'] } as SearchServiceConfig;
        const first = await store.searchServices.create(a, 'docs', config, T0);
        const pinned = await store.searchServices.create(b, 'blog', {} as SearchServiceConfig, T0, 50);
        assert.equal(pinned.id, 50);
        assert.deepEqual(first, {
          id: first.id,
          ...a,
          name: 'docs',
          config,
          createdMicros: T0,
          updatedMicros: T0,
        });
        assert.deepEqual(await store.searchServices.list(a), [first]);
        assert.equal((await store.searchServices.list()).length, 2);
        const changed = { allowed_origins: ['https://b.example'] } as SearchServiceConfig;
        assert.equal(await store.searchServices.updateConfig(first.id, changed, T0 + 5), true);
        assert.equal(await store.searchServices.updateConfig(999, changed, T0 + 5), false);
        const read = await store.searchServices.get(first.id);
        assert.deepEqual([read?.config, read?.updatedMicros], [changed, T0 + 5]);
        assert.equal(await store.searchServices.get(999), undefined);
      }),
    );
  });

  describe(`${name}: crawl service settings, webhooks, deliveries`, () => {
    test(
      'crawl service settings: stored with their passwords, updated, paused, deleted but known',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const created = await store.serviceSettings.create(a, scheduleInput('nightly'), T0 - 1, T0);
        assert.deepEqual(created, {
          id: created.id,
          ...a,
          ...scheduleInput('nightly'),
          lastSlotMicros: T0 - 1,
          pausedMicros: null,
          createdMicros: T0,
          updatedMicros: T0,
        });
        const disabled = await store.serviceSettings.create(a, scheduleInput('off', 0), 0, T0);
        const paused = await store.serviceSettings.create(a, scheduleInput('paused'), 0, T0);
        assert.equal(await store.serviceSettings.setPaused(paused.id, T0 + 1, 0, T0 + 1), true);
        assert.deepEqual(
          (await store.serviceSettings.listScheduled()).map((s) => s.name),
          ['nightly'],
        );
        // The last handled slot only moves forward: a slot a scheduler took stays taken.
        await store.serviceSettings.update(created.id, scheduleInput('nightly'), T0 + 100, T0 + 1);
        await store.serviceSettings.update(created.id, scheduleInput('nightly'), T0 + 50, T0 + 1);
        assert.equal((await store.serviceSettings.get(created.id))?.lastSlotMicros, T0 + 100);
        const updated = { ...scheduleInput('renamed'), setting: setting('new') };
        assert.equal(await store.serviceSettings.update(created.id, updated, T0 + 200, T0 + 2), true);
        const read = await store.serviceSettings.get(created.id);
        assert.deepEqual(
          [read?.name, read?.setting, read?.lastSlotMicros],
          ['renamed', setting('new'), T0 + 200],
        );
        assert.equal(await store.serviceSettings.setPaused(paused.id, null, T0 + 300, T0 + 3), true);
        assert.equal((await store.serviceSettings.get(paused.id))?.lastSlotMicros, T0 + 300);
        assert.equal(await store.serviceSettings.delete(disabled.id, T0 + 4), true);
        assert.equal(await store.serviceSettings.delete(disabled.id, T0 + 4), false);
        assert.equal(await store.serviceSettings.get(disabled.id), undefined);
        assert.equal(await store.serviceSettings.known(disabled.id), true);
        assert.equal(await store.serviceSettings.known(999), false);
        assert.equal(await store.serviceSettings.update(disabled.id, updated, 0, T0), false);
        assert.equal(await store.serviceSettings.setPaused(disabled.id, T0, 0, T0), false);
        assert.deepEqual(
          (await store.serviceSettings.list(a)).map((s) => s.name),
          ['renamed', 'paused'],
        );
        const b = await contractIn(store, 'b');
        const pinned = await store.serviceSettings.create(b, scheduleInput('pinned'), 0, T0, 77);
        assert.equal(pinned.id, 77);
        assert.deepEqual(await store.serviceSettings.list(b), [pinned]);
        assert.equal((await store.serviceSettings.list()).length, 3);
      }),
    );

    test(
      'webhooks: the secret read back as given, deleted ones gone',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const b = await contractIn(store, 'b');
        const hook = await store.webhooks.create(a, 'https://hooks.example/a', 's3cret', T0);
        await store.webhooks.create(b, 'https://hooks.example/b', 'other', T0);
        assert.deepEqual(hook, {
          id: hook.id,
          ...a,
          url: 'https://hooks.example/a',
          secret: 's3cret',
          createdMicros: T0,
        });
        assert.deepEqual(await store.webhooks.get(hook.id), hook);
        assert.deepEqual(await store.webhooks.list(a), [hook]);
        assert.equal((await store.webhooks.list()).length, 2);
        assert.equal(await store.webhooks.delete(hook.id, T0 + 1), true);
        assert.equal(await store.webhooks.delete(hook.id, T0 + 1), false);
        assert.equal(await store.webhooks.get(hook.id), undefined);
        assert.deepEqual(await store.webhooks.list(a), []);
      }),
    );

    test(
      'deliveries: taken oldest first with a lease, attempts recorded, replayed',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const hook = await store.webhooks.create(a, 'https://hooks.example/a', 's', T0);
        assert.equal(await store.deliveries.nextDueMicros(), undefined);
        const first = await store.deliveries.enqueue(hook.id, 'crawl.started', 'e1', '{"n":1}', T0);
        const second = await store.deliveries.enqueue(hook.id, 'crawl.finished', 'e2', '{"n":2}', T0 + 10);
        assert.deepEqual(first, {
          id: first.id,
          webhookId: hook.id,
          event: 'crawl.started',
          eventId: 'e1',
          body: '{"n":1}',
          state: 'pending',
          attempts: 0,
          lastStatus: null,
          lastError: '',
          lastDurationMs: null,
          nextAttemptMicros: T0,
          createdMicros: T0,
          updatedMicros: T0,
          deliveredMicros: null,
        });
        assert.equal(await store.deliveries.nextDueMicros(), T0);
        // One contract's oldest due delivery at a time, as the dispatcher takes them.
        const claimedIds = async (now: number, leaseUntil: number) => {
          const due = await store.deliveries.dueByContract(now, [], 10);
          const taken = await store.deliveries.claim(
            due.map((delivery) => delivery.id),
            now,
            leaseUntil,
          );
          return taken.map((d) => [d.id, d.nextAttemptMicros]);
        };
        // Taken with a lease: not due again for anyone until the lease ends.
        assert.deepEqual(await claimedIds(T0 + 5, T0 + 1000), [[first.id, T0 + 1000]]);
        assert.deepEqual(await claimedIds(T0 + 10, T0 + 1000), [[second.id, T0 + 1000]]);
        assert.deepEqual(await claimedIds(T0 + 999, T0 + 2000), []);
        assert.equal(await store.deliveries.nextDueMicros(), T0 + 1000);
        // An attempt never recorded (its process died): due again when the lease ends.
        assert.deepEqual(await claimedIds(T0 + 1000, T0 + 2000), [[first.id, T0 + 2000]]);
        assert.deepEqual(await claimedIds(T0 + 1000, T0 + 2000), [[second.id, T0 + 2000]]);
        assert.equal(await store.deliveries.countPending?.(), 2);
        await store.deliveries.recordAttempt(
          first.id,
          { status: 500, error: 'HTTP 500', durationMs: 12, next: { kind: 'retry', atMicros: T0 + 100 } },
          T0 + 20,
        );
        let read = await store.deliveries.get(first.id);
        assert.deepEqual(
          [
            read?.state,
            read?.attempts,
            read?.lastStatus,
            read?.lastError,
            read?.lastDurationMs,
            read?.nextAttemptMicros,
          ],
          ['pending', 1, 500, 'HTTP 500', 12, T0 + 100],
        );
        assert.equal(await store.deliveries.nextDueMicros(), T0 + 100);
        await store.deliveries.recordAttempt(
          second.id,
          { status: 200, error: '', durationMs: 3, next: { kind: 'delivered' } },
          T0 + 30,
        );
        read = await store.deliveries.get(second.id);
        assert.deepEqual(
          [read?.state, read?.deliveredMicros, read?.nextAttemptMicros],
          ['delivered', T0 + 30, null],
        );
        await store.deliveries.recordAttempt(
          first.id,
          { status: null, error: 'timeout', durationMs: null, next: { kind: 'failed' } },
          T0 + 40,
        );
        assert.equal((await store.deliveries.get(first.id))?.state, 'failed');
        assert.equal(await store.deliveries.countPending?.(), 0);
        assert.deepEqual(
          (await store.deliveries.list(hook.id, 10)).map((d) => d.id),
          [second.id, first.id],
        );
        assert.deepEqual(
          (await store.deliveries.list(hook.id, 1)).map((d) => d.id),
          [second.id],
        );
        assert.equal(await store.deliveries.replay(second.id, T0 + 50), true);
        assert.equal(await store.deliveries.replay(999, T0 + 50), false);
        read = await store.deliveries.get(second.id);
        assert.deepEqual(
          [read?.state, read?.nextAttemptMicros, read?.deliveredMicros],
          ['pending', T0 + 50, null],
        );
        assert.equal(await store.deliveries.get(999), undefined);
      }),
    );

    test(
      'deliveries by contract: the oldest due of each, full contracts skipped, claimed while still due',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const b = await contractIn(store, 'b');
        const c = await contractIn(store, 'c');
        const hookA = await store.webhooks.create(a, 'https://hooks.example/a', 's', T0);
        const hookB = await store.webhooks.create(b, 'https://hooks.example/b', 's', T0);
        const hookC = await store.webhooks.create(c, 'https://hooks.example/c', 's', T0);
        const a1 = await store.deliveries.enqueue(hookA.id, 'webhook.ping', 'a1', '{}', T0);
        await store.deliveries.enqueue(hookA.id, 'webhook.ping', 'a2', '{}', T0 + 1);
        await store.deliveries.enqueue(hookA.id, 'webhook.ping', 'a3', '{}', T0 + 2);
        const b1 = await store.deliveries.enqueue(hookB.id, 'webhook.ping', 'b1', '{}', T0 + 5);
        // Not due yet at T0 + 10.
        await store.deliveries.enqueue(hookC.id, 'webhook.ping', 'c1', '{}', T0 + 50);
        const due = (skip: number[], limit = 10) => store.deliveries.dueByContract(T0 + 10, skip, limit);
        assert.deepEqual(await due([]), [
          { id: a1.id, contractId: a.contractId, dueMicros: T0 },
          { id: b1.id, contractId: b.contractId, dueMicros: T0 + 5 },
        ]);
        assert.deepEqual(await due([a.contractId]), [
          { id: b1.id, contractId: b.contractId, dueMicros: T0 + 5 },
        ]);
        assert.deepEqual(await due([], 1), [{ id: a1.id, contractId: a.contractId, dueMicros: T0 }]);

        const claimed = await store.deliveries.claim([a1.id, b1.id], T0 + 10, T0 + 1000);
        assert.deepEqual(
          claimed.map((d) => [d.id, d.nextAttemptMicros]).sort((x, y) => x[0]! - y[0]!),
          [
            [a1.id, T0 + 1000],
            [b1.id, T0 + 1000],
          ],
        );
        // Leased: not claimed again, and the contract's next delivery is its oldest due now.
        assert.deepEqual(await store.deliveries.claim([a1.id], T0 + 10, T0 + 2000), []);
        assert.deepEqual(
          (await due([])).map((d) => d.dueMicros),
          [T0 + 1],
        );
        assert.deepEqual(await store.deliveries.claim([], T0 + 10, T0 + 2000), []);
      }),
    );
  });

  describe(`${name}: crawl runs`, () => {
    test(
      'an instant run: stored pending with its setting, found by request, its limit counted',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const b = await contractIn(store, 'b');
        const run = await store.runs.createInstantRun(a, withPassword, T0, 2);
        assert.deepEqual(run, {
          id: run.id,
          requestId: run.requestId,
          ...a,
          state: RunState.pending,
          isCancelRequest: false,
          createdMicros: T0,
          requestReceivedMicros: T0,
          updatedMicros: T0,
          startMicros: null,
          endMicros: null,
          crawledCount: 0,
          totalCount: 0,
          artifacts: [],
          artifactsDeletedMicros: null,
          message: '',
          messageParts: [],
          setting: withPassword,
          serviceSettingId: null,
          downloadKey: null,
          trigger: 'api',
          endReason: null,
        });
        assert.deepEqual(await store.runs.getByRequest(a, run.requestId), run);
        assert.equal(await store.runs.getByRequest(b, run.requestId), undefined);
        assert.equal(await store.runs.getRun(999_999), undefined);
        await store.runs.createInstantRun(a, setting('two'), T0 + 1, 2);
        await assert.rejects(
          store.runs.createInstantRun(a, setting('three'), T0 + 2, 2),
          (error: unknown) => error instanceof ActiveRunLimitError && error.active === 2 && error.limit === 2,
        );
        assert.equal(await store.runs.countActiveRuns(a), 2);
        // Another tenant has its own count.
        await store.runs.createInstantRun(b, setting('b'), T0 + 3, 1);
        await store.runs.finish(run.id, RunState.stopped, T0 + 4, [], '', [], 'documents_limit');
        // Why it ended is kept with the run (docs/reference/run-states.md, End reasons).
        assert.equal((await store.runs.getRun(run.id))?.endReason, 'documents_limit');
        await store.runs.createInstantRun(a, setting('three'), T0 + 5, 2);
        assert.equal(await store.runs.countActiveRuns(a), 2);
      }),
    );

    test(
      'concurrent instant runs never pass the active-run limit',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const results = await Promise.allSettled(
          Array.from({ length: 8 }, (_, index) =>
            store.runs.createInstantRun(a, setting(`r${index}`), T0, 3),
          ),
        );
        assert.equal(results.filter((result) => result.status === 'fulfilled').length, 3);
        assert.equal(await store.runs.countActiveRuns(a), 3);
      }),
    );

    test(
      'a scheduled run: one pending or running per setting, found by download key, with its history',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const stored = await store.serviceSettings.create(a, scheduleInput('nightly'), 0, T0);
        const run = await store.runs.createScheduledRun(
          { setting: stored, downloadKey: 'dk-1', trigger: 'schedule' },
          T0,
        );
        assert.ok(run);
        assert.deepEqual(
          [run.serviceSettingId, run.downloadKey, run.trigger, run.setting, run.state],
          [stored.id, 'dk-1', 'schedule', withPassword, RunState.pending],
        );
        assert.equal(
          await store.runs.createScheduledRun(
            { setting: stored, downloadKey: 'dk-2', trigger: 'manual' },
            T0 + 1,
          ),
          undefined,
        );
        assert.deepEqual(await store.runs.activeRunOfSetting(stored.id), run);
        assert.deepEqual(await store.runs.getByDownloadKey('dk-1'), run);
        assert.equal(await store.runs.getByDownloadKey('dk-none'), undefined);
        // Scheduled runs are not instant requests.
        assert.equal(await store.runs.getByRequest(a, run.requestId), undefined);
        assert.deepEqual(await store.runs.listActive(a), []);
        assert.equal(await store.runs.countActiveRuns(a), 1);
        const claimed = await store.runs.claimNextPending(T0 + 2);
        assert.equal(claimed?.id, run.id);
        assert.equal(claimed?.startMicros, T0 + 2);
        assert.equal(
          await store.runs.createScheduledRun(
            { setting: stored, downloadKey: 'dk-2', trigger: 'manual' },
            T0 + 3,
          ),
          undefined,
        );
        await store.runs.finish(run.id, RunState.stopped, T0 + 10, [ArtifactFile.urlList], '');
        assert.equal(await store.runs.activeRunOfSetting(stored.id), undefined);
        const again = await store.runs.createScheduledRun(
          { setting: stored, downloadKey: 'dk-2', trigger: 'manual' },
          T0 + 20,
        );
        assert.equal(again?.trigger, 'manual');
        await store.runs.finish(again!.id, RunState.troubled, T0 + 30, [], 'failed');
        assert.deepEqual(
          (
            await store.runs.listSettingHistory(stored.id, { fromMicros: 0, toMicros: T0 + 100, limit: 10 })
          ).map((r) => r.id),
          [again!.id, run.id],
        );
        assert.deepEqual(
          (
            await store.runs.listSettingHistory(stored.id, {
              fromMicros: T0 + 5,
              toMicros: T0 + 100,
              limit: 10,
            })
          ).map((r) => r.id),
          [again!.id],
        );
      }),
    );

    test(
      'concurrent scheduled runs of one setting: exactly one is created',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const stored = await store.serviceSettings.create(a, scheduleInput('nightly'), 0, T0);
        const created = await Promise.all(
          Array.from({ length: 6 }, (_, index) =>
            store.runs.createScheduledRun(
              { setting: stored, downloadKey: `dk-${index}`, trigger: 'schedule' },
              T0,
            ),
          ),
        );
        assert.equal(created.filter((run) => run !== undefined).length, 1);
      }),
    );

    test(
      'a schedule slot fires once: taken with its run, then taken for good, skipped while a run goes',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const stored = await store.serviceSettings.create(a, scheduleInput('nightly'), T0, T0);
        const input = (key: string) => ({ setting: stored, downloadKey: key, trigger: 'schedule' as const });
        const slot = T0 + 3_600_000_000;
        const first = await store.runs.createSlotRun(input('dk-1'), slot, slot + 5);
        assert.equal(first.kind, 'started');
        assert.equal(first.kind === 'started' && first.run.downloadKey, 'dk-1');
        assert.equal((await store.serviceSettings.get(stored.id))?.lastSlotMicros, slot);
        // The same slot again (another scheduler, or this one after a restart): nothing.
        assert.deepEqual(await store.runs.createSlotRun(input('dk-2'), slot, slot + 6), { kind: 'taken' });
        assert.deepEqual(await store.runs.createSlotRun(input('dk-2'), slot - 1, slot + 6), {
          kind: 'taken',
        });
        // The next slot while the run still goes: taken, and skipped.
        const next = slot + 3_600_000_000;
        assert.deepEqual(await store.runs.createSlotRun(input('dk-3'), next, next + 1), { kind: 'busy' });
        assert.equal((await store.serviceSettings.get(stored.id))?.lastSlotMicros, next);
        assert.equal(
          first.kind === 'started' && (await store.runs.activeRunOfSetting(stored.id))?.id,
          first.run.id,
        );
        // Once the run ended, a slot already taken stays taken; the next one runs.
        if (first.kind === 'started')
          await store.runs.finish(first.run.id, RunState.stopped, next + 2, [ArtifactFile.urlList], '');
        assert.deepEqual(await store.runs.createSlotRun(input('dk-4'), next, next + 3), { kind: 'taken' });
        const third = await store.runs.createSlotRun(
          input('dk-5'),
          next + 3_600_000_000,
          next + 3_600_000_001,
        );
        assert.equal(third.kind, 'started');
      }),
    );

    test(
      'concurrent takers of one slot: exactly one run',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const stored = await store.serviceSettings.create(a, scheduleInput('nightly'), T0, T0);
        const slot = T0 + 3_600_000_000;
        const results = await Promise.all(
          Array.from({ length: 6 }, (_, index) =>
            store.runs.createSlotRun(
              { setting: stored, downloadKey: `dk-${index}`, trigger: 'schedule' },
              slot,
              slot + index,
            ),
          ),
        );
        assert.deepEqual(results.map((result) => result.kind).sort(), [
          'started',
          'taken',
          'taken',
          'taken',
          'taken',
          'taken',
        ]);
      }),
    );

    test(
      'progress, cancel, finish, histories and lists',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const b = await contractIn(store, 'b');
        const names = new Map<number, string>();
        const r1 = await post(store, a, 'r1', names);
        const r2 = await post(store, a, 'r2', names);
        const r3 = await post(store, a, 'r3', names);
        await post(store, b, 'b1', names);
        const stored = await store.serviceSettings.create(a, scheduleInput('nightly'), 0, T0);
        const scheduled = await store.runs.createScheduledRun(
          { setting: stored, downloadKey: 'dk', trigger: 'schedule' },
          T0 + 9,
        );
        assert.deepEqual(
          (await store.runs.listActive(a)).map((run) => run.id),
          [r1, r2, r3],
        );
        const r2Request = (await store.runs.getRun(r2))!.requestId;
        assert.deepEqual(
          (await store.runs.listActive(a, [r2Request])).map((run) => run.id),
          [r2],
        );
        assert.deepEqual(await store.runs.listActive(a, []), []);
        const claimed = await store.runs.claimNextPending(T0 + 10);
        assert.equal(claimed?.id, r1);
        assert.equal(
          await store.runs.finishIfPending(r1, RunState.stoppedByCancel, T0 + 11, 'cancelled'),
          false,
        );
        await store.runs.requestCancel(r2, T0 + 12);
        assert.equal((await store.runs.getRun(r2))?.isCancelRequest, true);
        assert.equal(
          await store.runs.finishIfPending(r2, RunState.stoppedByCancel, T0 + 13, 'cancelled', [
            { code: 'cancelled_before_start', values: {} },
          ]),
          true,
        );
        const cancelled = await store.runs.getRun(r2);
        assert.deepEqual(
          [cancelled?.state, cancelled?.endMicros, cancelled?.startMicros, cancelled?.message],
          [RunState.stoppedByCancel, T0 + 13, T0 + 13, 'cancelled'],
        );
        // The message's parts come back as stored (docs/api.md, Run messages).
        assert.deepEqual(cancelled?.messageParts, [{ code: 'cancelled_before_start', values: {} }]);
        await store.runs.updateProgress(r1, 5, 9, T0 + 14);
        let read = await store.runs.getRun(r1);
        assert.deepEqual([read?.crawledCount, read?.totalCount, read?.updatedMicros], [5, 9, T0 + 14]);
        assert.deepEqual(
          (await store.runs.listRunning()).map((run) => run.id),
          [r1],
        );
        await store.runs.finish(
          r1,
          RunState.stopped,
          T0 + 20,
          [ArtifactFile.urlList, ArtifactFile.linkList],
          'search service 3: 2 new, 0 changed, 1 unchanged, 0 removed, 0 skipped',
          [
            {
              code: 'search_feed',
              values: { service_id: 3, added: 2, updated: 0, unchanged: 1, removed: 0, skipped: 0 },
            },
          ],
        );
        read = await store.runs.getRun(r1);
        assert.deepEqual(
          [read?.state, read?.endMicros, read?.artifacts, read?.messageParts],
          [
            RunState.stopped,
            T0 + 20,
            [ArtifactFile.urlList, ArtifactFile.linkList],
            [
              {
                code: 'search_feed',
                values: { service_id: 3, added: 2, updated: 0, unchanged: 1, removed: 0, skipped: 0 },
              },
            ],
          ],
        );
        assert.deepEqual(
          (await store.runs.listHistory(a, { limit: 10 })).map((run) => run.id),
          [r2, r1],
        );
        assert.deepEqual(
          (await store.runs.listHistory(a, { limit: 10, fromMicros: T0 + 12 })).map((run) => run.id),
          [r2],
        );
        assert.deepEqual(
          (await store.runs.listHistory(a, { limit: 10, toMicros: T0 + 12 })).map((run) => run.id),
          [r1],
        );
        const r1Request = (await store.runs.getRun(r1))!.requestId;
        assert.deepEqual(
          (await store.runs.listHistory(a, { limit: 10, requestId: r1Request })).map((run) => run.id),
          [r1],
        );
        assert.deepEqual(
          (await store.runs.listHistory(a, { limit: 1 })).map((run) => run.id),
          [r2],
        );
        const ids = async (query: Parameters<RecordStore['runs']['listRuns']>[1]) =>
          (await store.runs.listRuns(a, query)).map((run) => run.id);
        assert.deepEqual(await ids({ limit: 10 }), [scheduled!.id, r3, r2, r1]);
        assert.deepEqual(await ids({ limit: 10, kind: 'instant' }), [r3, r2, r1]);
        assert.deepEqual(await ids({ limit: 10, kind: 'scheduled' }), [scheduled!.id]);
        assert.deepEqual(await ids({ limit: 10, state: 'active' }), [scheduled!.id, r3]);
        assert.deepEqual(await ids({ limit: 10, state: 'ended' }), [r2, r1]);
        assert.deepEqual(await ids({ limit: 10, state: RunState.stopped }), [r1]);
        assert.deepEqual(await ids({ limit: 10, serviceSettingId: stored.id }), [scheduled!.id]);
        assert.deepEqual(await ids({ limit: 2, beforeId: r3 }), [r2, r1]);
        assert.deepEqual(await ids({ limit: 1 }), [scheduled!.id]);

        const counts = await store.runs.countByState();
        assert.deepEqual(counts, {
          [RunState.pending]: 3,
          [RunState.running]: 0,
          [RunState.stopped]: 1,
          [RunState.troubled]: 0,
          [RunState.stoppedByCancel]: 1,
          [RunState.stoppedByTimeout]: 0,
        });
        const usage = await store.runs.usageByContract();
        assert.deepEqual(usage.get(a.contractId), { runs: 4, pagesFetched: 5 });
        assert.deepEqual(usage.get(b.contractId), { runs: 1, pagesFetched: 0 });
        assert.deepEqual((await store.runs.runsWithArtifacts(a.contractId)).sort(), [r1, r2].sort());

        assert.deepEqual(
          (await store.runs.listArtifactsEndedBefore(T0 + 21)).map((run) => run.id),
          [r1],
        );
        assert.deepEqual(await store.runs.listArtifactsEndedBefore(T0 + 20), []);
        await store.runs.markArtifactsDeleted(r1, T0 + 30);
        assert.equal((await store.runs.getRun(r1))?.artifactsDeletedMicros, T0 + 30);
        assert.deepEqual(await store.runs.listArtifactsEndedBefore(T0 + 100), []);
        assert.deepEqual(await store.runs.runsWithArtifacts(a.contractId), [r2]);
      }),
    );
  });

  describe(`${name}: fair claiming`, () => {
    test(
      'contracts take turns: one run of each contract with pending runs, then the next round',
      withStore(async (store) => {
        const names = new Map<number, string>();
        const a = await contractIn(store, 'a');
        const b = await contractIn(store, 'b');
        const c = await contractIn(store, 'c');
        for (const label of ['a1', 'a2', 'a3']) await post(store, a, label, names);
        for (const label of ['b1', 'b2']) await post(store, b, label, names);
        for (const label of ['c1', 'c2', 'c3', 'c4']) await post(store, c, label, names);
        assert.deepEqual(await claimAll(store, names), [
          'a1',
          'b1',
          'c1',
          'a2',
          'b2',
          'c2',
          'a3',
          'c3',
          'c4',
        ]);
      }),
    );

    test(
      'a contract that joins later goes before the contracts already served',
      withStore(async (store) => {
        const names = new Map<number, string>();
        const a = await contractIn(store, 'a');
        const b = await contractIn(store, 'b');
        for (const label of ['a1', 'a2', 'a3']) await post(store, a, label, names);
        assert.deepEqual(await claimAll(store, names, { maxRunningPerContract: 1 }), ['a1']);
        await post(store, b, 'b1', names);
        for (const run of await store.runs.listRunning())
          await store.runs.finish(run.id, RunState.stopped, 1, [], '');
        assert.deepEqual(await claimAll(store, names), ['b1', 'a2', 'a3']);
      }),
    );

    test(
      'the service groups of a contract take turns within its turn, oldest first within a group',
      withStore(async (store) => {
        const names = new Map<number, string>();
        const g1 = await contractIn(store, 'a');
        const group = await store.tenants.createServiceGroup(g1.contractId, 'a-2', T0);
        const g2 = { contractId: g1.contractId, servicegroupId: group.id };
        const b = await contractIn(store, 'b');
        for (const label of ['g1-1', 'g1-2', 'g1-3']) await post(store, g1, label, names);
        for (const label of ['g2-1', 'g2-2']) await post(store, g2, label, names);
        for (const label of ['b1', 'b2']) await post(store, b, label, names);
        assert.deepEqual(await claimAll(store, names), ['g1-1', 'b1', 'g2-1', 'b2', 'g1-2', 'g2-2', 'g1-3']);
      }),
    );

    test(
      'a contract at its cap is passed over, its service groups together, until one of its runs ends',
      withStore(async (store) => {
        const names = new Map<number, string>();
        const a = await contractIn(store, 'a');
        const group = await store.tenants.createServiceGroup(a.contractId, 'a-2', T0);
        const a2 = { contractId: a.contractId, servicegroupId: group.id };
        const b = await contractIn(store, 'b');
        const a1 = await post(store, a, 'a1', names);
        await post(store, a, 'a2', names);
        await post(store, a2, 'a2-1', names);
        await post(store, b, 'b1', names);
        await post(store, b, 'b2', names);
        const cap = { maxRunningPerContract: 2 };
        assert.deepEqual(await claimAll(store, names, cap), ['a1', 'b1', 'a2-1', 'b2']);
        assert.deepEqual(await store.runs.countRunning(a.contractId), { total: 4, ofContract: 2 });
        assert.deepEqual(await store.runs.countRunning(b.contractId), { total: 4, ofContract: 2 });
        await store.runs.finish(a1, RunState.stopped, T0, [], '');
        assert.deepEqual(await claimAll(store, names, cap), ['a2']);
        assert.deepEqual(await store.runs.countRunning(a.contractId), { total: 4, ofContract: 2 });
      }),
    );

    test(
      'a run still running in the store but holding no slot does not count toward the cap',
      withStore(async (store) => {
        const names = new Map<number, string>();
        const a = await contractIn(store, 'a');
        await post(store, a, 'a1', names);
        const a2 = await post(store, a, 'a2', names);
        await post(store, a, 'a3', names);
        const claim = async (policy: ClaimPolicy) => {
          const run = await store.runs.claimNextPending(T0, policy);
          return run && names.get(run.id);
        };
        assert.equal(await claim({ maxRunningPerContract: 1 }), 'a1');
        assert.equal(await claim({ maxRunningPerContract: 1, slotHolderRunIds: [] }), 'a2');
        assert.equal(await claim({ maxRunningPerContract: 1, slotHolderRunIds: [a2] }), undefined);
        assert.equal(await claim({ maxRunningPerContract: 2 }), undefined);
        assert.equal(await claim({ maxRunningPerContract: 2, slotHolderRunIds: [a2] }), 'a3');
      }),
    );

    test(
      'a pending run whose cancel was requested is never claimed',
      withStore(async (store) => {
        const names = new Map<number, string>();
        const a = await contractIn(store, 'a');
        const a1 = await post(store, a, 'a1', names);
        await post(store, a, 'a2', names);
        await store.runs.requestCancel(a1, T0);
        assert.deepEqual(await claimAll(store, names), ['a2']);
      }),
    );
  });

  describe(`${name}: accounts, sessions, audit`, () => {
    test(
      'a contract keeps an owner: the last one is neither demoted nor removed, also by two changes at once',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const owner = async (email: string) => {
          const invitation = await store.accounts.createInvitation(
            { contractId: a.contractId, email, role: 'owner', createdMicros: T0, expiresMicros: T0 + 9 },
            hash(email),
          );
          return (await store.accounts.acceptInvitation(invitation.id, 'scrypt$1', T0 + 1))!;
        };
        const first = await owner('one@example.com');
        const second = await owner('two@example.com');
        // Both demoted at once: one change goes through, the other finds the last owner.
        const outcomes = await Promise.allSettled([
          store.accounts.setRole(first.id, 'editor', T0 + 2),
          store.accounts.setRole(second.id, 'viewer', T0 + 2),
        ]);
        assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 1);
        const refused = outcomes.find((outcome) => outcome.status === 'rejected');
        assert.ok(refused?.status === 'rejected' && refused.reason instanceof LastOwnerError);
        const owners = (await store.accounts.list(a.contractId)).filter((one) => one.role === 'owner');
        assert.equal(owners.length, 1);
        const last = owners[0]!;
        await assert.rejects(store.accounts.remove(last.id), LastOwnerError);
        await assert.rejects(store.accounts.setRole(last.id, 'editor', T0 + 3), LastOwnerError);
        assert.equal((await store.accounts.get(last.id))?.role, 'owner', 'nothing changed');
        // With another owner, the first may go.
        const other = last.id === first.id ? second : first;
        assert.equal(await store.accounts.setRole(other.id, 'owner', T0 + 4), true);
        assert.equal(await store.accounts.remove(last.id), true);
      }),
    );

    test(
      'an invitation is accepted once and makes the account; accounts change and go with their sessions',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const invitation = await store.accounts.createInvitation(
          {
            contractId: a.contractId,
            email: 'ed@example.com',
            role: 'editor',
            createdMicros: T0,
            expiresMicros: T0 + 9,
          },
          hash('invite'),
        );
        assert.deepEqual(invitation, {
          id: invitation.id,
          contractId: a.contractId,
          email: 'ed@example.com',
          role: 'editor',
          createdMicros: T0,
          expiresMicros: T0 + 9,
          usedMicros: null,
        });
        assert.deepEqual(await store.accounts.findInvitation(hash('invite')), invitation);
        assert.equal(await store.accounts.findInvitation(hash('other')), undefined);
        const [account, again] = await Promise.all([
          store.accounts.acceptInvitation(invitation.id, 'scrypt$1', T0 + 1),
          store.accounts.acceptInvitation(invitation.id, 'scrypt$2', T0 + 1),
        ]);
        const made = account ?? again;
        assert.ok(made);
        assert.equal([account, again].filter((value) => value === undefined).length, 1);
        assert.deepEqual(made, {
          id: made.id,
          contractId: a.contractId,
          email: 'ed@example.com',
          role: 'editor',
          passwordHash: made.passwordHash,
          createdMicros: T0 + 1,
          updatedMicros: T0 + 1,
        });
        assert.equal((await store.accounts.findInvitation(hash('invite')))?.usedMicros, T0 + 1);
        assert.deepEqual(await store.accounts.findByEmail('ed@example.com'), made);
        assert.equal(await store.accounts.findByEmail('nobody@example.com'), undefined);
        assert.equal(await store.accounts.setPassword(made.id, 'scrypt$3', T0 + 2), true);
        assert.equal(await store.accounts.setRole(made.id, 'viewer', T0 + 3), true);
        assert.equal(await store.accounts.setRole(999, 'owner', T0 + 3), false);
        const read = await store.accounts.get(made.id);
        assert.deepEqual(
          [read?.passwordHash, read?.role, read?.updatedMicros],
          ['scrypt$3', 'viewer', T0 + 3],
        );
        assert.deepEqual(await store.accounts.list(a.contractId), [read]);
        assert.deepEqual(await store.accounts.list(999), []);
        const session = await store.sessions.create(
          {
            accountId: made.id,
            createdMicros: T0,
            lastSeenMicros: T0,
            expiresMicros: T0 + 100,
            userAgent: 'ua',
            address: '::1',
          },
          hash('sid'),
        );
        assert.equal(await store.accounts.remove(made.id), true);
        assert.equal(await store.accounts.remove(made.id), false);
        assert.equal(await store.accounts.get(made.id), undefined);
        assert.equal(await store.sessions.get(session.id), undefined);
      }),
    );

    test(
      'sessions: found by hash, active until revoked or past their end, revoked all but one',
      withStore(async (store) => {
        const a = await contractIn(store, 'a');
        const invitation = await store.accounts.createInvitation(
          {
            contractId: a.contractId,
            email: 'o@example.com',
            role: 'owner',
            createdMicros: T0,
            expiresMicros: T0 + 9,
          },
          hash('i'),
        );
        const account = (await store.accounts.acceptInvitation(invitation.id, 'scrypt$1', T0))!;
        const base = {
          accountId: account.id,
          createdMicros: T0,
          lastSeenMicros: T0,
          userAgent: 'ua',
          address: '::1',
        };
        const s1 = await store.sessions.create({ ...base, expiresMicros: T0 + 100 }, hash('s1'));
        const s2 = await store.sessions.create({ ...base, expiresMicros: T0 + 100 }, hash('s2'));
        const s3 = await store.sessions.create({ ...base, expiresMicros: T0 + 10 }, hash('s3'));
        assert.deepEqual(s1, { id: s1.id, ...base, expiresMicros: T0 + 100, revokedMicros: null });
        assert.deepEqual(await store.sessions.findByHash(hash('s1')), s1);
        assert.equal(await store.sessions.findByHash(hash('none')), undefined);
        assert.deepEqual(
          (await store.sessions.listActive(account.id, T0 + 20)).map((s) => s.id),
          [s1.id, s2.id],
        );
        await store.sessions.touch(s1.id, T0 + 5);
        assert.equal((await store.sessions.get(s1.id))?.lastSeenMicros, T0 + 5);
        assert.equal(await store.sessions.revoke(s2.id, T0 + 6), true);
        assert.equal(await store.sessions.revoke(s2.id, T0 + 6), false);
        assert.deepEqual(
          (await store.sessions.listActive(account.id, T0 + 7)).map((s) => s.id),
          [s1.id, s3.id],
        );
        assert.equal(await store.sessions.revokeAll(account.id, T0 + 8, s1.id), 1);
        assert.equal((await store.sessions.get(s3.id))?.revokedMicros, T0 + 8);
        assert.equal(await store.sessions.revokeAll(account.id, T0 + 9), 1);
        assert.deepEqual(await store.sessions.listActive(account.id, T0 + 9), []);
      }),
    );

    test(
      'operator sessions and the audit log',
      withStore(async (store) => {
        const base = {
          createdMicros: T0,
          lastSeenMicros: T0,
          expiresMicros: T0 + 100,
          userAgent: 'ua',
          address: '::1',
          tokenFingerprint: hash('token'),
        };
        const session = await store.operatorSessions.create(base, hash('op'));
        assert.deepEqual(session, { id: session.id, ...base, revokedMicros: null });
        const other = await store.operatorSessions.create(
          { ...base, tokenFingerprint: hash('rotated') },
          hash('other'),
        );
        assert.deepEqual(await store.operatorSessions.listActive(hash('token'), T0), [session]);
        assert.deepEqual(await store.operatorSessions.listActive(hash('rotated'), T0), [other]);
        assert.deepEqual(await store.operatorSessions.listActive(hash('token'), T0 + 100), []);
        assert.deepEqual(await store.operatorSessions.findByHash(hash('op')), session);
        assert.equal(await store.operatorSessions.findByHash(hash('none')), undefined);
        await store.operatorSessions.touch(session.id, T0 + 1);
        assert.equal((await store.operatorSessions.findByHash(hash('op')))?.lastSeenMicros, T0 + 1);
        assert.equal(await store.operatorSessions.revoke(session.id, T0 + 2), true);
        assert.equal(await store.operatorSessions.revoke(session.id, T0 + 2), false);
        assert.deepEqual(await store.operatorSessions.listActive(hash('token'), T0 + 2), []);

        const a = await contractIn(store, 'a');
        const entry = {
          atMicros: T0,
          contractId: a.contractId,
          servicegroupId: a.servicegroupId,
          actorKind: 'operator' as const,
          actorVia: 'admin-api',
          actorAccountId: null,
          actorEmail: null,
          action: 'create',
          resource: 'webhook',
          resourceId: 1,
        };
        await store.audit.append(entry);
        await store.audit.append({ ...entry, resourceId: 2 });
        await store.audit.append({ ...entry, contractId: null, servicegroupId: null, resourceId: 3 });
        const all = await store.audit.list({ limit: 10 });
        assert.deepEqual(
          all.map((e) => e.resourceId),
          [3, 2, 1],
        );
        assert.deepEqual(all[2], { id: all[2]!.id, ...entry });
        assert.deepEqual(
          (await store.audit.list({ contractId: a.contractId, limit: 10 })).map((e) => e.resourceId),
          [2, 1],
        );
        assert.deepEqual(
          (await store.audit.list({ beforeId: all[0]!.id, limit: 1 })).map((e) => e.resourceId),
          [2],
        );
      }),
    );
  });
}
