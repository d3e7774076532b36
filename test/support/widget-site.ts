/**
 * The search side of the widget tests: a real `kumo serve` process whose search service 1 holds
 * the fixture site's English and Japanese pages (with category and drill-down rules set through
 * the management API), a second service with the bakery's pages, and a third whose allowed
 * origins list only another site. The fixture site itself answers on 127.0.0.3, so a result
 * opened in the browser lands on a real page.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { listenLocally, type LocalServer } from './local-server.js';
import { HttpClient, queryOf, type SearchAnswer, seedSearchIndex } from './search-fixtures.js';
import { startServeProcess, type ServeProcess } from './serve-process.js';
import { freePort, makeTempDir, TEST_ADMIN_TOKEN } from './service-harness.js';
import { bakeryDocuments, CATEGORIES, DRILLDOWNS, mainSiteDocuments } from './widget-fixture-docs.js';

const FINDER = '/api/v1.0/finder_service';
const GROUP = '/admin/v1/contracts/1/servicegroups/1';
/** The only origin the refusing service admits: not the host pages' origin. */
export const ELSEWHERE_ORIGIN = 'https://www.example.com';

export interface WidgetSite {
  /** `http://127.0.0.1:<port>`: the Kumo origin the widget script comes from. */
  kumoUrl: string;
  /** `http://127.0.0.3:<port>`: the site whose pages are indexed. */
  siteUrl: string;
  serve: ServeProcess;
  /** `contract/group/service` of each service, as `data-service` takes it. */
  services: { main: string; bakery: string; refused: string };
  /** The main service's name, which the hosted page shows in its header. */
  mainServiceName: string;
  /** A search through the API (as JSON), of the main service unless another is named. */
  search(
    parameters: Record<string, string | number | readonly string[]>,
    service?: string,
  ): Promise<SearchAnswer>;
  close(): Promise<void>;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Every path answers a small HTML page naming it, so a navigation to any result succeeds. */
async function startFixtureSite(): Promise<LocalServer> {
  const server = createServer((request, response) => {
    const path = escapeHtml(request.url ?? '/');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="en"><title>Fixture page</title><h1 id="landed">${path}</h1></html>`,
    );
  });
  return listenLocally(server, '127.0.0.3');
}

async function admin(kumoUrl: string, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) {
  const response = await fetch(`${kumoUrl}${GROUP}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  assert.equal(response.status, 200, `${method} ${path}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Starts the fixture site and `kumo serve`, configures the services and fills their indexes. */
export async function startWidgetSite(): Promise<WidgetSite> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const dataDir = await makeTempDir('kumo-widget-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const site = await startFixtureSite();
    cleanups.push(() => site.close());
    const serve = await startServeProcess({
      dataDir,
      port: await freePort(),
      env: { KUMO_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
      cleanups,
    });
    const kumoUrl = serve.url;

    await admin(kumoUrl, 'PUT', '/search_services/1', {
      config: { categories: CATEGORIES, drilldowns: DRILLDOWNS },
    });
    const mainServiceName = String((await admin(kumoUrl, 'GET', '/search_services/1')).name ?? '');
    const bakeryId = Number(
      (await admin(kumoUrl, 'POST', '/search_services', { name: 'Bakery', config: {} })).service_id,
    );
    const refusedId = Number(
      (
        await admin(kumoUrl, 'POST', '/search_services', {
          name: 'Elsewhere only',
          config: { allowed_origins: [ELSEWHERE_ORIGIN] },
        })
      ).service_id,
    );
    // Written as `kumo index` would, by a connection of its own; the service sees the commit.
    seedSearchIndex(dataDir, 1, mainSiteDocuments(site.baseUrl));
    seedSearchIndex(dataDir, bakeryId, bakeryDocuments(site.baseUrl));
    seedSearchIndex(dataDir, refusedId, bakeryDocuments(site.baseUrl));

    const http = new HttpClient(kumoUrl);
    cleanups.push(() => http.close());
    return {
      kumoUrl,
      siteUrl: site.baseUrl,
      serve,
      services: { main: '1/1/1', bakery: `1/1/${bakeryId}`, refused: `1/1/${refusedId}` },
      mainServiceName,
      search: (parameters, service = '1/1/1') =>
        http.json<SearchAnswer>(`${FINDER}/documents/${service}/search?${queryOf(parameters)}`),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
