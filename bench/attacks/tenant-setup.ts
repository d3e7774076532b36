/**
 * What the operator sets up before the attacks: contract A (the attacker) and contract B (the
 * victim), each with a service group, a search service indexed from the local site by a crawl
 * service setting run once, a webhook, and A's users of the lowest roles each attack needs.
 */
import { call, expectStatus } from './http-call.js';
import { type Caller, operator, signedInUser } from './management.js';
import { ATTACKER_START, VICTIM_START, VICTIM_WORD } from './attack-site.js';

export interface Tenant {
  contractId: number;
  servicegroupId: number;
  /** `/contracts/{c}/servicegroups/{g}` */
  group: string;
  searchServiceId: number;
  webhookId: number;
}

export interface BenchTenants {
  attacker: Tenant & {
    viewer: Caller;
    /** Pings need an owner (docs/api.md, Roles). */
    owner: Caller;
    /** An API key of A, for the instant crawl API. */
    apiKey: string;
  };
  victim: Tenant;
}

const RUN_ENDED = 2030;

async function createTenant(
  admin: Caller,
  name: string,
  seedUrl: string,
  webhookUrl: string,
  indexTimeoutMs: number,
): Promise<Tenant> {
  const { contract_id: contractId } = expectStatus<{ contract_id: number }>(
    `contract ${name}`,
    await admin.call('/contracts', { method: 'POST', body: { name } }),
  );
  const { servicegroup_id: servicegroupId } = expectStatus<{ servicegroup_id: number }>(
    `service group of ${name}`,
    await admin.call(`/contracts/${contractId}/servicegroups`, { method: 'POST', body: { name: 'web' } }),
  );
  const group = `/contracts/${contractId}/servicegroups/${servicegroupId}`;
  const { service_id: searchServiceId } = expectStatus<{ service_id: number }>(
    `search service of ${name}`,
    await admin.call(`${group}/search_services`, {
      method: 'POST',
      body: { name: `${name} search`, config: {} },
    }),
  );
  await indexOnce(admin, group, searchServiceId, seedUrl, indexTimeoutMs);
  const { webhook_id: webhookId } = expectStatus<{ webhook_id: number }>(
    `webhook of ${name}`,
    await admin.call(`${group}/webhooks`, {
      method: 'POST',
      body: { url: webhookUrl, secret: 'a bench webhook secret of some length' },
    }),
  );
  return { contractId, servicegroupId, group, searchServiceId, webhookId };
}

/** A crawl service setting feeding the search service, run once; waits until the run has ended. */
async function indexOnce(
  admin: Caller,
  group: string,
  searchServiceId: number,
  seedUrl: string,
  timeoutMs: number,
): Promise<void> {
  const { service_setting_id: settingId } = expectStatus<{ service_setting_id: number }>(
    'crawl service setting',
    await admin.call(`${group}/service_settings`, {
      method: 'POST',
      body: {
        setting: { seed_urls: [seedUrl], sitemaps: false },
        schedule: { interval: 0 },
        service_id: searchServiceId,
      },
    }),
  );
  const { run_id: runId } = expectStatus<{ run_id: number }>(
    'run now',
    await admin.call(`${group}/service_settings/${settingId}/run`, { method: 'POST' }),
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { run } = expectStatus<{ run: { crawl_execution_status_dtype_id: number; crawled_count: number } }>(
      `run ${runId}`,
      await admin.call(`${group}/runs/${runId}`),
    );
    if (run.crawl_execution_status_dtype_id >= RUN_ENDED) {
      if (run.crawl_execution_status_dtype_id !== RUN_ENDED)
        throw new Error(`the indexing run of ${seedUrl} ended ${run.crawl_execution_status_dtype_id}`);
      return;
    }
    if (Date.now() > deadline)
      throw new Error(`the indexing run of ${seedUrl} did not end in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Waits until a search service's status counts at least `documents` (its index is published). */
async function waitForDocuments(admin: Caller, tenant: Tenant, documents: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await admin.call(`${tenant.group}/search_services/${tenant.searchServiceId}/status`);
    if (answer.status === 200 && (answer.json as { documents: number }).documents >= documents) return;
    if (Date.now() > deadline)
      throw new Error(`search service ${tenant.searchServiceId}: ${JSON.stringify(answer.json)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function setUpTenants(options: {
  kumoUrl: string;
  siteUrl: string;
  attackerPages: number;
  attackerWebhookUrl: string;
  victimWebhookUrl: string;
}): Promise<BenchTenants> {
  const { kumoUrl, siteUrl } = options;
  const admin = operator(kumoUrl);
  const victim = await createTenant(
    admin,
    'victim',
    `${siteUrl}${VICTIM_START}`,
    options.victimWebhookUrl,
    60_000,
  );
  const attacker = await createTenant(
    admin,
    'attacker',
    `${siteUrl}${ATTACKER_START}`,
    options.attackerWebhookUrl,
    300_000,
  );
  await waitForDocuments(admin, victim, 2);
  await waitForDocuments(admin, attacker, options.attackerPages);
  const { api_key: apiKey } = expectStatus<{ api_key: string }>(
    'API key of A',
    await admin.call(`${attacker.group}/api_keys`, { method: 'POST', body: { label: 'attacker' } }),
  );
  const viewer = await signedInUser(kumoUrl, attacker.contractId, 'viewer@attacker.example', 'viewer');
  const owner = await signedInUser(kumoUrl, attacker.contractId, 'owner@attacker.example', 'owner');
  // The victim's search answers before the attacks start (its index opened once).
  await call(`${kumoUrl}${victimSearchPath(victim)}`);
  return { attacker: { ...attacker, viewer, owner, apiKey }, victim };
}

/** The victim's site search for the word of its pages. */
export function victimSearchPath(victim: Tenant): string {
  return `/api/v1.0/finder_service/documents/${victim.contractId}/${victim.servicegroupId}/${victim.searchServiceId}/search?q=${VICTIM_WORD}`;
}
