import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { ApiError } from '../api-error.js';
import type { MethodRegistry } from '../method-not-allowed.js';
import {
  type AssetEncoding,
  isConsoleFile,
  isWebAssetsProblem,
  WIDGET_BASE_PATH,
  type WebAsset,
  type WebAssetsLoad,
} from './widget-assets.js';

export interface WidgetAssetRoutesOptions {
  assets: WebAssetsLoad;
  methods: MethodRegistry;
}

/**
 * The contract path (`kumo-search.js`) is what site owners paste: a fix reaches their visitors
 * within the hour, and a stale copy is used while it revalidates. The content-addressed path
 * never changes its bytes, so it is cached for a year (docs/reference/widget.md, Caching and the
 * two paths).
 */
const CONTRACT_CACHE = 'public, max-age=3600, stale-while-revalidate=86400';
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** The manifest names the current immutable paths: always revalidated, cheaply by its ETag. */
const MANIFEST_CACHE = 'no-cache';
const ENCODINGS: AssetEncoding[] = ['br', 'gzip', 'identity'];

/**
 * GET /widget/v1/<file>: the widget script, the typed client, its declarations and the manifest,
 * from the build read at start (docs/reference/widget.md, Caching and the two paths). Any page may
 * load them, from any origin: they hold no data.
 */
export const widgetAssetRoutes: FastifyPluginAsync<WidgetAssetRoutesOptions> = async (app, options) => {
  const url = `${WIDGET_BASE_PATH}/:file`;
  options.methods.record(url, 'GET');
  app.get(url, { schema: { hide: true } }, async (request, reply) => {
    const { assets } = options;
    if (isWebAssetsProblem(assets)) throw new ApiError('unavailable', assets.problem);
    const { file } = request.params as { file: string };
    const found = assets.lookup(file);
    if (found === undefined || isConsoleFile(found.asset.name)) {
      throw new ApiError(
        'not_found',
        `no widget file ${file}; ${WIDGET_BASE_PATH}/manifest.json lists the current ones`,
      );
    }
    return sendWebAsset(request, reply, found.asset, found.immutable);
  });
};

/** Answers a built file with its caching, CORS and encoding headers (also the console's files). */
export async function sendWebAsset(
  request: FastifyRequest,
  reply: FastifyReply,
  asset: WebAsset,
  immutable: boolean,
) {
  const etag = `"${asset.sha256}"`;
  const notModified = matchesIfNoneMatch(request.headers['if-none-match'], etag);
  const encoding = chosenEncoding(request);
  // Compressed before any header is set: should compressing fail, the 500 carries no cache
  // headers a proxy would keep for a year.
  const body = notModified ? undefined : await asset.body(encoding);
  reply.headers({
    'cache-control': immutable
      ? IMMUTABLE_CACHE
      : asset.name === 'manifest.json'
        ? MANIFEST_CACHE
        : CONTRACT_CACHE,
    etag,
    vary: 'Accept-Encoding',
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
    'timing-allow-origin': '*',
    'x-content-type-options': 'nosniff',
  });
  if (!immutable && asset.name !== 'manifest.json') {
    // An owner who wants to pin this version finds its permanent address here.
    reply.header('link', `<${WIDGET_BASE_PATH}/${asset.immutableName}>; rel="canonical"`);
  }
  if (asset.types !== undefined) {
    // Deno and editors that honour it find the client's types next to the module.
    const types = immutable ? asset.types.immutableName : asset.types.name;
    reply.header('x-typescript-types', `${WIDGET_BASE_PATH}/${types}`);
  }
  if (body === undefined) return reply.code(304).send();
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.type(asset.contentType).send(body);
}

/** If-None-Match matches by weak comparison (RFC 9110, 13.1.2): `W/` and `*` included. */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/**
 * Negotiator 1.x breaks ties of equal quality by a preference list; its type declarations predate
 * that argument.
 */
interface EncodingNegotiator {
  encoding(available: string[], options: { preferred: string[] }): string | undefined;
}

/** Brotli when the client takes it as readily as gzip, else gzip, else the plain bytes. */
function chosenEncoding(request: FastifyRequest): AssetEncoding {
  const accept = request.headers['accept-encoding'];
  if (accept === undefined) return 'identity';
  const negotiator = new Negotiator({ headers: { 'accept-encoding': accept } });
  const chosen = (negotiator as unknown as EncodingNegotiator).encoding(ENCODINGS, { preferred: ENCODINGS });
  return ENCODINGS.find((encoding) => encoding === chosen) ?? 'identity';
}
