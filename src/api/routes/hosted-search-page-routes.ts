import { randomBytes } from 'node:crypto';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { SearchServiceStore } from '../../store/index.js';
import { ApiError } from '../api-error.js';
import { handleError } from '../error-handler.js';
import type { MethodRegistry } from '../method-not-allowed.js';
import { SearchServiceParams } from '../schemas/site-search-schemas.js';
import { toFieldErrors } from '../validation-errors.js';
import {
  type MessageKind,
  messagePageHtml,
  type PageLanguage,
  pageCsp,
  searchPageHtml,
} from './hosted-search-page-html.js';
import { isWebAssetsProblem, type WebAssetsLoad } from './widget-assets.js';

export interface HostedSearchPageRoutesOptions {
  searchServices: SearchServiceStore;
  assets: WebAssetsLoad;
  /** The site search API base the page's widget calls, on this origin. */
  finderBasePath: string;
  /**
   * The console's origin when it is not the page's own (KUMO_PUBLIC_URL differs from
   * KUMO_SEARCH_PUBLIC_URL): its Try it frames the page.
   */
  consoleOrigin?: string;
  methods: MethodRegistry;
}

export const HOSTED_PAGE_PATH = '/search/:contract_id/:servicegroup_id/:service_id';
const LANGUAGES: readonly PageLanguage[] = ['en', 'ja'];
const MESSAGE_KINDS: Partial<Record<number, MessageKind>> = {
  400: 'invalid',
  404: 'not_found',
  503: 'unavailable',
};

interface PageParams {
  contract_id: number;
  servicegroup_id: number;
  service_id: number;
}

/**
 * GET /search/{contract_id}/{servicegroup_id}/{service_id}: the hosted results page
 * (docs/reference/widget.md, Hosted search page), for site owners who only link a form to it. It
 * answers HTML, failures included (404 for an unknown service, 400 for a bad id or language, 503
 * when the widget is not built), since a visitor's browser reads it; the query string is the
 * widget's state.
 */
export const hostedSearchPageRoutes: FastifyPluginAsync<HostedSearchPageRoutesOptions> = async (
  app,
  options,
) => {
  options.methods.record(HOSTED_PAGE_PATH, 'GET');
  app.get(
    HOSTED_PAGE_PATH,
    {
      schema: { hide: true, params: SearchServiceParams },
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Fastify awaits an error handler's promise
      errorHandler: (error, request, reply) => answerHtmlError(error, request, reply, options.consoleOrigin),
    },
    async (request, reply) => {
      const lang = languageOf(request);
      const { contract_id, servicegroup_id, service_id } = request.params as PageParams;
      const record = await options.searchServices.get(service_id);
      if (
        record === undefined ||
        record.contractId !== contract_id ||
        record.servicegroupId !== servicegroup_id
      ) {
        throw new ApiError(
          'not_found',
          `no search service ${service_id} in contract ${contract_id}, service group ${servicegroup_id}`,
        );
      }
      if (isWebAssetsProblem(options.assets)) throw new ApiError('unavailable', options.assets.problem);
      const nonce = nonceOf();
      const html = searchPageHtml({
        lang,
        nonce,
        serviceName: record.name,
        service: `${contract_id}/${servicegroup_id}/${service_id}`,
        widgetPath: options.assets.widgetPath(),
        // An empty base puts the API at the root: "/" keeps the attribute a path.
        apiBase: options.finderBasePath === '' ? '/' : options.finderBasePath,
      });
      return sendPage(reply, { status: 200, lang, nonce, consoleOrigin: options.consoleOrigin }, html);
    },
  );
};

/**
 * `?lang=en|ja`, else the best of Accept-Language, else English. Another `lang` is a 400, unless
 * `lenient` (the language of that 400's own page).
 */
function languageOf(request: FastifyRequest, lenient = false): PageLanguage {
  const asked = (request.query as Record<string, unknown> | undefined)?.lang;
  if (asked !== undefined && !lenient) {
    if (typeof asked === 'string' && (LANGUAGES as readonly string[]).includes(asked)) {
      return asked as PageLanguage;
    }
    throw new ApiError('invalid_input', `query.lang: "${String(asked)}" is not en or ja`, [
      { field: 'query.lang', reason: `"${String(asked)}" is not en or ja` },
    ]);
  }
  const accept = request.headers['accept-language'];
  if (accept === undefined || accept.trim() === '') return 'en';
  const best = new Negotiator({ headers: { 'accept-language': accept } }).language([...LANGUAGES]);
  return best === 'ja' ? 'ja' : 'en';
}

/** The page's failures as HTML pages with the status and message the API would answer. */
async function answerHtmlError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  consoleOrigin: string | undefined,
) {
  let status: number;
  let message: string;
  if (error instanceof ApiError) {
    status = error.statusCode;
    message = error.message;
  } else if (error.validation) {
    const first = toFieldErrors(error.validation, error.validationContext ?? 'request')[0];
    status = 400;
    message = first ? `${first.field}: ${first.reason}` : 'the request is invalid';
  } else {
    return handleError(error, request, reply);
  }
  const kind = MESSAGE_KINDS[status];
  if (kind === undefined) return handleError(error, request, reply);
  let lang: PageLanguage;
  try {
    lang = languageOf(request);
  } catch {
    // A bad lang value cannot choose the language of its own error page.
    lang = languageOf(request, true);
  }
  const nonce = nonceOf();
  return sendPage(reply, { status, lang, nonce, consoleOrigin }, messagePageHtml(lang, nonce, kind, message));
}

function nonceOf(): string {
  return randomBytes(16).toString('base64');
}

interface PageAnswer {
  status: number;
  lang: PageLanguage;
  nonce: string;
  consoleOrigin: string | undefined;
}

function sendPage(reply: FastifyReply, answer: PageAnswer, html: string) {
  const { status, lang, nonce, consoleOrigin } = answer;
  return reply
    .code(status)
    .headers({
      'content-security-policy': pageCsp(nonce, consoleOrigin),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      // The nonce changes with every answer; revalidating keeps back/forward cache usable.
      'cache-control': 'no-cache',
      vary: 'Accept-Language',
      'content-language': lang,
    })
    .type('text/html; charset=utf-8')
    .send(html);
}
