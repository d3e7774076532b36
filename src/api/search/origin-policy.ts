import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../api-error.js';

/**
 * A search service may list the origins whose pages call it (docs/reference/site-search.md,
 * Origins). The caller's origin is the Origin header, else the origin of the Referer
 * (a JSONP script tag sends only a Referer). With a list, another origin is refused with 403 and
 * a listed one gets CORS access. A request without either header is served as JSON when it is
 * not a browser's cross-site request (a server, curl), but a JSONP call must name a listed
 * origin: a page on another site can load the script with its Referer suppressed.
 * Without a list any page may call the API.
 *
 * A browser's request from a page of Kumo's own origin (`Sec-Fetch-Site: same-origin`, a header
 * pages cannot set) is always served: the hosted search page calls the API from there
 * (docs/reference/widget.md, Origin policy). A refusal is readable by the refused page, as every
 * failure of the site search API is (site-search-routes.ts gives failures
 * `Access-Control-Allow-Origin: *`), so a widget there shows why it cannot search.
 */
export function applyOriginPolicy(
  request: FastifyRequest,
  reply: FastifyReply,
  allowed: readonly string[],
  jsonp: boolean,
): void {
  if (allowed.length === 0) {
    reply.header('access-control-allow-origin', '*');
    return;
  }
  reply.header('vary', 'Origin, Referer, Sec-Fetch-Site');
  const site = request.headers['sec-fetch-site'];
  if (site === 'same-origin') return;
  const origin = callerOrigin(request);
  if (origin === undefined) {
    if (jsonp || site === 'cross-site' || site === 'same-site') {
      throw refused('this search service answers only pages of its allowed origins');
    }
    return;
  }
  if (!allowed.some((entry) => entry.replace(/\/$/, '') === origin)) {
    throw refused(`origin ${origin} may not use this search service`);
  }
  reply.header('access-control-allow-origin', origin);
}

function refused(message: string): ApiError {
  return new ApiError('forbidden_origin', message);
}

function callerOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '' && origin !== 'null') return origin;
  const referer = request.headers.referer;
  if (typeof referer !== 'string' || referer === '') return origin === 'null' ? 'null' : undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}
