/**
 * Where site search is reached when the API process does not serve it (docs/operations.md,
 * Roles): an `api,scheduler` process told KUMO_SEARCH_PUBLIC_URL names the search node's address
 * in its start banner and to the console (the session's `search_url`, which the snippet and Try it
 * use), the search node lets the console frame its hosted page, and one that was not told says
 * so instead of naming an address that answers 404. Through a front door
 * (src/startup/front-door.ts) one address answers the console, the management API, the widget, the
 * hosted page and site search.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startFrontDoor } from '../../src/startup/front-door.js';
import { clusterBackends, CLUSTER_ADMIN_TOKEN } from '../support/cluster-processes.js';
import type { ServeProcess } from '../support/serve-process.js';
import { SEARCHED_SITE_PAGES, startSplitSearchCluster } from '../support/split-search-cluster.js';

const backends = clusterBackends();
const { cleanups } = backends;

/** The operator's console session as the console reads it: signed in with the admin token. */
async function operatorSession(api: ServeProcess): Promise<{ search_url: string | null }> {
  const signIn = await fetch(`${api.url}/admin/v1/operator_session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ admin_token: CLUSTER_ADMIN_TOKEN }),
  });
  assert.equal(signIn.status, 200, await signIn.clone().text());
  const cookie = signIn.headers.get('set-cookie')!.split(';', 1)[0]!;
  const session = await fetch(`${api.url}/admin/v1/operator_session`, { headers: { cookie } });
  assert.equal(session.status, 200);
  const body = (await session.json()) as { search_url: string | null };
  assert.deepEqual(
    ((await signIn.json()) as { search_url: unknown }).search_url,
    body.search_url,
    'sign-in and session agree',
  );
  return body;
}

test('an API process told KUMO_SEARCH_PUBLIC_URL gives the search address; one not told says so; a front door serves all at one address', async () => {
  const { api, search, start } = await startSplitSearchCluster(backends, { tellSearchAddress: true });

  // The banner and the console's session name the search node, which serves what they name.
  assert.match(api.output(), new RegExp(`^Site search, widget and hosted search pages: ${search.url}$`, 'm'));
  assert.ok(
    api.output().includes(`${search.url}/api/v1.0/finder_service/documents/1/1/1/search?q=...`),
    api.output(),
  );
  assert.equal((await operatorSession(api)).search_url, search.url);
  const widget = await fetch(`${search.url}/widget/v1/kumo-search.js`);
  assert.equal(widget.status, 200);
  const hosted = await fetch(`${search.url}/search/1/1/1`);
  assert.equal(hosted.status, 200);
  // Try it frames the hosted page from the console's origin, another one than the page's.
  assert.match(
    hosted.headers.get('content-security-policy') ?? '',
    new RegExp(`frame-ancestors 'self' ${api.url}$`),
  );
  // The API process itself answers none of it (what a console pointed at it showed before).
  assert.equal((await fetch(`${api.url}/search/1/1/1`)).status, 404);

  // An API process of the same cluster without the setting says search is served elsewhere.
  const untold = await start('api');
  assert.match(
    untold.output(),
    /^Site search: not served by this process, and KUMO_SEARCH_PUBLIC_URL is unset: the console's snippet and Try it need it/m,
  );
  assert.ok(!untold.output().includes(`${untold.url}/api/v1.0/finder_service`), untold.output());
  assert.equal((await operatorSession(untold)).search_url, null);

  // One address for everything, as behind a load balancer.
  const frontDoor = await startFrontDoor({
    host: '127.0.0.1',
    port: 0,
    api: [api.url],
    search: [search.url],
    finderBasePath: '/api/v1.0/finder_service',
  });
  cleanups.push(() => frontDoor.close());
  const through = async (path: string, headers: Record<string, string> = {}) =>
    fetch(`${frontDoor.url}${path}`, { headers });
  assert.equal((await through('/console/')).status, 200);
  const contracts = await through('/admin/v1/contracts', { authorization: `Bearer ${CLUSTER_ADMIN_TOKEN}` });
  assert.equal(contracts.status, 200);
  assert.equal(((await contracts.json()) as { contracts: unknown[] }).contracts.length, 1);
  assert.equal((await through('/widget/v1/kumo-search.js')).status, 200);
  assert.equal((await through('/search/1/1/1')).status, 200);
  const found = await through('/api/v1.0/finder_service/documents/1/1/1/search?q=page');
  assert.equal(found.status, 200);
  assert.equal(((await found.json()) as { organic: { hits: number } }).organic.hits, SEARCHED_SITE_PAGES);
});
