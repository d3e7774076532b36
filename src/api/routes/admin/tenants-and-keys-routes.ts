import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { apiKeyPrefix, generateApiKey, hashApiKey } from '../../../service/api-key-codec.js';
import type {
  ApiKeyRecord,
  ContractRecord,
  ServiceGroupRecord,
  ServiceStore,
} from '../../../store/service-store.js';
import { ApiError } from '../../api-error.js';
import {
  CreateApiKeySchema,
  CreateContractSchema,
  CreateServiceGroupSchema,
  GetContractSchema,
  GetServiceGroupSchema,
  ListApiKeysSchema,
  ListContractsSchema,
  ListServiceGroupsSchema,
  RevokeApiKeySchema,
} from '../../schemas/admin-schemas.js';
import {
  type AdminRoutesOptions,
  datetimeOf,
  GROUP_PATH,
  invalidInput,
  methodRecorder,
  nowMicros,
  ofTenant,
  requireGroup,
} from './admin-support.js';

/** Contracts, service groups and their API keys (what `kumo admin contract|servicegroup|key` does). */
export const tenantRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { store, timezone } = options;
  const record = methodRecorder(options);
  const contractView = (contract: ContractRecord) => ({
    id: contract.id,
    name: contract.name,
    created_datetime: datetimeOf(contract.createdMicros, timezone),
  });
  const groupView = (group: ServiceGroupRecord) => ({
    id: group.id,
    contract_id: group.contractId,
    name: group.name,
    created_datetime: datetimeOf(group.createdMicros, timezone),
  });
  const keyView = (key: ApiKeyRecord) => ({
    id: key.id,
    prefix: key.prefix,
    label: key.label,
    created_datetime: datetimeOf(key.createdMicros, timezone),
    revoked_datetime: datetimeOf(key.revokedMicros, timezone),
  });

  record('GET', '/contracts');
  app.get('/contracts', { schema: ListContractsSchema }, async () => {
    const contracts = store.tenants.listContracts();
    return {
      status: 'OK' as const,
      message: `${contracts.length} contract(s)`,
      contracts: contracts.map(contractView),
    };
  });

  record('POST', '/contracts');
  app.post('/contracts', { schema: CreateContractSchema }, async (request) => {
    const contract = store.tenants.createContract(requiredName(request.body.name), nowMicros());
    return { status: 'OK' as const, message: `contract ${contract.id} created`, contract_id: contract.id };
  });

  record('GET', '/contracts/:contract_id');
  app.get('/contracts/:contract_id', { schema: GetContractSchema }, async (request) => {
    const contract = requireContract(store, request.params.contract_id);
    return { status: 'OK' as const, message: `contract ${contract.id}`, contract: contractView(contract) };
  });

  record('GET', '/contracts/:contract_id/servicegroups');
  app.get('/contracts/:contract_id/servicegroups', { schema: ListServiceGroupsSchema }, async (request) => {
    const contract = requireContract(store, request.params.contract_id);
    const groups = store.tenants.listServiceGroups(contract.id);
    return {
      status: 'OK' as const,
      message: `${groups.length} service group(s) in contract ${contract.id}`,
      servicegroups: groups.map(groupView),
    };
  });

  record('POST', '/contracts/:contract_id/servicegroups');
  app.post('/contracts/:contract_id/servicegroups', { schema: CreateServiceGroupSchema }, async (request) => {
    const contract = requireContract(store, request.params.contract_id);
    const group = store.tenants.createServiceGroup(contract.id, requiredName(request.body.name), nowMicros());
    return {
      status: 'OK' as const,
      message: `service group ${group.id} created in contract ${contract.id}`,
      servicegroup_id: group.id,
    };
  });

  record('GET', GROUP_PATH);
  app.get(GROUP_PATH, { schema: GetServiceGroupSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const group = store.tenants.getServiceGroup(tenant.contractId, tenant.servicegroupId)!;
    return { status: 'OK' as const, message: `service group ${group.id}`, servicegroup: groupView(group) };
  });

  record('GET', `${GROUP_PATH}/api_keys`);
  app.get(`${GROUP_PATH}/api_keys`, { schema: ListApiKeysSchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const keys = store.apiKeys.list(tenant.contractId).filter((key) => ofTenant(key, tenant));
    return { status: 'OK' as const, message: `${keys.length} API key(s)`, api_keys: keys.map(keyView) };
  });

  record('POST', `${GROUP_PATH}/api_keys`);
  app.post(`${GROUP_PATH}/api_keys`, { schema: CreateApiKeySchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const key = generateApiKey();
    const created = store.apiKeys.insert(
      tenant,
      hashApiKey(key),
      apiKeyPrefix(key),
      request.body.label ?? '',
      nowMicros(),
    );
    return {
      status: 'OK' as const,
      message: 'API key created; it is shown only in this response',
      api_key_id: created.id,
      api_key: key,
      prefix: created.prefix,
    };
  });

  record('DELETE', `${GROUP_PATH}/api_keys/:api_key_id`);
  app.delete(`${GROUP_PATH}/api_keys/:api_key_id`, { schema: RevokeApiKeySchema }, async (request) => {
    const tenant = requireGroup(store, request.params);
    const id = request.params.api_key_id;
    const key = store.apiKeys.list(tenant.contractId).find((one) => one.id === id && ofTenant(one, tenant));
    if (!key || key.revokedMicros !== null || !store.apiKeys.revoke(id, nowMicros())) {
      throw new ApiError('not_found', `no active API key ${id} in this service group`);
    }
    return { status: 'OK' as const, message: `API key ${id} revoked` };
  });
};

function requireContract(store: ServiceStore, id: number): ContractRecord {
  const contract = store.tenants.getContract(id);
  if (!contract) throw new ApiError('not_found', `no contract ${id}`);
  return contract;
}

/** A name that is not only blanks, trimmed. */
function requiredName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw invalidInput([{ field: 'body.name', reason: 'must not be blank' }]);
  return name;
}
