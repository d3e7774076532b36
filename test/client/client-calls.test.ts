/**
 * The published client module (dist/web/kumo-search-client.js, served at
 * /widget/v1/kumo-search-client.js; docs/reference/widget.md, Typed client) imported in Node and
 * calling a real service over loopback with a seeded index: every answer validates against the
 * schemas the server declares its answers with, the parameters reach the server, clicks are
 * recorded, and failures are SiteSearchErrors of the documented kinds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TSchema } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import {
  RelatedKeywordsResponseSchema,
  SearchResponseSchema,
  SuggestResponseSchema,
} from '../../src/api/schemas/site-search-schemas.js';
import { systemClock } from '../../src/util/index.js';
import {
  DOCS,
  FINDER_BASE,
  HttpClient,
  PYTHON_DOCS,
  seedSearchIndex,
  urlOf,
} from '../support/search-fixtures.js';
import { freePort, pollUntil, startTestService, type TestService } from '../support/service-harness.js';

/** The parts of the module this test uses, as its declaration file describes them. */
interface Client {
  readonly transport: string;
  search(
    query: {
      q: string;
      page?: number;
      perPage?: number;
      sortBy?: string[];
      doctype?: string[];
      category?: string;
    },
    options?: { signal?: AbortSignal },
  ): Promise<unknown>;
  suggest(q: string, options?: { count?: number; signal?: AbortSignal }): Promise<unknown>;
  relatedKeywords(q: string, options?: { prefix?: string }): Promise<unknown>;
  clickUrl(url: string, q: string): string;
  reportClick(url: string, q: string): void;
}
interface SiteSearchErrorShape extends Error {
  kind: string;
  status: number;
  fields: readonly { field: string; reason: string }[];
}
interface ClientModule {
  SiteSearchClient: new (options: { baseUrl: string; service: unknown; transport?: string }) => Client;
  SiteSearchError: abstract new (...args: never[]) => SiteSearchErrorShape;
}

interface SearchView {
  parameter: { page_number: number; number_per_page: number; sort_by: string[]; doctype: string[] };
  organic: { hits: number; docs: { url: string; title: string; doctype: string }[] };
}

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = {
  search: ajv.compile(SearchResponseSchema as TSchema),
  suggest: ajv.compile(SuggestResponseSchema as TSchema),
  related: ajv.compile(RelatedKeywordsResponseSchema as TSchema),
};

/** Asserts that `body` is an answer the server's schema describes, and returns it. */
function valid<T>(kind: keyof typeof validators, body: unknown): T {
  const validate = validators[kind];
  assert.ok(validate(body), `${kind}: ${ajv.errorsText(validate.errors)}`);
  return body as T;
}

let service: TestService;
let module: ClientModule;
let client: Client;

before(async () => {
  service = await startTestService();
  seedSearchIndex(service.dataDir, 1);
  module = (await import(new URL('../../web/kumo-search-client.js', import.meta.url).href)) as ClientModule;
  client = new module.SiteSearchClient({ baseUrl: `${service.url}${FINDER_BASE}`, service: '1/1/1' });
});

after(async () => {
  await service.close();
});

/** The error `call` rejects with, checked to be a SiteSearchError. */
async function failureOf(call: Promise<unknown>): Promise<SiteSearchErrorShape> {
  const error = await call.then(
    () => assert.fail('the call succeeded'),
    (reason: unknown) => reason,
  );
  assert.ok(error instanceof module.SiteSearchError, String(error));
  return error;
}

describe('the client module against a real service', () => {
  test("search answers the server's SearchResponse with the parameters given", async () => {
    const answer = valid<SearchView>('search', await client.search({ q: 'python' }));
    assert.equal(answer.organic.hits, PYTHON_DOCS.length);
    const paged = valid<SearchView>(
      'search',
      await client.search({ q: 'python', page: 2, perPage: 2, sortBy: ['last_modified desc'] }),
    );
    assert.equal(paged.parameter.page_number, 2);
    assert.equal(paged.parameter.number_per_page, 2);
    assert.deepEqual(paged.parameter.sort_by, ['last_modified desc']);
    // Newest first: the third and fourth newest python pages.
    const newest = [...PYTHON_DOCS].sort((a, b) => (DOCS[b].lastModified ?? 0) - (DOCS[a].lastModified ?? 0));
    assert.deepEqual(
      paged.organic.docs.map((doc) => doc.url),
      newest.slice(2, 4).map((name) => urlOf(name)),
    );
    const pdf = valid<SearchView>('search', await client.search({ q: 'quarterly', doctype: ['pdf'] }));
    assert.deepEqual(
      pdf.organic.docs.map((doc) => doc.url),
      [urlOf('quarterlyPdf')],
    );
    const japanese = valid<SearchView>('search', await client.search({ q: '京都' }));
    assert.equal(japanese.organic.docs[0]?.url, urlOf('kyoto'));
    assert.equal(client.transport, 'auto');
  });

  test("suggest and relatedKeywords answer the server's schemas", async () => {
    const suggest = valid<{ suggestions: { word: string }[] }>(
      'suggest',
      await client.suggest('pyth', { count: 3 }),
    );
    assert.ok(suggest.suggestions.length > 0 && suggest.suggestions.length <= 3);
    assert.ok(
      suggest.suggestions.some((entry) => entry.word.toLowerCase().startsWith('pyth')),
      JSON.stringify(suggest),
    );
    const related = valid<{ related_keywords: { word: string }[] }>(
      'related',
      await client.relatedKeywords('python'),
    );
    assert.ok(Array.isArray(related.related_keywords));
  });

  test('clickUrl redirects to the page, and reportClick records a click the clicks sort sees', async () => {
    const http = new HttpClient('');
    try {
      const redirect = await http.get(client.clickUrl(urlOf('pySnake'), 'python'));
      assert.equal(redirect.status, 302);
      assert.equal(redirect.headers.get('location'), urlOf('pySnake'));
    } finally {
      await http.close();
    }
    client.reportClick(urlOf('pyRelease'), 'python');
    client.reportClick(urlOf('pyRelease'), 'python');
    await pollUntil('two clicks on the release page', async () => {
      const answer = valid<SearchView>(
        'search',
        await client.search({ q: 'python', sortBy: ['click desc'] }),
      );
      return answer.organic.docs[0]?.url === urlOf('pyRelease') ? true : undefined;
    });
  });

  test('an unknown service is a SiteSearchError of kind not_found', async () => {
    const unknown = new module.SiteSearchClient({
      baseUrl: `${service.url}${FINDER_BASE}`,
      service: '1/1/999',
    });
    const error = await failureOf(unknown.search({ q: 'python' }));
    assert.equal(error.kind, 'not_found');
    assert.equal(error.status, 404);
    assert.match(error.message, /no search service 999/);
  });

  test('a refused origin is a SiteSearchError of kind origin naming it; a listed one is served', async () => {
    const store = service.service.store.searchServices;
    assert.ok(
      await store.updateConfig(1, { allowed_origins: ['https://good.example'] }, systemClock.nowMicros()),
    );
    // Written to the store directly: told to the service as its management API would.
    service.service.searchServices.forget(1);
    const original = globalThis.fetch;
    let origin = 'https://evil.example';
    // A browser sends the page's origin; the client leaves that header to the platform.
    globalThis.fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('origin', origin);
      return original(input, { ...init, headers });
    };
    try {
      const error = await failureOf(client.search({ q: 'python' }));
      assert.equal(error.kind, 'origin');
      assert.equal(error.status, 403);
      assert.match(error.message, /https:\/\/evil\.example may not use this search service/);
      const suggestError = await failureOf(client.suggest('pyth'));
      assert.equal(suggestError.kind, 'origin');
      origin = 'https://good.example';
      valid('search', await client.search({ q: 'python' }));
    } finally {
      globalThis.fetch = original;
      assert.ok(await store.updateConfig(1, {}, systemClock.nowMicros()));
      service.service.searchServices.forget(1);
    }
  });

  test('a refused parameter is kind invalid with its fields; an abort is kind aborted; no server is kind network', async () => {
    const invalid = await failureOf(client.search({ q: 'python', perPage: 500 }));
    assert.equal(invalid.kind, 'invalid');
    assert.equal(invalid.status, 400);
    assert.deepEqual(
      invalid.fields.map((field) => field.field),
      ['query.number_per_page'],
    );

    const controller = new AbortController();
    controller.abort();
    const aborted = await failureOf(client.search({ q: 'python' }, { signal: controller.signal }));
    assert.equal(aborted.kind, 'aborted');

    const nowhere = new module.SiteSearchClient({
      baseUrl: `http://127.0.0.1:${await freePort()}${FINDER_BASE}`,
      service: { contractId: 1, servicegroupId: 1, serviceId: 1 },
    });
    const network = await failureOf(nowhere.search({ q: 'python' }));
    assert.equal(network.kind, 'network');
    assert.equal(network.status, 0);
  });
});
