/**
 * Timestamp formats (docs/reference/conventions.md, Timestamps and Query datetimes): API
 * `yyyy-MM-ddTHH:mm:ss.SSSSSS+NN:NN`, CSV crawl_datetime `...+NNNN`, and query datetimes
 * `yyyy-MM-ddTHH:mm:ss+NN:NN`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatApiTimestamp, formatCsvTimestamp, parseQueryDatetime } from '../../src/util/timestamps.js';

/** Epoch microseconds of a UTC wall time plus a microsecond fraction. */
function micros(iso: string, fraction = 0): number {
  return Date.parse(iso) * 1000 + fraction;
}

describe('formatApiTimestamp / formatCsvTimestamp', () => {
  const cases: { name: string; at: number; zone: string; api: string; csv: string }[] = [
    {
      name: 'UTC with microseconds',
      at: micros('2026-11-22T07:15:30Z', 123456),
      zone: 'UTC',
      api: '2026-11-22T07:15:30.123456+00:00',
      csv: '2026-11-22T07:15:30.123456+0000',
    },
    {
      name: 'Asia/Tokyo with microseconds',
      at: micros('2026-11-22T07:15:30Z', 123456),
      zone: 'Asia/Tokyo',
      api: '2026-11-22T16:15:30.123456+09:00',
      csv: '2026-11-22T16:15:30.123456+0900',
    },
    {
      name: 'leading zeros of the fraction kept',
      at: micros('2026-01-02T03:04:05Z', 7),
      zone: 'Asia/Tokyo',
      api: '2026-01-02T12:04:05.000007+09:00',
      csv: '2026-01-02T12:04:05.000007+0900',
    },
    {
      name: 'whole second',
      at: micros('2026-01-02T03:04:05Z'),
      zone: 'UTC',
      api: '2026-01-02T03:04:05.000000+00:00',
      csv: '2026-01-02T03:04:05.000000+0000',
    },
    {
      name: 'last microsecond of a second',
      at: micros('2026-01-02T03:04:05Z', 999999),
      zone: 'UTC',
      api: '2026-01-02T03:04:05.999999+00:00',
      csv: '2026-01-02T03:04:05.999999+0000',
    },
    {
      name: 'Tokyo crosses into the next year',
      at: micros('2026-12-31T20:00:00Z', 500000),
      zone: 'Asia/Tokyo',
      api: '2027-01-01T05:00:00.500000+09:00',
      csv: '2027-01-01T05:00:00.500000+0900',
    },
    {
      name: 'negative offset (New York, winter)',
      at: micros('2026-01-15T12:00:00Z', 1),
      zone: 'America/New_York',
      api: '2026-01-15T07:00:00.000001-05:00',
      csv: '2026-01-15T07:00:00.000001-0500',
    },
    {
      name: 'daylight saving time (New York, summer)',
      at: micros('2026-07-15T12:00:00Z'),
      zone: 'America/New_York',
      api: '2026-07-15T08:00:00.000000-04:00',
      csv: '2026-07-15T08:00:00.000000-0400',
    },
    {
      name: 'last moment before the fall-back transition',
      at: micros('2026-11-01T05:59:59Z', 999999),
      zone: 'America/New_York',
      api: '2026-11-01T01:59:59.999999-04:00',
      csv: '2026-11-01T01:59:59.999999-0400',
    },
    {
      name: 'first moment after the fall-back transition',
      at: micros('2026-11-01T06:00:00Z'),
      zone: 'America/New_York',
      api: '2026-11-01T01:00:00.000000-05:00',
      csv: '2026-11-01T01:00:00.000000-0500',
    },
    {
      name: 'half-hour offset',
      at: micros('2026-03-01T00:00:00Z', 250000),
      zone: 'Asia/Kolkata',
      api: '2026-03-01T05:30:00.250000+05:30',
      csv: '2026-03-01T05:30:00.250000+0530',
    },
    {
      name: 'quarter-hour offset',
      at: micros('2026-03-01T00:00:00Z'),
      zone: 'Asia/Kathmandu',
      api: '2026-03-01T05:45:00.000000+05:45',
      csv: '2026-03-01T05:45:00.000000+0545',
    },
    {
      name: 'before the epoch',
      at: -1,
      zone: 'UTC',
      api: '1969-12-31T23:59:59.999999+00:00',
      csv: '1969-12-31T23:59:59.999999+0000',
    },
  ];
  for (const { name, at, zone, api, csv } of cases) {
    test(`${name}: API`, () => {
      assert.equal(formatApiTimestamp(at, zone), api);
    });
    test(`${name}: CSV`, () => {
      assert.equal(formatCsvTimestamp(at, zone), csv);
    });
  }

  test('API and CSV formats match the documented patterns', () => {
    const now = Date.now() * 1000 + 321;
    assert.match(
      formatApiTimestamp(now, 'Asia/Tokyo'),
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+09:00$/,
    );
    assert.match(formatCsvTimestamp(now, 'Asia/Tokyo'), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+0900$/);
  });
});

describe('parseQueryDatetime', () => {
  const valid: { raw: string; iso: string }[] = [
    { raw: '2026-11-22T16:15:30+09:00', iso: '2026-11-22T07:15:30Z' },
    { raw: '2026-11-22T07:15:30+00:00', iso: '2026-11-22T07:15:30Z' },
    { raw: '2026-11-22T16:15:30-05:00', iso: '2026-11-22T21:15:30Z' },
    { raw: '2026-01-01T05:00:00+09:00', iso: '2025-12-31T20:00:00Z' },
    { raw: '2024-02-29T00:00:00+05:30', iso: '2024-02-28T18:30:00Z' },
    // `+` unencoded in a query string arrives as a space.
    { raw: '2026-11-22T16:15:30 09:00', iso: '2026-11-22T07:15:30Z' },
    { raw: '2026-11-22T07:15:30Z', iso: '2026-11-22T07:15:30Z' },
  ];
  for (const { raw, iso } of valid) {
    test(`parses ${JSON.stringify(raw)}`, () => {
      assert.equal(parseQueryDatetime(raw), Date.parse(iso) * 1000);
    });
  }

  const fractions: { raw: string; iso: string; micros: number }[] = [
    { raw: '2026-11-22T10:00:00.5Z', iso: '2026-11-22T10:00:00Z', micros: 500_000 },
    { raw: '2026-11-22T10:00:00.123456+09:00', iso: '2026-11-22T01:00:00Z', micros: 123_456 },
    { raw: '2026-11-22T10:00:00.000001-05:00', iso: '2026-11-22T15:00:00Z', micros: 1 },
    { raw: '2026-11-22T10:00:00.04 09:00', iso: '2026-11-22T01:00:00Z', micros: 40_000 },
    // Digits past the microsecond are dropped, not rounded.
    { raw: '2026-11-22T10:00:00.1234569Z', iso: '2026-11-22T10:00:00Z', micros: 123_456 },
    { raw: '1969-12-31T23:59:59.75Z', iso: '1969-12-31T23:59:59Z', micros: 750_000 },
  ];
  for (const { raw, iso, micros: fraction } of fractions) {
    test(`parses ${JSON.stringify(raw)} to the microsecond`, () => {
      assert.equal(parseQueryDatetime(raw), Date.parse(iso) * 1000 + fraction);
    });
  }

  test('years 0-99 are those years, with Z and a fraction too', () => {
    assert.equal(
      parseQueryDatetime('0099-01-01T00:00:00.25Z'),
      Date.parse('0099-01-01T00:00:00.250Z') * 1000,
    );
    assert.equal(parseQueryDatetime('0005-06-01T09:00:00+09:00'), Date.parse('0005-06-01T00:00:00Z') * 1000);
  });

  const invalid = [
    '',
    'garbage',
    '2026-13-01T00:00:00+09:00',
    '2026-00-10T00:00:00+09:00',
    '2026-02-30T00:00:00+09:00',
    '2025-02-29T00:00:00+09:00',
    '2026-04-31T00:00:00+09:00',
    '2026-11-22T24:00:00+09:00',
    '2026-11-22T16:60:00+09:00',
    '2026-11-22T16:15:60+09:00',
    '2026-11-22T16:15:30+24:00',
    '2026-11-22T16:15:30',
    '2026-11-22 16:15:30+09:00',
    '2026-11-22T16:15:30+0900',
    '2026-11-22T16:15:30z',
    '2026-11-22T16:15:30.Z',
    '2026-11-22T16:15:30.+09:00',
    '2026-11-22T16:15:30,5Z',
    '2026-11-22T16:15:30.5',
    '2026-11-22T16:15:30Z+09:00',
    '2026-11-22T16:15:30.12a+09:00',
    '26-11-22T16:15:30+09:00',
    ' 2026-11-22T16:15:30+09:00',
  ];
  for (const raw of invalid) {
    test(`rejects ${JSON.stringify(raw)}`, () => {
      assert.equal(parseQueryDatetime(raw), undefined);
    });
  }

  test('round trip with formatApiTimestamp on whole seconds', () => {
    const at = micros('2026-11-22T07:15:30Z');
    const text = formatApiTimestamp(at, 'Asia/Tokyo').replace('.000000', '');
    assert.equal(parseQueryDatetime(text), at);
  });
});
