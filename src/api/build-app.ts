import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { ArtifactStore } from '../blob/index.js';
import type { BlobDownloads } from '../config/index.js';
import type {
  InstantCrawlService,
  TenantWork,
  Management,
  ScheduledCrawlService,
} from '../usecases/index.js';
import type { SearchServices } from '../search/index.js';
import type { RecordStore } from '../store/index.js';
import { type Clock, KUMO_VERSION } from '../util/index.js';
import { ApiError, ngBody } from './api-error.js';
import type { DownloadSigner } from './download-signer.js';
import { handleError } from './error-handler.js';
import { answerClientError, answerFrameworkError } from './framework-errors.js';
import { addContentDecoding } from './content-encoding.js';
import { addJsonBodyParser } from './json-body-parser.js';
import { acceptsJson, acceptsJsonOrScript, wantsRunEvents } from './hooks/accept-json.js';
import { addDecimalIdCheck } from './hooks/decimal-ids.js';
import { requestIdOf } from './hooks/request-id.js';
import { addShuttingDownHook } from './hooks/shutting-down.js';
import { MethodRegistry } from './method-not-allowed.js';
import type { ArtifactDownloads } from './routes/send-artifact.js';
import { PrefixGuards } from './prefix-guards.js';
import { RateLimiter } from './rate-limiter.js';
import { createAdminAuth } from './routes/admin/admin-auth.js';
import { adminRoutes } from './routes/admin/admin-routes.js';
import { createManagementAuth } from './routes/admin/management-auth.js';
import { downloadRoutes } from './routes/download-routes.js';
import { scheduledCrawlerRoutes } from './routes/scheduled-crawler-routes.js';
import { scheduledDownloadRoutes } from './routes/scheduled-download-routes.js';
import type { BrowserAvailability } from '../browser/index.js';
import { healthRoutes } from './routes/health-routes.js';
import { METRICS_PATH, metricsRoutes } from './routes/metrics-routes.js';
import type { HealthSources, ServiceMetrics } from '../observability/index.js';
import { logsDebug, type ServiceLogger } from '../observability/service-logger.js';
import { instantCrawlRoutes } from './routes/instant-crawl-routes.js';
import { siteSearchRoutes } from './routes/site-search-routes.js';
import { hostedSearchPageRoutes } from './routes/hosted-search-page-routes.js';
import { consoleRoutes } from './routes/console-routes.js';
import { rootRoutes } from './routes/root-routes.js';
import { widgetAssetRoutes } from './routes/widget-asset-routes.js';
import type { WebAssetsLoad } from './routes/widget-assets.js';
import { createTenantAuth } from './tenant-auth.js';
import { lazySerializers } from './serializer-compiler.js';
import { compileValidator } from './validator-compiler.js';

export interface AppDeps {
  store: RecordStore;
  instantCrawl: InstantCrawlService;
  /** Where a tenant's patterns are checked, off the API thread (docs/security.md). */
  tenantWork: TenantWork;
  scheduledCrawl: ScheduledCrawlService;
  searchServices: SearchServices;
  /** The management operations behind /admin/v1. */
  management: Management;
  /** Bearer token of the management API. */
  adminToken: string;
  artifacts: ArtifactStore;
  signer: DownloadSigner;
  clock: Clock;
  settings: {
    publicUrl: string;
    /**
     * KUMO_SEARCH_PUBLIC_URL: where visitors reach site search, the widget and the hosted search
     * pages, told to the console; unset: this process knows no such address.
     */
    searchPublicUrl?: string;
    timezone: string;
    instantCrawlerBasePath: string;
    crawlerBasePath: string;
    finderBasePath: string;
    /** Instant crawl API requests a minute per API key (0 or unset: no limit). */
    rateLimitPerMinute?: number;
    /** How downloads reach clients (KUMO_BLOB_DOWNLOADS); default through Kumo's signed URLs. */
    blobDownloads?: BlobDownloads;
  };
  /** The process's logger (createServiceLogger); none: nothing is logged. */
  logger?: ServiceLogger;
  /** Browser availability for the health check (screenshots, wait_type 2). */
  browserStatus?: () => BrowserAvailability | undefined;
  /** GET /metrics and what it counts, and the health check's artifact folder and scheduler. */
  observability?: { metrics: ServiceMetrics; health?: HealthSources };
  /**
   * Which API groups are answered besides the health check and metrics (default both; a process
   * of a cluster answers those of its roles, docs/operations.md, Roles): `api` the crawl,
   * scheduled crawler, management and download APIs and the console; `search` the site search
   * API, the widget and the hosted search pages.
   */
  answers?: { api: boolean; search: boolean };
  /**
   * The browser build (dist/web) read at start, or why it cannot be served: the widget paths and
   * the hosted search page answer 503 then (docs/reference/widget.md).
   */
  webAssets?: WebAssetsLoad;
}

/** The management API (tenants, keys, crawl service settings, search services, webhooks). */
export const ADMIN_BASE_PATH = '/admin/v1';

/** Request bodies larger than this are refused with 413 (a setting is a few KB at most). */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** Builds the HTTP application without listening, so tests can call `app.inject()`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // Seen by the routes as Fastify's logger type, which a pino logger is.
  const loggerInstance: FastifyBaseLogger | undefined = deps.logger;
  const app = Fastify({
    // Its redaction keeps credentials and setting passwords out of every line.
    loggerInstance,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestIdOf,
    frameworkErrors: answerFrameworkError,
    // The shutting-down hook answers requests during a stop (NG body, Retry-After), not Fastify.
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    requestIdHeader: false,
    // Download strings and ids are well under 256 characters; a longer part is a 400, not a 414.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(compileValidator);
  // Only JSON bodies are read: a text/plain body is a 415 like any other media type.
  app.removeContentTypeParser('text/plain');
  addJsonBodyParser(app);
  addContentDecoding(app, BODY_LIMIT_BYTES);
  app.addHook('onRoute', addDecimalIdCheck);
  addShuttingDownHook(app);
  app.setErrorHandler(handleError);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  const metrics = deps.observability?.metrics;
  if (metrics !== undefined) {
    // By route template (never the raw URL, which would make a series per id); no route: unmatched.
    app.addHook('onResponse', async (request, reply) => {
      const route = request.is404 ? undefined : request.routeOptions.url;
      metrics.recordRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    });
  }
  const guards = prefixGuardsOf(deps);
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0]!;
    // Under an authenticated prefix, credentials first: a 404 would tell a caller without them
    // which paths exist (docs/reference/conventions.md, Status codes).
    await guards.guardOf(decodedPath(path))?.(request);
    return reply.code(404).send(ngBody(`no resource at ${request.method} ${path}`));
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Kumo API',
        version: KUMO_VERSION,
        description:
          'Instant crawl, downloads and site search. Failures answer {"status": "NG", "message", "errors"}. ' +
          'Timestamps use yyyy-MM-ddTHH:mm:ss.SSSSSS+NN:NN in the service time zone.',
      },
      servers: [{ url: deps.settings.publicUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-mf-apikey' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'KUMO_ADMIN_TOKEN' },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'kumo_session',
            description:
              'a console session (POST /admin/v1/session); changes also need x-kumo-csrf-token and Origin',
          },
          operatorCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'kumo_operator',
            description:
              "the operator's console session (POST /admin/v1/operator_session with the admin token); acts as " +
              'the admin token; changes also need x-kumo-csrf-token and Origin',
          },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const methods = new MethodRegistry();
  const downloads = { store: deps.artifacts, mode: deps.settings.blobDownloads ?? 'kumo' } as const;
  const jsonOnly = async (request: Parameters<typeof acceptsJson>[0]) => {
    // A run's events are the one stream of the management API (docs/api.md, Run events).
    if (!acceptsJson(request) && !wantsRunEvents(request)) throw new ApiError('not_acceptable');
  };

  /** Routes under `prefix` that answer only JSON (406 for an Accept that excludes it). */
  const registerJsonOnly = (prefix: string, register: (scope: FastifyInstance) => PromiseLike<unknown>) =>
    app.register(
      async (scope) => {
        scope.addHook('onRequest', jsonOnly);
        await register(scope);
      },
      { prefix },
    );

  const answers = deps.answers ?? { api: true, search: true };
  if (answers.api)
    await registerJsonOnly(deps.settings.instantCrawlerBasePath, (scope) =>
      scope.register(instantCrawlRoutes, {
        service: deps.instantCrawl,
        apiKeys: deps.store.apiKeys,
        timezone: deps.settings.timezone,
        methods,
        basePath: deps.settings.instantCrawlerBasePath,
        rateLimiter: new RateLimiter({
          perMinute: deps.settings.rateLimitPerMinute ?? 0,
          nowMs: () => deps.clock.nowMicros() / 1000,
        }),
      }),
    );
  await app.register(
    async (scope) => {
      scope.addHook('onRequest', async (request) => {
        if (!acceptsJsonOrScript(request)) throw new ApiError('not_acceptable');
      });
      if (answers.search)
        await scope.register(siteSearchRoutes, {
          services: deps.searchServices,
          methods,
          basePath: deps.settings.finderBasePath,
          searchTimer: metrics,
          // Visitors' searches are the bulk of the traffic: below `debug` their request and
          // response lines are not written (warnings and errors are, and /metrics counts every
          // request); docs/operations.md, Logs and progress.
          ...(!logsDebug(deps.logger) && { logLevel: 'warn' }),
        });
      await scope.register(healthRoutes, {
        storeHealthy: async () => (await deps.store.ping()) && deps.searchServices.healthy(),
        browserStatus: () => deps.browserStatus?.(),
        sources: deps.observability?.health,
        timezone: deps.settings.timezone,
        methods,
        basePath: deps.settings.finderBasePath,
      });
    },
    { prefix: deps.settings.finderBasePath },
  );
  if (answers.api) await registerCrawlAndManagement(app, deps, { registerJsonOnly, methods, downloads });
  // Scripts and an HTML page: outside the JSON-only prefixes, so no Accept header makes them a 406.
  const webAssets = deps.webAssets ?? { problem: 'the widget build was not given to this server' };
  if (answers.search) await app.register(widgetAssetRoutes, { assets: webAssets, methods });
  if (answers.api) await app.register(consoleRoutes, { assets: webAssets, methods });
  await app.register(rootRoutes, { methods, console: answers.api });
  if (answers.search)
    await app.register(hostedSearchPageRoutes, {
      searchServices: deps.store.searchServices,
      assets: webAssets,
      finderBasePath: deps.settings.finderBasePath,
      consoleOrigin: consoleOriginBeside(deps.settings),
      methods,
    });
  if (metrics !== undefined)
    await app.register(metricsRoutes, {
      metrics,
      adminToken: deps.adminToken,
      adminTokenChecks: deps.management.operatorSessions,
      methods,
    });
  methods.registerFallbacks(app, (url) => guards.guardOf(url));
  return app;
}

/** The crawl, scheduled crawler, management and download routes: the api role's. */
async function registerCrawlAndManagement(
  app: FastifyInstance,
  deps: AppDeps,
  parts: {
    registerJsonOnly: (
      prefix: string,
      register: (scope: FastifyInstance) => PromiseLike<unknown>,
    ) => PromiseLike<unknown>;
    methods: MethodRegistry;
    downloads: ArtifactDownloads;
  },
): Promise<void> {
  const { registerJsonOnly, methods, downloads } = parts;
  await registerJsonOnly(deps.settings.crawlerBasePath, (scope) =>
    scope.register(scheduledCrawlerRoutes, {
      service: deps.scheduledCrawl,
      timezone: deps.settings.timezone,
      methods,
      basePath: deps.settings.crawlerBasePath,
    }),
  );
  await registerJsonOnly(ADMIN_BASE_PATH, (scope) =>
    scope.register(adminRoutes, {
      management: deps.management,
      adminToken: deps.adminToken,
      publicUrl: deps.settings.publicUrl,
      searchPublicUrl: deps.settings.searchPublicUrl,
      servesSearch: (deps.answers ?? { search: true }).search,
      timezone: deps.settings.timezone,
      methods,
      downloads,
      basePath: ADMIN_BASE_PATH,
    }),
  );
  await app.register(scheduledDownloadRoutes, {
    service: deps.scheduledCrawl,
    downloads,
    methods,
  });
  await app.register(downloadRoutes, {
    service: deps.instantCrawl,
    apiKeys: deps.store.apiKeys,
    downloads,
    signer: deps.signer,
    clock: deps.clock,
    publicUrl: deps.settings.publicUrl,
    methods,
  });
}

/**
 * The credentials each API prefix asks for: the management token (or, under /admin/v1, a console
 * session) under /admin/v1 and /metrics,
 * an API key under the instant crawl API and its downloads; none for site search and the
 * scheduled crawler (docs/reference/README.md, API groups).
 */
function prefixGuardsOf(deps: AppDeps): PrefixGuards {
  const adminAuth = createAdminAuth(deps.adminToken, deps.management.operatorSessions);
  const managementAuth = createManagementAuth({
    adminToken: deps.adminToken,
    management: deps.management,
    publicUrl: deps.settings.publicUrl,
  });
  const keyAuth = createTenantAuth(deps.store.apiKeys);
  const { instantCrawlerBasePath, crawlerBasePath, finderBasePath } = deps.settings;
  // An empty base path puts the instant crawl routes at /contracts/...: guard that, not every path.
  const instantPrefix = instantCrawlerBasePath === '' ? '/contracts' : instantCrawlerBasePath;
  return new PrefixGuards([
    { prefix: ADMIN_BASE_PATH, guard: managementAuth },
    { prefix: METRICS_PATH, guard: adminAuth },
    { prefix: instantPrefix, guard: keyAuth },
    { prefix: '/instant_crawler', guard: keyAuth },
    { prefix: crawlerBasePath === '' ? '/contracts' : crawlerBasePath, guard: undefined },
    { prefix: finderBasePath === '' ? '/contracts' : finderBasePath, guard: undefined },
  ]);
}

/**
 * The console's origin (KUMO_PUBLIC_URL's) when search is reached at another one
 * (KUMO_SEARCH_PUBLIC_URL's): the hosted search page lets it frame the page for Try it.
 */
function consoleOriginBeside(settings: AppDeps['settings']): string | undefined {
  if (settings.searchPublicUrl === undefined) return undefined;
  const consoleOrigin = new URL(settings.publicUrl).origin;
  return consoleOrigin === new URL(settings.searchPublicUrl).origin ? undefined : consoleOrigin;
}

/** The path with its %-escapes decoded (`/%61dmin/v1` is /admin/v1), or as sent when malformed. */
function decodedPath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
