import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import {
  type OpenSearchService,
  SearchIndexUnavailableError,
  type SearchServices,
} from '../../search/index.js';
import { ApiError } from '../api-error.js';
import type { MethodRegistry } from '../method-not-allowed.js';
import { JSONP_CONTENT_TYPE, jsonpBody } from '../search/jsonp.js';
import {
  parseClickParameters,
  parseRelatedKeywordsParameters,
  parseSearchParameters,
  parseSuggestParameters,
} from '../search/search-parameters.js';
import {
  ClickSchema,
  RelatedKeywordsSchema,
  SearchSchema,
  SuggestSchema,
} from '../schemas/site-search-schemas.js';
import { compileValidator } from '../validator-compiler.js';
import { applyOriginPolicy } from '../search/origin-policy.js';

export interface SiteSearchRoutesOptions {
  services: SearchServices;
  methods: MethodRegistry;
  /** Base path the plugin is mounted under, for the 405 registry. */
  basePath: string;
  /** Told how long each search took the engine (kumo_search_duration_seconds). */
  searchTimer?: { observeSearch(seconds: number): void };
}

const DOC_PATH = '/documents/:contract_id/:servicegroup_id/:service_id';

/**
 * The query string of these routes is read from the raw URL by the parameter parsers, since
 * `input_encoding` decides how its bytes decode; the schema documents it and validation of it is
 * left to them. Path ids are validated as everywhere else.
 */
function routeOptions(schema: FastifySchema) {
  return {
    schema,
    validatorCompiler: (route: { schema: FastifySchema; httpPart?: string }) =>
      route.httpPart === 'querystring' ? () => true : compileValidator(route),
  };
}

interface DocPathParams {
  contract_id: number;
  servicegroup_id: number;
  service_id: number;
}

/** The site search API (docs/reference/site-search.md): search, suggest, related_keywords, and click. */
export const siteSearchRoutes: FastifyPluginAsyncTypebox<SiteSearchRoutesOptions> = async (app, options) => {
  const { services } = options;
  for (const endpoint of ['search', 'suggest', 'related_keywords', 'click']) {
    options.methods.record(`${options.basePath}${DOC_PATH}/${endpoint}`, 'GET');
  }
  // A failure holds no data of the service: the calling page may read why (a bad parameter, an
  // unknown service) even before the origin policy ran, instead of seeing a CORS failure
  // (docs/reference/widget.md, Origin policy).
  app.addHook('onSend', async (_request, reply) => {
    if (reply.statusCode >= 400 && !reply.hasHeader('access-control-allow-origin')) {
      reply.header('access-control-allow-origin', '*');
    }
  });

  /** The search service at the path (404 when there is none), after the origin check (403). */
  const serviceAt = async (
    request: FastifyRequest,
    reply: FastifyReply,
    jsonp = false,
  ): Promise<OpenSearchService> => {
    const { contract_id, servicegroup_id, service_id } = request.params as DocPathParams;
    const service = await openService(services, contract_id, servicegroup_id, service_id);
    if (service === undefined) {
      throw new ApiError(
        'not_found',
        `no search service ${service_id} in contract ${contract_id}, service group ${servicegroup_id}`,
      );
    }
    applyOriginPolicy(request, reply, service.record.config.allowed_origins ?? [], jsonp);
    return service;
  };

  app.get(`${DOC_PATH}/search`, routeOptions(SearchSchema), async (request, reply) => {
    const parameters = parseSearchParameters(request.url);
    const { search } = await serviceAt(request, reply, parameters.callback !== undefined);
    const startedMs = performance.now();
    const result = await search.search({
      q: parameters.q,
      pageNumber: parameters.page_number,
      numberPerPage: parameters.number_per_page,
      sortKeys: parameters.sortKeys,
      category: parameters.category,
      drilldown: parameters.drilldown,
      doctype: parameters.doctype,
    });
    options.searchTimer?.observeSearch((performance.now() - startedMs) / 1000);
    const body = {
      parameter: {
        q: parameters.q,
        input_encoding: parameters.input_encoding,
        page_number: parameters.page_number,
        number_per_page: parameters.number_per_page,
        sort_by: parameters.sort_by,
        category: parameters.category,
        drilldown: parameters.drilldown,
        doctype: parameters.doctype,
      },
      ...result,
    };
    return answer(reply, body, parameters.callback);
  });

  app.get(`${DOC_PATH}/suggest`, routeOptions(SuggestSchema), async (request, reply) => {
    const parameters = parseSuggestParameters(request.url);
    const { search } = await serviceAt(request, reply, parameters.callback !== undefined);
    const suggestions = search.suggest(parameters.q, parameters.number_per_suggestion);
    return answer(reply, { suggestions }, parameters.callback);
  });

  app.get(`${DOC_PATH}/related_keywords`, routeOptions(RelatedKeywordsSchema), async (request, reply) => {
    const parameters = parseRelatedKeywordsParameters(request.url);
    const { search } = await serviceAt(request, reply, parameters.callback !== undefined);
    const words = search.relatedKeywords(parameters.q, parameters.prefix);
    return answer(reply, { related_keywords: words.map((word) => ({ word })) }, parameters.callback);
  });

  app.get(`${DOC_PATH}/click`, routeOptions(ClickSchema), async (request, reply) => {
    const parameters = parseClickParameters(request.url);
    const { search } = await serviceAt(request, reply);
    // Only URLs of the index are redirected to: anything else would make this an open redirect.
    if (!search.click(parameters.url, parameters.q)) {
      throw new ApiError('not_found', 'url: not a page of this search service', [
        { field: 'query.url', reason: 'is not in the index of this search service' },
      ]);
    }
    // The URL as the index holds it may contain non-ASCII characters; a header carries its ASCII form.
    const location = new URL(parameters.url).href;
    return reply.code(302).header('location', location).header('cache-control', 'no-store').send();
  });
};

/** The service, or 503 when its index cannot be opened (the cause is logged and named). */
async function openService(
  services: SearchServices,
  contractId: number,
  servicegroupId: number,
  serviceId: number,
): Promise<OpenSearchService | undefined> {
  try {
    return await services.get(contractId, servicegroupId, serviceId);
  } catch (error) {
    if (error instanceof SearchIndexUnavailableError) throw new ApiError('unavailable', error.message);
    throw error;
  }
}

/** JSON, or JSONP when a callback was given (docs/reference/site-search.md, JSONP). */
function answer(reply: FastifyReply, body: object, callback: string | undefined) {
  if (callback === undefined) return body;
  return reply
    .type(JSONP_CONTENT_TYPE)
    .header('x-content-type-options', 'nosniff')
    .send(jsonpBody(callback, body));
}
