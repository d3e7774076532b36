/**
 * The processes of a cluster test (docs/operations.md, Roles): `kumo serve` children with data
 * directories of their own (other machines) on one PostgreSQL database and one bucket, and what
 * the tests ask of them over HTTP: the management API, site search hits, health and metrics.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { startServeProcess, type ServeProcess } from './serve-process.js';
import { freePort, makeTempDir } from './service-harness.js';

export const CLUSTER_ADMIN_TOKEN = 'kumo_cluster_test_admin_token_0123456789';
/** The demo tenant's service group in the management API. */
export const DEMO_GROUP = '/admin/v1/contracts/1/servicegroups/1';
const DEMO_SEARCH = '/api/v1.0/finder_service/documents/1/1/1/search';
const HEALTH = '/api/v1.0/finder_service/health_check';

/** Starts `kumo serve` with `env` on a data directory of its own (another machine). */
export async function startClusterProcess(
  env: Record<string, string>,
  cleanups: (() => Promise<unknown>)[],
): Promise<ServeProcess & { dataDir: string }> {
  const dataDir = await makeTempDir('kumo-cluster-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return Object.assign(await startServeProcess({ dataDir, port: await freePort(), env, cleanups }), {
    dataDir,
  });
}

/** A management API call on the demo service group; asserts 200 and returns the JSON body. */
export async function adminCall(
  process: ServeProcess,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${process.url}${DEMO_GROUP}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${CLUSTER_ADMIN_TOKEN}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(response.status, 200, await response.clone().text());
  return response.json();
}

/** The number of documents a process finds for `page` in the demo search service (every page of the tree sites). */
export async function pageHits(node: ServeProcess): Promise<number> {
  const response = await fetch(`${node.url}${DEMO_SEARCH}?q=page`);
  assert.equal(response.status, 200, await response.clone().text());
  return ((await response.json()) as { organic: { hits: number } }).organic.hits;
}

/** The status of a site search request on a process (404 where the search role does not run). */
export async function searchStatus(process: ServeProcess): Promise<number> {
  return (await fetch(`${process.url}${DEMO_SEARCH}?q=page`)).status;
}

export interface HealthView {
  status: string;
  components: Record<string, { status: string; held?: number; running?: boolean } | undefined>;
}

/** The process's health check. */
export async function healthOf(process: ServeProcess): Promise<HealthView> {
  return (await (await fetch(`${process.url}${HEALTH}`)).json()) as HealthView;
}

/** A counter's value in a process's /metrics (0 when absent). */
export async function metricOf(url: string, line: string, token = CLUSTER_ADMIN_TOKEN): Promise<number> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200);
  const found = (await response.text()).split('\n').find((text) => text.startsWith(`${line} `));
  return found === undefined ? 0 : Number(found.slice(line.length + 1));
}
