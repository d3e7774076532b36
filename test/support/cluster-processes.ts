/**
 * The processes of a cluster test (docs/operations.md, Roles): `kumo serve` children with data
 * directories of their own (other machines) on one PostgreSQL database and one bucket, and what
 * the tests ask of them over HTTP: the management API, site search hits, health and metrics.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before } from 'node:test';
import { startPostgresServer, type PostgresServer } from './postgres-server.js';
import { startS3Server, type TestS3Server } from './s3-server.js';
import { startServeProcess, type ServeProcess } from './serve-process.js';
import { freePort, makeTempDir } from './service-harness.js';

export const CLUSTER_ADMIN_TOKEN = 'kumo_cluster_test_admin_token_0123456789';
/** The demo tenant's service group in the management API. */
export const DEMO_GROUP = '/admin/v1/contracts/1/servicegroups/1';
const DEMO_SEARCH = '/api/v1.0/finder_service/documents/1/1/1/search';
const HEALTH = '/api/v1.0/finder_service/health_check';

/** What a cluster test file shares: one PostgreSQL server, one bucket server, cleanups run at its end. */
export interface ClusterBackends {
  postgres(): PostgresServer;
  s3(): TestS3Server;
  /** Run in reverse order after the file's tests, before the servers stop. */
  cleanups: (() => Promise<unknown>)[];
}

/** Starts PostgreSQL and the S3-compatible server before the file's tests and stops them after. */
export function clusterBackends(): ClusterBackends {
  let postgres: PostgresServer | undefined;
  let s3: TestS3Server | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];
  before(async () => {
    [postgres, s3] = await Promise.all([startPostgresServer(), startS3Server()]);
  });
  after(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await Promise.all([postgres?.stop(), s3?.stop()]);
  });
  return { postgres: () => postgres!, s3: () => s3!, cleanups };
}

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

/** A search load on two nodes, the first of which the test kills (see startSearchLoad). */
export interface SearchLoad {
  /** Every document count answered so far. */
  seen: Set<number>;
  /**
   * Ends the load and checks what a visitor would see: the live (second) node answered every
   * request, the killed (first) one failed at most the one in flight. Returns the live node's
   * request count.
   */
  stop(): Promise<number>;
}

/**
 * Searches `page` on both nodes back to back until stopped, recording each answer's count; the
 * first node's loop ends at its first failure (it is the one killed).
 */
export function startSearchLoad(nodes: readonly [ServeProcess, ServeProcess]): SearchLoad {
  const seen = new Set<number>();
  const failures: { node: number; error: unknown }[] = [];
  let loading = true;
  const load = nodes.map(async (node, at) => {
    let requests = 0;
    while (loading) {
      try {
        seen.add(await pageHits(node));
        requests += 1;
      } catch (error) {
        failures.push({ node: at, error });
        if (at === 0) return requests;
      }
    }
    return requests;
  });
  return {
    seen,
    async stop() {
      loading = false;
      const [, survivorRequests] = await Promise.all(load);
      assert.deepEqual(
        failures.filter((failure) => failure.node === 1),
        [],
        'the live node answered every request',
      );
      assert.ok(
        failures.filter((failure) => failure.node === 0).length <= 1,
        'only the request in flight on the killed node failed',
      );
      assert.ok(survivorRequests! > 10, `the live node answered ${survivorRequests} requests`);
      return survivorRequests!;
    },
  };
}
