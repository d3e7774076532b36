/**
 * Thread of the TenantWork pool: runs one tenant job at a time (tenant-jobs.ts), off the thread
 * that answers the API (docs/security.md, Tenant work off the API thread).
 */
import { serveTenantWork } from '../../util/index.js';
import { TENANT_JOBS, type TenantJobReply, type TenantJobRequest } from './tenant-jobs.js';

serveTenantWork<TenantJobRequest, TenantJobReply>((request) => {
  const run = TENANT_JOBS[request.job] as (input: TenantJobRequest['input']) => TenantJobReply['output'];
  return { ok: true, output: run(request.input) };
});
