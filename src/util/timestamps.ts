/**
 * Timestamp formats (docs/reference/conventions.md, Timestamps and Query datetimes):
 * API fields `yyyy-MM-ddTHH:mm:ss.SSSSSS+NN:NN`, CSV `crawl_datetime` with `+NNNN`,
 * query parameters `yyyy-MM-ddTHH:mm:ss+NN:NN`, also with a fraction of a second or `Z` (ISO 8601).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localParts(epochMs: number, timeZone: string): LocalParts {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(epochMs)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** Zone offsets change at most on quarter-hour boundaries, so one lookup serves a whole quarter hour. */
const QUARTER_HOUR_MS = 15 * 60 * 1000;
const offsetCache = new Map<string, number>();

function offsetMinutesAt(epochMs: number, timeZone: string): number {
  const bucket = Math.floor(epochMs / QUARTER_HOUR_MS);
  const key = `${timeZone} ${bucket}`;
  let offset = offsetCache.get(key);
  if (offset === undefined) {
    const start = bucket * QUARTER_HOUR_MS;
    const local = localParts(start, timeZone);
    const localAsUtc = Date.UTC(
      local.year,
      local.month - 1,
      local.day,
      local.hour,
      local.minute,
      local.second,
    );
    offset = Math.round((localAsUtc - start) / 60000);
    if (offsetCache.size > 10_000) offsetCache.clear();
    offsetCache.set(key, offset);
  }
  return offset;
}

function render(micros: number, timeZone: string, offsetSeparator: string): string {
  const epochMs = Math.floor(micros / 1000);
  const wholeSecondMs = Math.floor(epochMs / 1000) * 1000;
  const offsetMinutes = offsetMinutesAt(wholeSecondMs, timeZone);
  const shifted = new Date(wholeSecondMs + offsetMinutes * 60000);
  const local = {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
  };
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  const fraction = pad(micros - wholeSecondMs * 1000, 6);
  return (
    `${pad(local.year, 4)}-${pad(local.month)}-${pad(local.day)}T${pad(local.hour)}:${pad(local.minute)}:` +
    `${pad(local.second)}.${fraction}${sign}${pad(Math.floor(absolute / 60))}${offsetSeparator}${pad(absolute % 60)}`
  );
}

/** `2026-11-22T16:15:30.123456+09:00`: the API's timestamp format. */
export function formatApiTimestamp(micros: number, timeZone: string): string {
  return render(micros, timeZone, ':');
}

/** `2026-11-22T16:15:30.123456+0900`: the CSV's crawl_datetime format. */
export function formatCsvTimestamp(micros: number, timeZone: string): string {
  return render(micros, timeZone, '');
}

/**
 * ISO 8601 date and time with seconds: an optional fraction of a second of any length, then an
 * offset `+NN:NN` / `-NN:NN` or `Z` (docs/api.md, Common rules, Timestamps).
 */
const QUERY_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * Parses a query datetime into epoch microseconds, or undefined when it does not parse:
 * `yyyy-MM-ddTHH:mm:ss+NN:NN` (the documented form), also with a fraction of a second
 * (`.5`, `.123456`; digits past the microsecond are dropped) and with `Z` for UTC. A `+` that
 * arrived as a space (unencoded in a query string) is read as `+`.
 */
export function parseQueryDatetime(raw: string): number | undefined {
  const match = QUERY_DATETIME.exec(raw.replace(' ', '+'));
  if (!match) return undefined;
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0] = match.slice(1, 7).map(Number);
  const [, , , , , , , fraction, sign, rawOffsetHours, rawOffsetMinutes] = match;
  const oh = Number(rawOffsetHours ?? 0);
  const om = Number(rawOffsetMinutes ?? 0);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59)
    return undefined;
  const utc = utcMillis(y, mo - 1, d, h, mi, s);
  const check = new Date(utc);
  if (check.getUTCDate() !== d) return undefined;
  const offsetMs = (oh * 60 + om) * 60000 * (sign === '-' ? -1 : 1);
  const fractionMicros = fraction === undefined ? 0 : Number(fraction.slice(0, 6).padEnd(6, '0'));
  return (utc - offsetMs) * 1000 + fractionMicros;
}

/** Date.UTC, but years 0–99 are those years, not 1900–1999 as Date.UTC reads them. */
function utcMillis(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): number {
  const date = new Date(Date.UTC(2000, month, day, hour, minute, second));
  date.setUTCFullYear(year);
  return date.getTime();
}
