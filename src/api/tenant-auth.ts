import type { FastifyRequest } from 'fastify';
import { hashApiKey } from '../usecases/index.js';
import type { ApiKeyStore, TenantRef } from '../store/index.js';
import { ApiError } from './api-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant of the verified API key (instant crawl routes only). */
    tenant?: TenantRef;
    /** The id of that API key (per-key rate limits). */
    apiKeyId?: number;
  }
}

const DECIMAL_ID = /^[1-9]\d{0,15}$/;
const LAST_USED_PRECISION_MS = 60_000;

/**
 * The x-mf-apikey check (docs/reference/conventions.md, Authentication): missing or unknown key
 * 401, a valid key on another tenant's path 403. Runs before validation so that nothing about
 * the request is revealed to a caller without a key.
 */
export function createTenantAuth(apiKeys: ApiKeyStore) {
  // "Last used" is kept to the minute: one write a minute per key, not one per request.
  const lastMarkedMs = new Map<number, number>();
  const markUsed = async (keyId: number) => {
    const nowMs = Date.now();
    if (nowMs - (lastMarkedMs.get(keyId) ?? 0) < LAST_USED_PRECISION_MS) return;
    lastMarkedMs.set(keyId, nowMs);
    await apiKeys.markUsed(keyId, nowMs * 1000);
  };
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const header = request.headers['x-mf-apikey'];
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || key === '') throw new ApiError('missing_api_key');
    const record = key.length <= 256 ? await apiKeys.findActiveByHash(hashApiKey(key)) : undefined;
    if (!record) throw new ApiError('invalid_api_key');
    const params = request.params as Record<string, string | undefined>;
    const contract = params.contract_id ?? '';
    const group = params.servicegroup_id ?? '';
    // Malformed ids are left to schema validation (400); well-formed ids of another tenant are 403.
    if (DECIMAL_ID.test(contract) && DECIMAL_ID.test(group)) {
      if (Number(contract) !== record.contractId || Number(group) !== record.servicegroupId) {
        throw new ApiError('wrong_tenant');
      }
    }
    request.tenant = { contractId: record.contractId, servicegroupId: record.servicegroupId };
    request.apiKeyId = record.id;
    await markUsed(record.id);
  };
}

/** The tenant set by the auth hook; a route without the hook is a programming error. */
export function tenantOf(request: FastifyRequest): TenantRef {
  if (!request.tenant) throw new Error('route is missing the tenant auth hook');
  return request.tenant;
}
