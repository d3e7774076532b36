/**
 * How values read in the console (docs/console.md, Time and numbers). The API answers timestamps
 * in the service's time zone (`2026-11-22T10:00:00.000000+09:00`); they are shown in that zone,
 * as written, so every user of a contract sees the same times whatever their computer says.
 */
import { locale } from './i18n.js';

/** `2026-11-22 10:00` of an API timestamp (null or empty: an em dash). */
export function dateTime(value: string | null | undefined, options: { seconds?: boolean } = {}): string {
  if (value === null || value === undefined || value === '') return '—';
  const time = value.slice(11, options.seconds ? 19 : 16);
  return `${value.slice(0, 10)} ${time}`;
}

/** The date part of an API timestamp. */
export function dateOnly(value: string | null | undefined): string {
  return value ? value.slice(0, 10) : '—';
}

/** A count with the language's digit grouping: 12,345. */
export function count(value: number): string {
  return new Intl.NumberFormat(locale()).format(value);
}

/** A byte size in B, KB, MB or GB (powers of 1,024), one decimal above KB. */
export function bytes(value: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let size = value;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? size : size.toFixed(1)} ${units[unit]}`;
}

/** A duration in seconds as `1 h 02 min`, `3 min 05 s` or `12 s`. */
export function duration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(s).padStart(2, '0')} s`;
  return `${s} s`;
}

/** A share of 0..1 as a percentage with one decimal. */
export function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}
