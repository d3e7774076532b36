import { UsageError } from './usage-error.js';

/** Parses `--service N`, shared by `kumo index` and `kumo search`. */
export function serviceIdOption(raw: string | undefined): number {
  if (raw === undefined) throw new UsageError('--service N is required', true);
  if (!/^[1-9]\d{0,9}$/.test(raw))
    throw new UsageError(`--service: expected a positive whole number, got "${raw}"`);
  return Number(raw);
}
