/**
 * The scheduled crawler's use cases against a real SQLite record store and a clock the test
 * moves: which schedule slots start a run (and which are skipped or caught up), across the DST
 * changes of New York, on-demand runs, settings updates, run history, downloads by key, and the
 * separation of scheduled runs from the instant crawl API.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, describe, test } from 'node:test';
import { ArtifactFile, InvalidInputError, RunState } from '../../src/domain/index.js';
import type { InstantCrawlerSetting, Schedule } from '../../src/domain/schemas.js';
import type { RunDispatcher } from '../../src/worker/index.js';
import {
  ScheduledCrawlService,
  type ScheduleTickReport,
} from '../../src/usecases/scheduled-crawl-service.js';
import type {
  RunRecord,
  SearchServiceRecord,
  ServiceSettingInput,
  ServiceSettingRecord,
  RecordStore,
  TenantRef,
} from '../../src/store/index.js';
import { openTestRecordStore } from '../support/test-store.js';
import type { Clock } from '../../src/util/index.js';

const NY = 'America/New_York';
const MINUTE_US = 60_000_000;

/** Microseconds since the epoch of an ISO instant (with its offset). */
const us = (iso: string): number => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad instant in test: ${iso}`);
  return ms * 1000;
};
const iso = (micros: number): string => new Date(micros / 1000).toISOString();

const daily = (hour: number, min: number): Schedule => ({ interval: 2, hour, min });
const hourly = (min: number): Schedule => ({ interval: 1, min });
const weekly = (day_of_week: number, hour: number, min: number): Schedule => ({
  interval: 3,
  day_of_week,
  hour,
  min,
});
const monthly = (day_of_month: number, hour: number, min: number): Schedule => ({
  interval: 4,
  day_of_month,
  hour,
  min,
});

const CRAWL_SETTING: InstantCrawlerSetting = {
  seed_urls: ['https://www.example.com/'],
  documents_limit: 50,
  depth_limit: 3,
  user_agent: 'KumoTest/1.0',
};

/** A clock that says what the test set, nothing else. */
class TestClock implements Clock {
  micros: number;
  constructor(start: string) {
    this.micros = us(start);
  }
  set(instant: string): void {
    this.micros = us(instant);
  }
  nowMicros(): number {
    return this.micros;
  }
}

/** A dispatcher that records what the service asked of the worker pool. */
class RecordingDispatcher implements RunDispatcher {
  pendingNotices = 0;
  readonly cancelled: number[] = [];
  readonly ended: number[] = [];
  notifyPending(): void {
    this.pendingNotices += 1;
  }
  cancelRun(runId: number): void {
    this.cancelled.push(runId);
  }
  runEnded(runId: number): void {
    this.ended.push(runId);
  }
}

interface Fixture {
  store: RecordStore;
  /** The store's SQLite file (in the PostgreSQL pass, the name of its database): to open it again. */
  file: string;
  clock: TestClock;
  dispatcher: RecordingDispatcher;
  tenant: TenantRef;
  other: TenantRef;
  searchService: SearchServiceRecord;
  foreignSearchService: SearchServiceRecord;
  service: ScheduledCrawlService;
  input(schedule: Schedule, overrides?: Partial<ServiceSettingInput>): ServiceSettingInput;
  /** Moves the clock and runs the scheduler once. */
  tickAt(instant: string): Promise<ScheduleTickReport>;
  /** Marks a run finished now (as the worker pool does), with the artifacts given. */
  finish(run: RunRecord, state?: 2030 | 2040, artifacts?: RunRecord['artifacts']): Promise<void>;
}

const folders: string[] = [];
const stores: RecordStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A fresh store (tick looks at every setting of the store, so tests do not share one). */
async function fixture(start: string): Promise<Fixture> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-scheduled-'));
  folders.push(folder);
  const file = path.join(folder, 'service.db');
  const store = await openTestRecordStore(file);
  stores.push(store);
  const clock = new TestClock(start);
  const dispatcher = new RecordingDispatcher();
  const now = clock.nowMicros();
  const contract = await store.tenants.createContract('acme', now);
  const group = await store.tenants.createServiceGroup(contract.id, 'web', now);
  const tenant = { contractId: contract.id, servicegroupId: group.id };
  const otherContract = await store.tenants.createContract('globex', now);
  const otherGroup = await store.tenants.createServiceGroup(otherContract.id, 'web', now);
  const other = { contractId: otherContract.id, servicegroupId: otherGroup.id };
  const searchService = await store.searchServices.create(tenant, 'site', {}, now);
  const foreignSearchService = await store.searchServices.create(other, 'foreign', {}, now);
  const service = new ScheduledCrawlService(store, dispatcher, clock, NY);
  return {
    store,
    file,
    clock,
    dispatcher,
    tenant,
    other,
    searchService,
    foreignSearchService,
    service,
    input: (schedule, overrides = {}) => ({
      name: 'nightly',
      setting: CRAWL_SETTING,
      schedule,
      searchServiceId: searchService.id,
      ...overrides,
    }),
    tickAt(instant) {
      clock.set(instant);
      return service.tick();
    },
    async finish(run, state = RunState.stopped, artifacts = []) {
      await store.runs.finish(run.id, state, clock.nowMicros(), artifacts, 'x');
    },
  };
}

const DOWNLOAD_KEY = /^[A-Za-z0-9_-]{22,}$/;

describe('ScheduledCrawlService.tick: a daily 09:30 setting in New York', () => {
  test('starts one run at 09:30 and none before or after it', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    const setting = await f.service.create(f.tenant, f.input(daily(9, 30)));

    for (const early of ['2026-06-01T09:29:00-04:00', '2026-06-01T09:29:59.999-04:00']) {
      assert.deepEqual(await f.tickAt(early), { started: [], skipped: [] }, early);
    }
    assert.equal(f.dispatcher.pendingNotices, 0);

    const report = await f.tickAt('2026-06-01T09:30:00-04:00');
    assert.equal(report.started.length, 1);
    assert.deepEqual(report.skipped, []);
    const run = report.started[0]!;
    assert.equal(run.trigger, 'schedule');
    assert.equal(run.serviceSettingId, setting.id);
    assert.equal(run.state, RunState.pending);
    assert.equal(run.contractId, f.tenant.contractId);
    assert.equal(run.servicegroupId, f.tenant.servicegroupId);
    assert.match(run.downloadKey ?? '', DOWNLOAD_KEY);
    assert.deepEqual(run.setting, CRAWL_SETTING, 'the crawler setting is copied into the crawl request');
    assert.deepEqual(await f.store.runs.getRun(run.id), run, 'the run is stored as reported');
    assert.equal(f.dispatcher.pendingNotices, 1, 'the worker pool is told a run waits');

    assert.deepEqual(await f.tickAt('2026-06-01T09:30:30-04:00'), { started: [], skipped: [] });
    assert.deepEqual(await f.tickAt('2026-06-01T09:31:00-04:00'), { started: [], skipped: [] });
    assert.equal(f.dispatcher.pendingNotices, 1);
  });

  test('two schedulers on one database: each slot fires once, also when one restarts in the slot', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    await f.service.create(f.tenant, f.input(daily(9, 30)));
    // A second scheduler: another process with its own connection to the same records.
    const secondStore = await openTestRecordStore(f.file);
    const secondClock = new TestClock('2026-06-01T09:30:00-04:00');
    const second = new ScheduledCrawlService(secondStore, new RecordingDispatcher(), secondClock, NY);
    try {
      f.clock.set('2026-06-01T09:30:00-04:00');
      const reports = await Promise.all([f.service.tick(), second.tick(), f.service.tick(), second.tick()]);
      const started = reports.flatMap((report) => report.started);
      assert.equal(started.length, 1, 'one run for the slot');
      assert.deepEqual(
        reports.flatMap((report) => report.skipped),
        [],
      );
    } finally {
      await secondStore.close();
    }
    // The second one restarts within the slot: it finds the slot taken.
    const restartedStore = await openTestRecordStore(f.file);
    try {
      secondClock.set('2026-06-01T09:30:20-04:00');
      const restarted = new ScheduledCrawlService(restartedStore, new RecordingDispatcher(), secondClock, NY);
      assert.deepEqual(await restarted.tick(), { started: [], skipped: [] });
      const run = (await f.store.runs.listRuns(f.tenant, { limit: 10 }))[0]!;
      await f.finish(run);
      // The next day's slot fires once again, whichever scheduler looks first.
      f.clock.set('2026-06-02T09:30:00-04:00');
      secondClock.set('2026-06-02T09:30:00-04:00');
      const next = await Promise.all([restarted.tick(), f.service.tick()]);
      assert.equal(next.flatMap((report) => report.started).length, 1);
      assert.equal((await f.store.runs.listRuns(f.tenant, { limit: 10 })).length, 2);
    } finally {
      await restartedStore.close();
    }
  });

  test('never two at once: a slot that comes while the run is pending or running is skipped', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    const setting = await f.service.create(f.tenant, f.input(daily(9, 30)));
    const first = (await f.tickAt('2026-06-01T09:30:00-04:00')).started[0]!;

    // Still pending the next day.
    assert.deepEqual(await f.tickAt('2026-06-02T09:30:00-04:00'), {
      started: [],
      skipped: [{ settingId: setting.id, runId: first.id }],
    });
    // Running the day after.
    const claimed = await f.store.runs.claimNextPending(f.clock.nowMicros());
    assert.equal(claimed?.id, first.id);
    assert.deepEqual(await f.tickAt('2026-06-03T09:30:00-04:00'), {
      started: [],
      skipped: [{ settingId: setting.id, runId: first.id }],
    });
    assert.equal((await f.store.runs.activeRunOfSetting(setting.id))?.id, first.id);
    assert.equal(await f.store.runs.getRun(first.id + 1), undefined, 'no second run was created');
    assert.equal(f.dispatcher.pendingNotices, 1);

    // Finished: the skipped slot is not made up for; the next slot starts a new run.
    f.clock.set('2026-06-03T11:00:00-04:00');
    await f.finish(first);
    assert.deepEqual(await f.tickAt('2026-06-03T11:01:00-04:00'), { started: [], skipped: [] });
    assert.deepEqual(await f.tickAt('2026-06-04T09:29:00-04:00'), { started: [], skipped: [] });
    const next = await f.tickAt('2026-06-04T09:30:00-04:00');
    assert.equal(next.started.length, 1);
    assert.notEqual(next.started[0]!.id, first.id);
    assert.notEqual(next.started[0]!.downloadKey, first.downloadKey);
    assert.equal(f.dispatcher.pendingNotices, 2);
  });

  test('a run started on demand also makes the slot skip, and a scheduled run makes runNow busy', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    const setting = await f.service.create(f.tenant, f.input(daily(9, 30)));
    const manual = await f.service.runNow(setting);
    assert.equal(manual.kind, 'started');
    assert.deepEqual(await f.tickAt('2026-06-01T09:30:00-04:00'), {
      started: [],
      skipped: [{ settingId: setting.id, runId: manual.run.id }],
    });
    await f.finish(manual.run);
    const scheduled = (await f.tickAt('2026-06-02T09:30:00-04:00')).started[0]!;
    const busy = await f.service.runNow(setting);
    assert.equal(busy.kind, 'busy');
    assert.equal(busy.run.id, scheduled.id);
  });

  test('catch-up after downtime over several slots starts exactly one run', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    await f.service.create(f.tenant, f.input(daily(9, 30)));
    const first = (await f.tickAt('2026-06-01T09:30:00-04:00')).started[0]!;
    f.clock.set('2026-06-01T10:00:00-04:00');
    await f.finish(first);

    // Down from 10:00 on June 1st to noon on June 6th: five 09:30 slots passed.
    const catchUp = await f.tickAt('2026-06-06T12:00:00-04:00');
    assert.equal(catchUp.started.length, 1);
    assert.deepEqual(catchUp.skipped, []);
    assert.deepEqual(await f.tickAt('2026-06-06T12:00:00-04:00'), { started: [], skipped: [] });
    assert.deepEqual(await f.tickAt('2026-06-06T12:01:00-04:00'), { started: [], skipped: [] });
    await f.finish(catchUp.started[0]!);
    assert.deepEqual(await f.tickAt('2026-06-07T09:29:00-04:00'), { started: [], skipped: [] });
    assert.equal((await f.tickAt('2026-06-07T09:30:00-04:00')).started.length, 1);
  });

  test('several settings are ticked independently: one skipped does not hold up another', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    const busy = await f.service.create(f.tenant, f.input(daily(9, 30), { name: 'busy' }));
    const free = await f.service.create(f.tenant, f.input(daily(9, 30), { name: 'free' }));
    const first = await f.tickAt('2026-06-01T09:30:00-04:00');
    assert.deepEqual(
      first.started.map((run) => run.serviceSettingId),
      [busy.id, free.id],
    );
    await f.finish(first.started[1]!);
    const second = await f.tickAt('2026-06-02T09:30:00-04:00');
    assert.deepEqual(
      second.started.map((run) => run.serviceSettingId),
      [free.id],
    );
    assert.deepEqual(second.skipped, [{ settingId: busy.id, runId: first.started[0]!.id }]);
  });
});

describe('ScheduledCrawlService.tick across the DST changes of New York', () => {
  interface DstCase {
    name: string;
    schedule: Schedule;
    created: string;
    /** [instant, whether a run starts then]; every run is finished as soon as it started. */
    ticks: [string, boolean][];
  }
  const CASES: DstCase[] = [
    {
      name: 'hourly at :30 on 2026-03-08 (02:00 EST jumps to 03:00 EDT)',
      schedule: hourly(30),
      created: '2026-03-08T05:45:00Z', // 00:45 EST
      ticks: [
        ['2026-03-08T06:29:00Z', false],
        ['2026-03-08T06:30:00Z', true], // 01:30 EST
        ['2026-03-08T07:00:00Z', false], // 03:00 EDT
        ['2026-03-08T07:29:00Z', false],
        ['2026-03-08T07:30:00Z', true], // 03:30 EDT: one hour of real time later
        ['2026-03-08T08:29:00Z', false],
        ['2026-03-08T08:30:00Z', true],
      ],
    },
    {
      name: 'hourly at :30 on 2026-11-01 (the hour from 01:00 repeats)',
      schedule: hourly(30),
      created: '2026-11-01T04:45:00Z', // 00:45 EDT
      ticks: [
        ['2026-11-01T05:29:00Z', false],
        ['2026-11-01T05:30:00Z', true], // 01:30 EDT
        ['2026-11-01T06:29:00Z', false],
        ['2026-11-01T06:30:00Z', true], // 01:30 EST
        ['2026-11-01T07:29:00Z', false],
        ['2026-11-01T07:30:00Z', true], // 02:30 EST
      ],
    },
    {
      name: 'daily at 02:30, a time 2026-03-08 does not have: runs at 03:30 EDT that day',
      schedule: daily(2, 30),
      created: '2026-03-07T12:00:00Z',
      ticks: [
        ['2026-03-08T06:59:00Z', false], // 01:59 EST
        ['2026-03-08T07:29:00Z', false], // 03:29 EDT
        ['2026-03-08T07:30:00Z', true], // 03:30 EDT
        ['2026-03-08T12:00:00Z', false],
        ['2026-03-09T06:29:00Z', false],
        ['2026-03-09T06:30:00Z', true], // 02:30 EDT
      ],
    },
    {
      name: 'daily at 01:30, a time 2026-11-01 has twice: runs once, at the first',
      schedule: daily(1, 30),
      created: '2026-10-31T12:00:00Z',
      ticks: [
        ['2026-11-01T05:29:00Z', false],
        ['2026-11-01T05:30:00Z', true], // 01:30 EDT
        ['2026-11-01T06:30:00Z', false], // 01:30 EST
        ['2026-11-01T12:00:00Z', false],
        ['2026-11-02T06:29:00Z', false],
        ['2026-11-02T06:30:00Z', true], // 01:30 EST
      ],
    },
    {
      name: 'weekly on Sunday 09:30 over the spring change: 09:30 EDT, not 09:30 EST',
      schedule: weekly(0, 9, 30),
      created: '2026-03-02T12:00:00Z',
      ticks: [
        ['2026-03-08T13:29:00Z', false],
        ['2026-03-08T13:30:00Z', true], // 09:30 EDT
        ['2026-03-08T14:30:00Z', false], // seven times 24 hours after last Sunday's slot
        ['2026-03-14T13:30:00Z', false], // Saturday
        ['2026-03-15T13:29:00Z', false],
        ['2026-03-15T13:30:00Z', true],
      ],
    },
    {
      name: 'weekly on Sunday 09:30 over the autumn change: 09:30 EST',
      schedule: weekly(0, 9, 30),
      created: '2026-10-26T12:00:00Z',
      ticks: [
        ['2026-11-01T13:30:00Z', false], // 08:30 EST, a week of 24-hour days after 09:30 EDT
        ['2026-11-01T14:29:00Z', false],
        ['2026-11-01T14:30:00Z', true], // 09:30 EST
        ['2026-11-08T14:29:00Z', false],
        ['2026-11-08T14:30:00Z', true],
      ],
    },
    {
      name: 'monthly on the 31st: the last day of February, then March 31st after the spring change',
      schedule: monthly(31, 9, 30),
      created: '2026-02-01T12:00:00Z',
      ticks: [
        ['2026-02-28T14:29:00Z', false],
        ['2026-02-28T14:30:00Z', true], // 09:30 EST on the 28th
        ['2026-03-01T14:30:00Z', false],
        ['2026-03-30T13:30:00Z', false],
        ['2026-03-31T13:29:00Z', false],
        ['2026-03-31T13:30:00Z', true], // 09:30 EDT
        ['2026-04-01T13:30:00Z', false],
      ],
    },
    {
      name: 'monthly on the 1st at 01:30, on the day 01:30 repeats: once, at the first',
      schedule: monthly(1, 1, 30),
      created: '2026-10-15T12:00:00Z',
      ticks: [
        ['2026-11-01T05:29:00Z', false],
        ['2026-11-01T05:30:00Z', true], // 01:30 EDT
        ['2026-11-01T06:30:00Z', false], // 01:30 EST
        ['2026-11-30T12:00:00Z', false],
        ['2026-12-01T06:29:00Z', false],
        ['2026-12-01T06:30:00Z', true], // 01:30 EST
      ],
    },
  ];

  for (const { name, schedule, created, ticks } of CASES) {
    test(name, async () => {
      const f = await fixture(created);
      const setting = await f.service.create(f.tenant, f.input(schedule));
      for (const [instant, starts] of ticks) {
        const report = await f.tickAt(instant);
        assert.deepEqual(report.skipped, [], instant);
        assert.equal(
          report.started.length,
          starts ? 1 : 0,
          `${instant}: ${starts ? 'a run' : 'no run'} expected`,
        );
        for (const run of report.started) {
          assert.equal(run.serviceSettingId, setting.id);
          assert.equal(iso(run.createdMicros), new Date(instant).toISOString());
          await f.finish(run);
        }
      }
    });
  }
});

describe('ScheduledCrawlService: disabled settings and runNow', () => {
  test('a disabled setting never starts; runNow starts a manual run, and a second is busy', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    const setting = await f.service.create(f.tenant, f.input({ interval: 0 }));
    for (const instant of [
      '2026-06-01T09:30:00-04:00',
      '2026-06-02T00:00:00-04:00',
      '2026-07-01T00:00:00-04:00',
      '2027-06-01T00:00:00-04:00',
    ]) {
      assert.deepEqual(await f.tickAt(instant), { started: [], skipped: [] }, instant);
    }
    assert.equal(f.dispatcher.pendingNotices, 0);

    const started = await f.service.runNow(setting);
    assert.equal(started.kind, 'started');
    assert.equal(started.run.trigger, 'manual');
    assert.equal(started.run.serviceSettingId, setting.id);
    assert.equal(started.run.state, RunState.pending);
    assert.match(started.run.downloadKey ?? '', DOWNLOAD_KEY);
    assert.deepEqual(started.run.setting, CRAWL_SETTING);
    assert.equal(f.dispatcher.pendingNotices, 1);

    const busy = await f.service.runNow(setting);
    assert.equal(busy.kind, 'busy');
    assert.equal(busy.run.id, started.run.id);
    assert.equal(f.dispatcher.pendingNotices, 1, 'nothing new to claim');
    assert.equal(await f.store.runs.getRun(started.run.id + 1), undefined);

    // Running is busy too; finished, runNow starts again.
    await f.store.runs.claimNextPending(f.clock.nowMicros());
    assert.equal((await f.service.runNow(setting)).kind, 'busy');
    await f.finish(started.run);
    const again = await f.service.runNow(setting);
    assert.equal(again.kind, 'started');
    assert.notEqual(again.run.id, started.run.id);
    assert.notEqual(again.run.downloadKey, started.run.downloadKey);
  });
});

describe('ScheduledCrawlService: create, get, update and delete', () => {
  test('a paused schedule starts nothing; resumed, it runs from its next slot, not the ones missed', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    const setting = await f.service.create(f.tenant, f.input(daily(9, 30)));
    const paused = await f.service.pause(setting);
    assert.equal(paused.pausedMicros, us('2026-06-01T08:00:00-04:00'));
    assert.equal(
      (await f.service.pause(paused)).pausedMicros,
      paused.pausedMicros,
      'pausing again keeps the time',
    );
    for (const instant of [
      '2026-06-01T09:30:00-04:00',
      '2026-06-02T09:30:00-04:00',
      '2026-06-03T10:00:00-04:00',
    ]) {
      assert.deepEqual(await f.tickAt(instant), { started: [], skipped: [] }, instant);
    }
    // Run now still works while paused.
    const manual = await f.service.runNow(paused);
    assert.equal(manual.kind, 'started');
    await f.finish(manual.run);

    const resumed = await f.service.resume((await f.service.get(f.tenant, setting.id))!);
    assert.equal(resumed.pausedMicros, null);
    // 06-03 09:30 passed while paused: it does not run as a catch-up.
    assert.deepEqual(await f.tickAt('2026-06-03T10:01:00-04:00'), {
      started: [],
      skipped: [],
    });
    assert.deepEqual(await f.tickAt('2026-06-04T09:29:00-04:00'), {
      started: [],
      skipped: [],
    });
    const next = await f.tickAt('2026-06-04T09:30:00-04:00');
    assert.equal(next.started.length, 1);
    assert.equal(next.started[0]!.trigger, 'schedule');
  });

  test('an update that changes the schedule starts no run for slots before the change', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    const setting = await f.service.create(f.tenant, f.input(daily(9, 30)));
    // 10:00: the 09:30 slot passed without a tick (the scheduler was busy or down).
    f.clock.set('2026-06-01T10:00:00-04:00');
    const updated = await f.service.update(setting, f.input(daily(9, 45)));
    assert.deepEqual(updated.schedule, daily(9, 45));
    assert.deepEqual(await f.tickAt('2026-06-01T10:00:00-04:00'), { started: [], skipped: [] });
    assert.deepEqual(await f.tickAt('2026-06-02T09:44:00-04:00'), { started: [], skipped: [] });
    assert.equal((await f.tickAt('2026-06-02T09:45:00-04:00')).started.length, 1);
  });

  test('an update that keeps the schedule keeps its pending slot, and later runs copy the new setting', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    const setting = await f.service.create(f.tenant, f.input(daily(9, 30)));
    f.clock.set('2026-06-01T10:00:00-04:00');
    const newSetting = { ...CRAWL_SETTING, seed_urls: ['https://docs.example.com/'] };
    await f.service.update(setting, f.input(daily(9, 30), { name: 'renamed', setting: newSetting }));
    const report = await f.tickAt('2026-06-01T10:00:00-04:00');
    assert.equal(report.started.length, 1, 'the 09:30 slot still runs');
    const run = report.started[0]!;
    assert.deepEqual(run.setting, newSetting);

    // Changing the setting again does not change the copy the run was started with.
    await f.service.update((await f.service.get(f.tenant, setting.id))!, f.input(daily(9, 30)));
    assert.deepEqual((await f.store.runs.getRun(run.id))!.setting, newSetting);
  });

  test('a search service of another tenant (or none) is refused, naming service_id', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    for (const searchServiceId of [f.foreignSearchService.id, 9999]) {
      await assert.rejects(
        () => f.service.create(f.tenant, f.input(daily(9, 30), { searchServiceId })),
        (error: unknown) => {
          assert.ok(error instanceof InvalidInputError);
          assert.deepEqual(
            error.errors.map((e) => e.field),
            ['service_id'],
          );
          return true;
        },
        `search service ${searchServiceId}`,
      );
    }
    assert.deepEqual(await f.service.list(f.tenant), [], 'nothing was created');

    const setting = await f.service.create(f.tenant, f.input(daily(9, 30)));
    await assert.rejects(
      () => f.service.update(setting, f.input(daily(9, 30), { searchServiceId: f.foreignSearchService.id })),
      InvalidInputError,
    );
    assert.equal((await f.service.get(f.tenant, setting.id))!.searchServiceId, f.searchService.id);
    // Crawl only: no search service.
    const crawlOnly = await f.service.create(f.tenant, f.input(daily(9, 30), { searchServiceId: null }));
    assert.equal(crawlOnly.searchServiceId, null);
  });

  test('get answers only the owning tenant', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    const setting = await f.service.create(f.tenant, f.input(daily(9, 30)));
    assert.equal((await f.service.get(f.tenant, setting.id))?.id, setting.id);
    assert.equal(await f.service.get(f.other, setting.id), undefined);
    assert.equal(
      await f.service.get({ ...f.tenant, servicegroupId: f.other.servicegroupId }, setting.id),
      undefined,
    );
    assert.equal(await f.service.get(f.tenant, setting.id + 100), undefined);
  });

  test('delete cancels the run in progress, keeps its history and stops the schedule', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    const runningSetting = await f.service.create(f.tenant, f.input(daily(9, 30), { name: 'running' }));
    const pendingSetting = await f.service.create(f.tenant, f.input(daily(9, 30), { name: 'pending' }));
    const [running, pending] = (await f.tickAt('2026-06-01T09:30:00-04:00')).started;
    // The worker pool claims the oldest pending run: the first setting's.
    assert.equal((await f.store.runs.claimNextPending(f.clock.nowMicros()))?.id, running!.id);

    f.clock.set('2026-06-01T09:40:00-04:00');
    await f.service.delete(pendingSetting);
    await f.service.delete(runningSetting);

    const cancelled = (await f.store.runs.getRun(pending!.id))!;
    assert.equal(cancelled.state, RunState.stoppedByCancel, 'a pending run ends at once');
    assert.deepEqual(f.dispatcher.ended, [pending!.id], 'the end of the pending run is announced (webhooks)');
    assert.deepEqual(f.dispatcher.cancelled, [running!.id], 'a running run is stopped by its worker');
    assert.equal((await f.store.runs.getRun(running!.id))!.isCancelRequest, true);
    assert.equal(await f.service.get(f.tenant, pendingSetting.id), undefined);
    assert.equal(await f.service.get(f.tenant, runningSetting.id), undefined);
    assert.deepEqual(await f.service.list(f.tenant), []);
    assert.deepEqual(await f.tickAt('2026-06-02T09:30:00-04:00'), { started: [], skipped: [] });
    // Its runs stay: the cancelled one is history.
    assert.deepEqual(
      (await f.service.histories(pendingSetting, 0, f.clock.nowMicros())).map((run) => run.id),
      [pending!.id],
    );
  });
});

describe('ScheduledCrawlService: histories and downloads', () => {
  /** A run of the setting started on demand at `start`, claimed, and finished five minutes later. */
  async function finishedRun(
    f: Fixture,
    setting: ServiceSettingRecord,
    start: string,
    state: 2030 | 2040 = RunState.stopped,
  ): Promise<RunRecord> {
    f.clock.set(start);
    const started = await f.service.runNow(setting);
    assert.equal(started.kind, 'started');
    assert.equal((await f.store.runs.claimNextPending(f.clock.nowMicros()))?.id, started.run.id);
    f.clock.micros += 5 * MINUTE_US;
    await f.finish(
      started.run,
      state,
      state === RunState.stopped ? [ArtifactFile.objects, ArtifactFile.urlList] : [],
    );
    return (await f.store.runs.getRun(started.run.id))!;
  }

  test('histories: at most 5 finished runs in the range, newest first, running ones left out', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    const setting = await f.service.create(f.tenant, f.input({ interval: 0 }));
    const neighbour = await f.service.create(f.tenant, f.input({ interval: 0 }, { name: 'neighbour' }));
    const runs: RunRecord[] = [];
    for (const day of [1, 2, 3, 4, 5, 6, 7]) {
      runs.push(
        await finishedRun(
          f,
          setting,
          `2026-06-0${day}T10:00:00-04:00`,
          day === 4 ? RunState.troubled : RunState.stopped,
        ),
      );
    }
    await finishedRun(f, neighbour, '2026-06-05T12:00:00-04:00');
    f.clock.set('2026-06-08T10:00:00-04:00');
    const running = (await f.service.runNow(setting)).run;
    await f.store.runs.claimNextPending(f.clock.nowMicros());

    const ids = (list: RunRecord[]) => list.map((run) => run.id);
    const whole = await f.service.histories(
      setting,
      us('2026-06-01T00:00:00-04:00'),
      us('2026-06-30T00:00:00-04:00'),
    );
    assert.deepEqual(ids(whole), ids(runs.slice(2).reverse()), 'the latest five, newest first');
    assert.ok(whole.every((run) => run.serviceSettingId === setting.id));
    assert.ok(!ids(whole).includes(running.id));

    assert.deepEqual(
      ids(
        await f.service.histories(setting, us('2026-06-02T00:00:00-04:00'), us('2026-06-04T23:59:59-04:00')),
      ),
      [runs[3]!.id, runs[2]!.id, runs[1]!.id],
      'a troubled run is a finished run',
    );
    // Bounds are inclusive, on the start time.
    assert.deepEqual(ids(await f.service.histories(setting, runs[0]!.startMicros!, runs[0]!.startMicros!)), [
      runs[0]!.id,
    ]);
    assert.deepEqual(
      await f.service.histories(setting, us('2026-06-08T00:00:00-04:00'), us('2026-06-09T00:00:00-04:00')),
      [],
      'the running run is not history yet',
    );
    assert.deepEqual(
      await f.service.histories(setting, us('2026-05-01T00:00:00-04:00'), us('2026-05-31T00:00:00-04:00')),
      [],
    );
  });

  test('lookupDownload by downloadKey: ready when finished, not_found otherwise, gone after retention', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    const setting = await f.service.create(f.tenant, f.input({ interval: 0 }));
    const done = await finishedRun(f, setting, '2026-06-01T10:00:00-04:00');
    const key = done.downloadKey!;

    const ready = await f.service.lookupDownload(key, ArtifactFile.objects);
    assert.equal(ready.kind, 'ready');
    assert.equal(ready.kind === 'ready' && ready.run.id, done.id);
    assert.equal(ready.kind === 'ready' && ready.file, ArtifactFile.objects);
    assert.equal((await f.service.lookupDownload(key, ArtifactFile.urlList)).kind, 'ready');

    assert.equal(
      (await f.service.lookupDownload(key, ArtifactFile.linkList)).kind,
      'not_found',
      'not produced',
    );
    assert.equal(
      (await f.service.lookupDownload(key, 'meta.json')).kind,
      'not_found',
      'not an artifact name',
    );
    assert.equal((await f.service.lookupDownload('A'.repeat(32), ArtifactFile.objects)).kind, 'not_found');
    assert.equal((await f.service.lookupDownload('', ArtifactFile.objects)).kind, 'not_found');

    f.clock.set('2026-06-02T10:00:00-04:00');
    const active = (await f.service.runNow(setting)).run;
    assert.equal(
      (await f.service.lookupDownload(active.downloadKey!, ArtifactFile.objects)).kind,
      'not_found',
    );
    await f.store.runs.claimNextPending(f.clock.nowMicros());
    assert.equal(
      (await f.service.lookupDownload(active.downloadKey!, ArtifactFile.objects)).kind,
      'not_found',
    );

    await f.store.runs.markArtifactsDeleted(done.id, f.clock.nowMicros());
    assert.deepEqual(await f.service.lookupDownload(key, ArtifactFile.objects), { kind: 'gone' });
  });
});

describe('scheduled runs stay out of the instant crawl API', () => {
  test('listHistory, listActive and getByRequest see instant runs only', async () => {
    const f = await fixture('2026-06-01T08:00:00-04:00');
    const one = await f.service.create(f.tenant, f.input(daily(9, 30), { name: 'one' }));
    const two = await f.service.create(f.tenant, f.input({ interval: 0 }, { name: 'two' }));

    f.clock.set('2026-06-01T09:00:00-04:00');
    const instantDone = await f.store.runs.createInstantRun(f.tenant, CRAWL_SETTING, f.clock.nowMicros());
    await f.finish(instantDone);
    const manualDone = (await f.service.runNow(two)).run;
    await f.finish(manualDone);
    const scheduledActive = (await f.tickAt('2026-06-01T09:30:00-04:00')).started[0]!;
    assert.equal(scheduledActive.serviceSettingId, one.id);
    const manualActive = (await f.service.runNow(two)).run;
    const instantActive = await f.store.runs.createInstantRun(f.tenant, CRAWL_SETTING, f.clock.nowMicros());

    const ids = (list: RunRecord[]) => list.map((run) => run.id);
    assert.deepEqual(ids(await f.store.runs.listHistory(f.tenant, { limit: 10 })), [instantDone.id]);
    assert.deepEqual(ids(await f.store.runs.listActive(f.tenant)), [instantActive.id]);
    assert.deepEqual(
      await f.store.runs.listActive(f.tenant, [scheduledActive.requestId, manualActive.requestId]),
      [],
    );
    for (const scheduled of [manualDone, scheduledActive, manualActive]) {
      assert.equal(await f.store.runs.getByRequest(f.tenant, scheduled.requestId), undefined);
      assert.deepEqual(
        await f.store.runs.listHistory(f.tenant, { limit: 10, requestId: scheduled.requestId }),
        [],
      );
    }
    assert.equal((await f.store.runs.getByRequest(f.tenant, instantDone.requestId))?.id, instantDone.id);
    assert.equal(instantDone.trigger, 'api');
    assert.equal(instantDone.serviceSettingId, null);
    assert.equal(instantDone.downloadKey, null);
  });
});
