import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiKeyRecord, ContractRecord, ServiceGroupRecord } from '../../../store/index.js';
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
  methodRecorder,
  tenantOf,
} from './admin-support.js';
import { actorOf } from './management-auth.js';

/** Contracts, service groups and their API keys (what `kumo admin contract|servicegroup|key` does). */
export const tenantRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { management, timezone } = options;
  const { tenants, apiKeys } = management;
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
    last_used_datetime: datetimeOf(key.lastUsedMicros, timezone),
  });

  record('GET', '/contracts');
  app.get('/contracts', { schema: ListContractsSchema }, async () => {
    const contracts = await tenants.listContracts();
    return {
      status: 'OK' as const,
      message: `${contracts.length} contract(s)`,
      contracts: contracts.map(contractView),
    };
  });

  record('POST', '/contracts');
  app.post('/contracts', { schema: CreateContractSchema }, async (request) => {
    const contract = await tenants.createContract(actorOf(request), request.body);
    return { status: 'OK' as const, message: `contract ${contract.id} created`, contract_id: contract.id };
  });

  record('GET', '/contracts/:contract_id');
  app.get('/contracts/:contract_id', { schema: GetContractSchema }, async (request) => {
    const contract = await tenants.getContract(request.params.contract_id);
    return { status: 'OK' as const, message: `contract ${contract.id}`, contract: contractView(contract) };
  });

  record('GET', '/contracts/:contract_id/servicegroups');
  app.get('/contracts/:contract_id/servicegroups', { schema: ListServiceGroupsSchema }, async (request) => {
    const contract = await tenants.getContract(request.params.contract_id);
    const groups = await tenants.listServiceGroups(contract.id);
    return {
      status: 'OK' as const,
      message: `${groups.length} service group(s) in contract ${contract.id}`,
      servicegroups: groups.map(groupView),
    };
  });

  record('POST', '/contracts/:contract_id/servicegroups');
  app.post('/contracts/:contract_id/servicegroups', { schema: CreateServiceGroupSchema }, async (request) => {
    const { contract_id: contractId } = request.params;
    const group = await tenants.createServiceGroup(actorOf(request), contractId, request.body);
    return {
      status: 'OK' as const,
      message: `service group ${group.id} created in contract ${contractId}`,
      servicegroup_id: group.id,
    };
  });

  record('GET', GROUP_PATH);
  app.get(GROUP_PATH, { schema: GetServiceGroupSchema }, async (request) => {
    const group = await tenants.getServiceGroup(tenantOf(request.params));
    return { status: 'OK' as const, message: `service group ${group.id}`, servicegroup: groupView(group) };
  });

  record('GET', `${GROUP_PATH}/api_keys`);
  app.get(`${GROUP_PATH}/api_keys`, { schema: ListApiKeysSchema }, async (request) => {
    const keys = await apiKeys.list(tenantOf(request.params));
    return { status: 'OK' as const, message: `${keys.length} API key(s)`, api_keys: keys.map(keyView) };
  });

  record('POST', `${GROUP_PATH}/api_keys`);
  app.post(`${GROUP_PATH}/api_keys`, { schema: CreateApiKeySchema }, async (request) => {
    const created = await apiKeys.create(actorOf(request), tenantOf(request.params), request.body);
    return {
      status: 'OK' as const,
      message: 'API key created; it is shown only in this response',
      api_key_id: created.record.id,
      api_key: created.apiKey,
      prefix: created.record.prefix,
    };
  });

  record('DELETE', `${GROUP_PATH}/api_keys/:api_key_id`);
  app.delete(`${GROUP_PATH}/api_keys/:api_key_id`, { schema: RevokeApiKeySchema }, async (request) => {
    const id = request.params.api_key_id;
    await apiKeys.revoke(actorOf(request), tenantOf(request.params), id);
    return { status: 'OK' as const, message: `API key ${id} revoked` };
  });
};
