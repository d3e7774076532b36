import type { ApiKeyRecord, TenantRef } from '../../store/index.js';
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
  async list(scope: Scope): Promise<ApiKeyRecord[]> {
    await this.enter(scope);
    return (await this.store.apiKeys.list(scope.contractId)).filter((key) => reaches(scope, key));
  }

  async create(actor: Actor, tenant: TenantRef, input: { label?: string }): Promise<CreatedApiKey> {
    this.mayChange(actor, tenant, 'API key');
    await this.enter(tenant);
    const label = checkedLength(input.label ?? '', 'label');
    const apiKey = generateApiKey();
    const now = this.now();
    const record = await this.store.apiKeys.insert(
      tenant,
      hashApiKey(apiKey),
      apiKeyPrefix(apiKey),
      label,
      now,
    );
    await this.changed(actor, 'create', 'API key', record, now);
    return { record, apiKey };
  }

  /** Revokes an active key within the scope; NotFoundError for an unknown or revoked one. */
  async revoke(actor: Actor, scope: Scope, id: number): Promise<void> {
    this.mayChange(actor, scope, 'API key');
    const key = (await this.list(scope)).find((one) => one.id === id);
    const now = this.now();
    if (!key || key.revokedMicros !== null || !(await this.store.apiKeys.revoke(id, now))) {
      throw new NotFoundError('API key', id, `no active API key ${id}${withinText(scope)}`);
    }
    await this.changed(actor, 'revoke', 'API key', key, now);
  }
}
