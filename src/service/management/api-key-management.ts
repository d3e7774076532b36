import type { ApiKeyRecord, TenantRef } from '../../store/service-store.js';
import { apiKeyPrefix, generateApiKey, hashApiKey } from '../api-key-codec.js';
import { type Actor, ManagementOperations } from './management-context.js';
import { NotFoundError } from './management-errors.js';
import { reaches, type Scope, withinText } from './management-scope.js';
import { checkedLength } from './input-rules.js';

/** A key just created: the key itself is in this answer only (the store keeps its hash). */
export interface CreatedApiKey {
  record: ApiKeyRecord;
  apiKey: string;
}

/** The API keys of service groups (the site search and crawl APIs' `x-mf-apikey`). */
export class ApiKeyManagement extends ManagementOperations {
  /** Keys within the scope, revoked ones included. */
  list(scope: Scope): ApiKeyRecord[] {
    this.enter(scope);
    return this.store.apiKeys.list(scope.contractId).filter((key) => reaches(scope, key));
  }

  create(actor: Actor, tenant: TenantRef, input: { label?: string }): CreatedApiKey {
    this.mayChange(actor, tenant, 'API key');
    this.enter(tenant);
    const label = checkedLength(input.label ?? '', 'label');
    const apiKey = generateApiKey();
    const now = this.now();
    const record = this.store.apiKeys.insert(tenant, hashApiKey(apiKey), apiKeyPrefix(apiKey), label, now);
    this.changed(actor, 'create', 'API key', record, now);
    return { record, apiKey };
  }

  /** Revokes an active key within the scope; NotFoundError for an unknown or revoked one. */
  revoke(actor: Actor, scope: Scope, id: number): void {
    this.mayChange(actor, scope, 'API key');
    const key = this.list(scope).find((one) => one.id === id);
    const now = this.now();
    if (!key || key.revokedMicros !== null || !this.store.apiKeys.revoke(id, now)) {
      throw new NotFoundError('API key', id, `no active API key ${id}${withinText(scope)}`);
    }
    this.changed(actor, 'revoke', 'API key', key, now);
  }
}
