/**
 * The schedule of a scheduled crawl (a crawl service setting) and its time arithmetic.
 *
 * Slots are wall-clock times in the service time zone, so "daily at 09:00" stays 09:00 across
 * DST changes. Two DST choices, both so that every schedule runs exactly once per period:
 * - a wall time that does not exist (spring-forward gap, 02:30 on 2026-03-08 in New York) runs
 *   at the time luxon shifts it to (03:30 EDT) rather than being skipped that day;
 * - a wall time that occurs twice (fall-back, 01:30 on 2026-11-01 in New York) runs once, at the
 *   first occurrence (EDT), rather than twice.
 * Hourly slots are the instants whose local minute is `min`: during fall-back the repeated local
 * hour gives two slots an hour apart, which is right since they are distinct hours of real time.
 *
 * Times are microseconds since the epoch, as elsewhere in the service; slots are whole minutes.
 */
import { type Static, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { DateTime, DurationLike } from 'luxon';
import { luxon } from '../util/index.js';
import { type FieldError, InvalidInputError } from './field-error.js';
import { schemaFieldErrors } from './schema-errors.js';

const field = (minimum: number, maximum: number, description: string) =>
  Type.Optional(
    Type.Union([Type.Integer({ minimum, maximum }), Type.Null()], {
      description,
    }),
  );

export const ScheduleSchema = Type.Object(
  {
    interval: Type.Integer({
      minimum: 0,
      maximum: 4,
      description: '0 = disabled; 1 = hourly; 2 = daily; 3 = weekly; 4 = monthly',
    }),
    min: field(0, 59, 'minute of the hour (every interval but 0)'),
    hour: field(0, 23, 'hour of the day (daily, weekly, monthly)'),
    day_of_week: field(0, 6, 'day of the week, 0 = Sunday .. 6 = Saturday (weekly)'),
    day_of_month: field(1, 31, "day of the month, clamped to the month's last day (monthly)"),
  },
  {
    additionalProperties: false,
    description: 'when a scheduled crawl runs, as wall-clock time in the service time zone',
  },
);

export type Schedule = Static<typeof ScheduleSchema>;

const compiled = TypeCompiler.Compile(ScheduleSchema);

/** The fields each interval needs, and its name in error reasons. */
const NEEDS: Record<number, { name: string; fields: (keyof Schedule)[] }> = {
  1: { name: 'hourly', fields: ['min'] },
  2: { name: 'daily', fields: ['min', 'hour'] },
  3: { name: 'weekly', fields: ['min', 'hour', 'day_of_week'] },
  4: { name: 'monthly', fields: ['min', 'hour', 'day_of_month'] },
};

/** Validates a schedule outside the HTTP layer: the schema, then the rules it cannot express. */
export function validateSchedule(input: unknown, fieldPrefix = 'schedule'): FieldError[] {
  const errors = schemaFieldErrors(compiled, input, fieldPrefix);
  if (errors.length > 0) return errors;
  return checkSchedule(input as Schedule, fieldPrefix);
}

/** The fields the interval uses must be present: the schema allows null for all of them. */
export function checkSchedule(schedule: Schedule, fieldPrefix = 'schedule'): FieldError[] {
  const needs = NEEDS[schedule.interval];
  if (!needs) return [];
  return needs.fields
    .filter((key) => schedule[key] == null)
    .map((key) => ({
      field: `${fieldPrefix}.${key}`,
      reason: `is required for a ${needs.name} schedule (interval ${schedule.interval})`,
    }));
}

/** The start of the most recent slot at or before `nowMicros`; undefined when disabled. */
export function latestSlotAtOrBefore(
  schedule: Schedule,
  nowMicros: number,
  timezone: string,
): number | undefined {
  const nowMs = Math.floor(nowMicros / 1000);
  const slot = slots(schedule, nowMs, timezone, -1, (ms) => ms <= nowMs);
  return slot === undefined ? undefined : slot * 1000;
}

/** The start of the first slot strictly after `afterMicros`; undefined when disabled. */
export function nextSlotAfter(schedule: Schedule, afterMicros: number, timezone: string): number | undefined {
  // Slots are whole milliseconds, so "after the micros" is "after their floor in ms".
  const afterMs = Math.floor(afterMicros / 1000);
  const slot = slots(schedule, afterMs, timezone, 1, (ms) => ms > afterMs);
  return slot === undefined ? undefined : slot * 1000;
}

/**
 * The slot to run now, if any: the latest slot at or before now when it is later than the last
 * slot handled. After downtime over several slots only the latest is due, so a service that was
 * down for a week runs a daily crawl once, not seven times.
 */
export function dueSlot(
  schedule: Schedule,
  timezone: string,
  nowMicros: number,
  lastSlotMicros: number,
): number | undefined {
  const latest = latestSlotAtOrBefore(schedule, nowMicros, timezone);
  return latest !== undefined && latest > lastSlotMicros ? latest : undefined;
}

/**
 * The first slot (in ms) that `accepts`, searching from the period containing `fromMs` in
 * `direction`. Slots increase with their period, so the search ends within a period or two.
 */
function slots(
  schedule: Schedule,
  fromMs: number,
  timezone: string,
  direction: 1 | -1,
  accepts: (ms: number) => boolean,
): number | undefined {
  if (schedule.interval === 0) return undefined;
  const errors = checkSchedule(schedule);
  if (errors.length > 0) throw new InvalidInputError(errors);
  const local = luxon().DateTime.fromMillis(fromMs, { zone: timezone });
  if (!local.isValid) throw new Error(`unknown time zone "${timezone}"`);
  const min = schedule.min ?? 0;
  if (schedule.interval === 1) return hourly(min, fromMs, timezone, direction, accepts);

  const hour = schedule.hour ?? 0;
  const at = (day: DateTime) => wallTime(day, hour, min);
  let period: DateTime = local.startOf('day');
  let step: DurationLike = { days: 1 };
  let slotIn = at;
  if (schedule.interval === 3) {
    // luxon's weekday is 1 = Monday .. 7 = Sunday; ours is 0 = Sunday .. 6 = Saturday.
    period = period.minus({
      days: (period.weekday - (schedule.day_of_week ?? 0) + 7) % 7,
    });
    step = { weeks: 1 };
  } else if (schedule.interval === 4) {
    const dayOfMonth = schedule.day_of_month ?? 1;
    period = local.startOf('month');
    step = { months: 1 };
    slotIn = (month) => at(month.set({ day: Math.min(dayOfMonth, month.daysInMonth ?? 28) }));
  }
  for (let i = 0; i < 4; i++) {
    const slot = slotIn(period);
    if (accepts(slot)) return slot;
    period = direction === 1 ? period.plus(step) : period.minus(step);
  }
  throw new Error(`no slot found near ${new Date(fromMs).toISOString()} in ${timezone}`);
}

/**
 * `hour`:`min` on the day of `day`, in ms. luxon moves a time in a spring-forward gap forward by
 * the gap and gives the later of a repeated time; we want the earlier, so take the first.
 */
function wallTime(day: DateTime, hour: number, minute: number): number {
  const time = luxon().DateTime.fromObject(
    { year: day.year, month: day.month, day: day.day, hour, minute },
    { zone: day.zone },
  );
  if (!time.isValid) throw new Error(`invalid schedule time ${hour}:${minute}`);
  return Math.min(...time.getPossibleOffsets().map((t) => t.toMillis()));
}

/**
 * The first whole minute from `fromMs` in `direction` whose local minute is `min`. Moving by the
 * difference in minutes lands there unless an offset change (such as a half-hour one) lies in
 * between, hence the loop.
 */
function hourly(
  min: number,
  fromMs: number,
  timezone: string,
  direction: 1 | -1,
  accepts: (ms: number) => boolean,
): number {
  const MINUTE = 60_000;
  let ms = Math.floor(fromMs / MINUTE) * MINUTE;
  if (!accepts(ms)) ms += direction * MINUTE;
  for (let i = 0; i < 4; i++) {
    const minute = luxon().DateTime.fromMillis(ms, { zone: timezone }).minute;
    const minutes = direction === 1 ? (min - minute + 60) % 60 : (minute - min + 60) % 60;
    if (minutes === 0) return ms;
    ms += direction * minutes * MINUTE;
  }
  throw new Error(`no hourly slot found near ${new Date(fromMs).toISOString()} in ${timezone}`);
}
