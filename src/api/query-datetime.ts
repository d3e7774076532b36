import { parseQueryDatetime } from '../util/index.js';
import { ApiError } from './api-error.js';

/**
 * A `from_datetime` / `to_datetime` query value in microseconds; a value that does not parse is a
 * 400 naming it with examples of the accepted forms (docs/api.md, Common rules, Timestamps).
 */
export function parseDatetimeParameter(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const micros = parseQueryDatetime(raw);
  if (micros === undefined) {
    const reason =
      `"${raw}" is not a datetime of the form yyyy-MM-ddTHH:mm:ss, an optional fraction of a second, ` +
      'then +NN:NN, -NN:NN or Z (such as 2026-11-22T10:00:00+09:00 or 2026-11-22T01:00:00.5Z)';
    throw new ApiError('invalid_input', `${name}: ${reason}`, [{ field: `query.${name}`, reason }]);
  }
  return micros;
}

/** A range whose start is after its end is a 400 naming from_datetime. */
export function checkDatetimeRange(fromMicros: number | undefined, toMicros: number | undefined): void {
  if (fromMicros !== undefined && toMicros !== undefined && fromMicros > toMicros) {
    const reason = 'must not be later than to_datetime';
    throw new ApiError('invalid_input', `from_datetime ${reason}`, [
      { field: 'query.from_datetime', reason },
    ]);
  }
}
