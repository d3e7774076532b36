import { type Actor, EVERYWHERE, type Management, type Scope } from '../usecases/index.js';
import type { TenantRef } from '../store/index.js';
import { formatApiTimestamp } from '../util/index.js';
import { UsageError } from './usage-error.js';

/** Who changes things through `kumo admin`: the operator at the data directory. */
export const CLI_ACTOR: Actor = { kind: 'operator', via: 'cli' };

/** What every `kumo admin` handler is given: the management operations and its options. */
export interface AdminContext {
  management: Management;
  values: {
    name?: string;
    contract?: string;
    servicegroup?: string;
    label?: string;
    config?: string;
    url?: string;
    secret?: string;
    limit?: string;
    email?: string;
    role?: string;
  };
  positionals: string[];
  print: (line: string) => void;
  timezone: string;
  /** KUMO_PUBLIC_URL, for invitation links. */
  publicUrl: string;
}

/** One `kumo admin` action: parses its options, calls the operation, prints the result. */
export type AdminHandler = (context: AdminContext) => void | Promise<void>;

export function requiredId(value: string | undefined, option: string): number {
  if (value === undefined) throw new UsageError(`--${option} ID is required`, true);
  if (!/^[1-9]\d*$/.test(value))
    throw new UsageError(`--${option}: expected a positive integer id, got "${value}"`);
  return Number(value);
}

export function requiredName(value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new UsageError('--name NAME is required', true);
  return value.trim();
}

/** The service group of `--contract` and `--servicegroup`, both required. */
export function requiredTenant(values: AdminContext['values']): TenantRef {
  return {
    contractId: requiredId(values.contract, 'contract'),
    servicegroupId: requiredId(values.servicegroup, 'servicegroup'),
  };
}

/** What a listing shows: the resources of `--contract`, or all. */
export function listScope(values: AdminContext['values']): Scope {
  return values.contract === undefined ? EVERYWHERE : { contractId: requiredId(values.contract, 'contract') };
}

/** A stored time as listings print it. */
export const printedTime = (micros: number | null, timezone: string): string =>
  micros === null ? '-' : formatApiTimestamp(micros, timezone);
