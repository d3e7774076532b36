/**
 * Schedule arithmetic against a controllable clock (microsecond numbers built from ISO strings):
 * each interval, exact slot boundaries, Tokyo, New York on its DST days and UTC, month-end
 * clamping, the catch-up rule and validation.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidInputError } from '../../src/domain/field-error.js';
import {
  dueSlot,
  latestSlotAtOrBefore,
  nextSlotAfter,
  type Schedule,
  validateSchedule,
} from '../../src/domain/schedule.js';

/** Microseconds since the epoch of an ISO instant. */
const us = (iso: string): number => Date.parse(iso) * 1000;
/** The ISO instant of microseconds, for readable assertions. */
const iso = (micros: number | undefined): string | undefined =>
  micros === undefined ? undefined : new Date(micros / 1000).toISOString();

const NY = 'America/New_York';
const TOKYO = 'Asia/Tokyo';
const UTC = 'UTC';

const hourly = (min: number): Schedule => ({ interval: 1, min });
const daily = (hour: number, min: number): Schedule => ({ interval: 2, hour, min });
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

/** [now (ISO, or micros when sub-millisecond precision matters), latest at or before, next after] */
type Row = [now: string | number, latest: string | undefined, next: string | undefined];
interface SlotGroup {
  name: string;
  schedule: Schedule;
  tz: string;
  rows: Row[];
}

const SLOT_GROUPS: SlotGroup[] = [
  {
    name: 'disabled',
    schedule: { interval: 0 },
    tz: UTC,
    rows: [['2026-05-10T10:20:00Z', undefined, undefined]],
  },
  {
    name: 'disabled with leftover fields',
    schedule: { interval: 0, min: 0, hour: 3, day_of_week: null },
    tz: NY,
    rows: [['2026-05-10T10:20:00Z', undefined, undefined]],
  },
  {
    name: 'hourly at :15, UTC',
    schedule: hourly(15),
    tz: UTC,
    rows: [
      ['2026-05-10T10:20:00Z', '2026-05-10T10:15:00.000Z', '2026-05-10T11:15:00.000Z'],
      ['2026-05-10T10:15:00Z', '2026-05-10T10:15:00.000Z', '2026-05-10T11:15:00.000Z'], // on the slot
      [us('2026-05-10T10:15:00Z') - 1, '2026-05-10T09:15:00.000Z', '2026-05-10T10:15:00.000Z'], // 1 µs before
      [us('2026-05-10T10:15:00Z') + 1, '2026-05-10T10:15:00.000Z', '2026-05-10T11:15:00.000Z'], // 1 µs after
    ],
  },
  {
    name: 'hourly at :45, UTC, across the year end',
    schedule: hourly(45),
    tz: UTC,
    rows: [['2026-12-31T23:50:00Z', '2026-12-31T23:45:00.000Z', '2027-01-01T00:45:00.000Z']],
  },
  {
    name: 'hourly at :00, Tokyo',
    schedule: hourly(0),
    tz: TOKYO,
    rows: [['2026-05-10T00:00:30Z', '2026-05-10T00:00:00.000Z', '2026-05-10T01:00:00.000Z']],
  },
  {
    // 2026-03-08: 02:00 EST becomes 03:00 EDT at 07:00Z, so 01:30 EST and 03:30 EDT are an hour apart.
    // 2026-11-01: 02:00 EDT becomes 01:00 EST at 06:00Z, so 01:30 happens at 05:30Z and at 06:30Z.
    name: 'hourly at :30, New York DST days',
    schedule: hourly(30),
    tz: NY,
    rows: [
      ['2026-03-08T07:00:00Z', '2026-03-08T06:30:00.000Z', '2026-03-08T07:30:00.000Z'],
      ['2026-11-01T05:30:00Z', '2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z'],
      ['2026-11-01T06:40:00Z', '2026-11-01T06:30:00.000Z', '2026-11-01T07:30:00.000Z'],
    ],
  },
  {
    name: 'daily 03:00, UTC',
    schedule: daily(3, 0),
    tz: UTC,
    rows: [
      ['2026-05-10T12:00:00Z', '2026-05-10T03:00:00.000Z', '2026-05-11T03:00:00.000Z'],
      ['2026-05-10T03:00:00Z', '2026-05-10T03:00:00.000Z', '2026-05-11T03:00:00.000Z'], // on the slot
      ['2026-05-10T02:59:59Z', '2026-05-09T03:00:00.000Z', '2026-05-10T03:00:00.000Z'],
    ],
  },
  {
    name: 'daily 09:30, Tokyo',
    schedule: daily(9, 30),
    tz: TOKYO,
    rows: [
      ['2026-05-10T00:30:00Z', '2026-05-10T00:30:00.000Z', '2026-05-11T00:30:00.000Z'], // on the slot
      ['2026-05-10T00:29:00Z', '2026-05-09T00:30:00.000Z', '2026-05-10T00:30:00.000Z'],
    ],
  },
  {
    name: 'daily 02:00, Tokyo, whose date is a day ahead of UTC',
    schedule: daily(2, 0),
    tz: TOKYO,
    rows: [['2026-05-10T16:00:00Z', '2026-05-09T17:00:00.000Z', '2026-05-10T17:00:00.000Z']],
  },
  {
    name: 'daily 02:30, New York: in the spring-forward gap it runs at 03:30 EDT',
    schedule: daily(2, 30),
    tz: NY,
    rows: [
      ['2026-03-08T06:59:00Z', '2026-03-07T07:30:00.000Z', '2026-03-08T07:30:00.000Z'],
      ['2026-03-08T07:30:00Z', '2026-03-08T07:30:00.000Z', '2026-03-09T06:30:00.000Z'], // on the slot
    ],
  },
  {
    name: 'daily 01:30, New York: on the fall-back day it runs once, at 01:30 EDT',
    schedule: daily(1, 30),
    tz: NY,
    rows: [
      ['2026-11-01T05:00:00Z', '2026-10-31T05:30:00.000Z', '2026-11-01T05:30:00.000Z'],
      ['2026-11-01T05:30:00Z', '2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z'], // on the slot
      ['2026-11-01T06:45:00Z', '2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z'], // 01:45 EST
    ],
  },
  {
    // 2026-05-10, 2026-03-08 and 2026-11-01 are Sundays.
    name: 'weekly Sunday (0) 10:00, UTC',
    schedule: weekly(0, 10, 0),
    tz: UTC,
    rows: [
      ['2026-05-13T00:00:00Z', '2026-05-10T10:00:00.000Z', '2026-05-17T10:00:00.000Z'], // Wednesday
      ['2026-05-10T09:59:00Z', '2026-05-03T10:00:00.000Z', '2026-05-10T10:00:00.000Z'],
      ['2026-05-10T10:00:00Z', '2026-05-10T10:00:00.000Z', '2026-05-17T10:00:00.000Z'], // on the slot
    ],
  },
  {
    name: 'weekly Saturday (6) 23:00, Tokyo',
    schedule: weekly(6, 23, 0),
    tz: TOKYO,
    rows: [['2026-05-16T15:00:00Z', '2026-05-16T14:00:00.000Z', '2026-05-23T14:00:00.000Z']],
  },
  {
    name: 'weekly Sunday 02:30, New York, on the spring-forward day',
    schedule: weekly(0, 2, 30),
    tz: NY,
    rows: [['2026-03-08T12:00:00Z', '2026-03-08T07:30:00.000Z', '2026-03-15T06:30:00.000Z']],
  },
  {
    name: 'weekly Sunday 01:30, New York, on the fall-back day',
    schedule: weekly(0, 1, 30),
    tz: NY,
    rows: [['2026-11-01T06:45:00Z', '2026-11-01T05:30:00.000Z', '2026-11-08T06:30:00.000Z']],
  },
  {
    name: 'monthly on the 31st 12:00, UTC: clamped to Feb 28, Feb 29 (2028) and Apr 30',
    schedule: monthly(31, 12, 0),
    tz: UTC,
    rows: [
      ['2026-02-15T00:00:00Z', '2026-01-31T12:00:00.000Z', '2026-02-28T12:00:00.000Z'],
      ['2026-02-28T12:00:00Z', '2026-02-28T12:00:00.000Z', '2026-03-31T12:00:00.000Z'], // on the slot
      ['2028-02-29T11:59:00Z', '2028-01-31T12:00:00.000Z', '2028-02-29T12:00:00.000Z'],
      ['2026-04-30T12:00:00Z', '2026-04-30T12:00:00.000Z', '2026-05-31T12:00:00.000Z'], // on the slot
      ['2026-05-01T00:00:00Z', '2026-04-30T12:00:00.000Z', '2026-05-31T12:00:00.000Z'],
    ],
  },
  {
    name: 'monthly on the 1st 00:00, Tokyo, a UTC day earlier',
    schedule: monthly(1, 0, 0),
    tz: TOKYO,
    rows: [['2026-05-31T15:00:00Z', '2026-05-31T15:00:00.000Z', '2026-06-30T15:00:00.000Z']],
  },
  {
    name: 'monthly on the 8th 02:30, New York, in the spring-forward gap',
    schedule: monthly(8, 2, 30),
    tz: NY,
    rows: [['2026-03-01T00:00:00Z', '2026-02-08T07:30:00.000Z', '2026-03-08T07:30:00.000Z']],
  },
];

describe('latestSlotAtOrBefore / nextSlotAfter', () => {
  for (const group of SLOT_GROUPS) {
    for (const [now, latest, next] of group.rows) {
      const nowMicros = typeof now === 'number' ? now : us(now);
      const label = typeof now === 'number' ? `${now} µs` : now;
      test(`${group.name}, at ${label}`, () => {
        assert.equal(iso(latestSlotAtOrBefore(group.schedule, nowMicros, group.tz)), latest, 'latest');
        assert.equal(iso(nextSlotAfter(group.schedule, nowMicros, group.tz)), next, 'next');
      });
    }
  }

  test('an unknown time zone is an error naming it', () => {
    assert.throws(
      () => latestSlotAtOrBefore(daily(3, 0), us('2026-05-10T00:00:00Z'), 'Mars/Olympus'),
      /Mars\/Olympus/,
    );
  });

  test('a schedule missing a field its interval needs is an error', () => {
    assert.throws(
      () => nextSlotAfter({ interval: 2, min: 0 }, us('2026-05-10T00:00:00Z'), UTC),
      InvalidInputError,
    );
  });
});

describe('dueSlot (catch-up)', () => {
  const cases: { name: string; schedule: Schedule; tz: string; now: string; last: number; due?: string }[] = [
    {
      name: 'downtime over 3 daily slots: one due slot, the latest',
      schedule: daily(3, 0),
      tz: UTC,
      now: '2026-05-04T12:00:00Z',
      last: us('2026-05-01T03:00:00Z'),
      due: '2026-05-04T03:00:00.000Z',
    },
    {
      name: 'nothing due when the last slot is the latest',
      schedule: daily(3, 0),
      tz: UTC,
      now: '2026-05-04T12:00:00Z',
      last: us('2026-05-04T03:00:00Z'),
    },
    {
      name: 'never run (last 0): the latest slot is due',
      schedule: daily(3, 0),
      tz: UTC,
      now: '2026-05-04T12:00:00Z',
      last: 0,
      due: '2026-05-04T03:00:00.000Z',
    },
    {
      name: 'fall-back: the repeated 01:30 is not due again',
      schedule: daily(1, 30),
      tz: NY,
      now: '2026-11-01T06:45:00Z',
      last: us('2026-11-01T05:30:00Z'),
    },
    {
      name: 'hourly across the spring-forward gap',
      schedule: hourly(30),
      tz: NY,
      now: '2026-03-08T07:45:00Z',
      last: us('2026-03-08T06:30:00Z'),
      due: '2026-03-08T07:30:00.000Z',
    },
    { name: 'disabled: never due', schedule: { interval: 0 }, tz: UTC, now: '2026-05-04T12:00:00Z', last: 0 },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.equal(iso(dueSlot(c.schedule, c.tz, us(c.now), c.last)), c.due);
    });
  }

  test('after handling a slot, nothing is due until the next slot passes', () => {
    const schedule = daily(3, 0);
    let last = us('2026-05-01T03:00:00Z');
    const steps: [now: string, due: string | undefined][] = [
      ['2026-05-04T12:00:00Z', '2026-05-04T03:00:00.000Z'],
      ['2026-05-04T12:00:01Z', undefined],
      ['2026-05-05T02:59:59Z', undefined],
      ['2026-05-05T03:00:00Z', '2026-05-05T03:00:00.000Z'],
      ['2026-05-05T03:01:00Z', undefined],
    ];
    for (const [now, expected] of steps) {
      const due = dueSlot(schedule, UTC, us(now), last);
      assert.equal(iso(due), expected, `at ${now}`);
      if (due !== undefined) last = due;
    }
  });
});

describe('validateSchedule', () => {
  const daily2 = /^is required for a daily schedule \(interval 2\)$/;
  const invalid: [name: string, input: unknown, fields: string[], reason?: RegExp][] = [
    ['daily without hour', { interval: 2, min: 0 }, ['schedule.hour'], daily2],
    ['daily with hour null', { interval: 2, min: 0, hour: null }, ['schedule.hour'], daily2],
    ['weekly without day_of_week', { interval: 3, min: 0, hour: 0 }, ['schedule.day_of_week'], /weekly/],
    ['monthly with nothing', { interval: 4 }, ['schedule.min', 'schedule.hour', 'schedule.day_of_month']],
    ['hourly without min', { interval: 1 }, ['schedule.min'], /hourly schedule \(interval 1\)/],
    ['min 60', { interval: 1, min: 60 }, ['schedule.min'], /59/],
    ['interval 5', { interval: 5 }, ['schedule.interval']],
    ['no interval', { min: 0 }, ['schedule.interval']],
    ['unknown field minute', { interval: 1, min: 0, minute: 5 }, ['schedule.minute']],
    ['day_of_month 0', { interval: 4, min: 0, hour: 0, day_of_month: 0 }, ['schedule.day_of_month']],
    ['day_of_week 7', { interval: 3, min: 0, hour: 0, day_of_week: 7 }, ['schedule.day_of_week']],
    ['not an object', 'daily', ['schedule']],
  ];
  for (const [name, input, fields, reason] of invalid) {
    test(`invalid: ${name}`, () => {
      const errors = validateSchedule(input);
      // TypeBox may report one field twice (a missing interval is "required" and "integer").
      assert.deepEqual([...new Set(errors.map((e) => e.field))], fields);
      if (reason) for (const e of errors) assert.match(e.reason, reason);
    });
  }

  test('the field prefix is the caller’s', () => {
    assert.deepEqual(validateSchedule({ interval: 2, min: 0 }, 'setting.schedule'), [
      { field: 'setting.schedule.hour', reason: 'is required for a daily schedule (interval 2)' },
    ]);
  });

  const valid: Schedule[] = [
    { interval: 0 },
    { interval: 0, min: null, hour: null, day_of_week: null, day_of_month: null },
    { interval: 1, min: 0 },
    { interval: 1, min: 59, hour: 5 },
    { interval: 2, min: 59, hour: 23 },
    { interval: 3, min: 0, hour: 0, day_of_week: 0, day_of_month: null },
    { interval: 3, min: 0, hour: 0, day_of_week: 6 },
    { interval: 4, min: 0, hour: 0, day_of_month: 1 },
    { interval: 4, min: 30, hour: 12, day_of_month: 31 },
  ];
  for (const schedule of valid) {
    test(`valid: ${JSON.stringify(schedule)}`, () => {
      assert.deepEqual(validateSchedule(schedule), []);
    });
  }
});
