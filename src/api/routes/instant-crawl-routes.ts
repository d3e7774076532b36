import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type InstantCrawlService, crawlHistoryView, crawlStatusView } from '../../usecases/index.js';
import { ActiveRunLimitError, type ApiKeyStore, type TenantRef } from '../../store/index.js';
import { ApiError } from '../api-error.js';
import { ATTACH_VALIDATION, failOnBodyErrors } from '../every-field-error.js';
import type { MethodRegistry } from '../method-not-allowed.js';
import type { RateLimiter } from '../rate-limiter.js';
import { checkDatetimeRange, parseDatetimeParameter } from '../query-datetime.js';
import {
  CancelSchema,
  HistoriesSchema,
  RequestCrawlSchema,
  StatusesSchema,
} from '../schemas/instant-crawl-schemas.js';
import { createTenantAuth, tenantOf } from '../tenant-auth.js';

export interface InstantCrawlRoutesOptions {
  service: InstantCrawlService;
  apiKeys: ApiKeyStore;
  timezone: string;
  methods: MethodRegistry;
  /** Base path the plugin is mounted under, for the 405 registry. */
  basePath: string;
  /** Per-API-key request limit of every route here (checked after authentication). */
  rateLimiter?: RateLimiter;
}

const TENANT_PATH = '/contracts/:contract_id/servicegroups/:servicegroup_id/crawler';
const MAX_STATUS_IDS = 100;
/** Retry-After of a request refused for too many active crawls: about the time a small crawl takes. */
export const ACTIVE_RUN_RETRY_AFTER_SECONDS = 30;

/** The instant crawl API (docs/reference/instant-crawl.md): request, statuses, cancel, histories. */
export const instantCrawlRoutes: FastifyPluginAsyncTypebox<InstantCrawlRoutesOptions> = async (
  app,
  options,
) => {
  const { service, timezone, methods } = options;
  app.addHook('preValidation', createTenantAuth(options.apiKeys));
  const limiter = options.rateLimiter;
  if (limiter?.enabled) {
    // After the auth hook (hooks run in order): the bucket is the verified key's.
    app.addHook('preValidation', async (request) => {
      const decision = limiter.take(String(request.apiKeyId));
      if (decision.allowed) return;
      const seconds = decision.retryAfterSeconds;
      const reason = `at most ${limiter.perMinute} requests a minute per API key; retry in ${seconds} s`;
      throw tooMany('too many requests', 'header.x-mf-apikey', reason, seconds);
    });
  }
  const record = (method: 'GET' | 'POST' | 'PUT', url: string) =>
    methods.record(`${options.basePath}${url}`, method);

  record('POST', `${TENANT_PATH}/request`);
  app.post(
    `${TENANT_PATH}/request`,
    { schema: RequestCrawlSchema, ...ATTACH_VALIDATION },
    async (request) => {
      const tenant = tenantOf(request);
      // The schema's errors and the setting's rules' in one 400 (docs/api.md, Common rules); the
      // service checks the setting itself, so a body the schema passes is checked there.
      await failOnBodyErrors(request, (rest) =>
        service.settingErrors(tenant, (rest as { setting?: unknown }).setting),
      );
      const run = await requestWithinCap(service, tenant, request.body.setting);
      return { message: 'crawl request accepted', status: 'OK', instant_crawl_request_id: run.requestId };
    },
  );

  record('GET', `${TENANT_PATH}/statuses`);
  app.get(`${TENANT_PATH}/statuses`, { schema: StatusesSchema }, async (request) => {
    const ids = parseIdList(request.query.instant_crawl_request_ids);
    const tenant = tenantOf(request);
    const runs = await service.activeRuns(tenant, ids);
    const waiting = await service.waitingReasons(tenant, runs);
    const statuses = runs.map((run) => crawlStatusView(run, timezone, waiting.get(run.id)));
    // crawl_status follows the order the client asked for; ids of finished runs are skipped.
    const first =
      ids === undefined
        ? statuses[0]
        : ids.map((id) => statuses.find((s) => s.instant_crawl_request_id === id)).find(Boolean);
    return {
      message:
        statuses.length > 0
          ? `${statuses.length} crawl(s) pending or running`
          : 'no crawl pending or running',
      crawl_status: first ?? {},
      crawl_statuses: statuses,
    };
  });

  record('PUT', `${TENANT_PATH}/statuses/requests/:instant_crawl_request_id/cancel`);
  app.put(
    `${TENANT_PATH}/statuses/requests/:instant_crawl_request_id/cancel`,
    { schema: CancelSchema },
    async (request) => {
      const result = await service.cancel(tenantOf(request), request.params.instant_crawl_request_id);
      if (result.kind === 'not_found') {
        throw new ApiError('not_found', `no crawl request ${request.params.instant_crawl_request_id}`);
      }
      if (result.kind === 'already_finished') {
        return {
          message: 'the crawl has already finished',
          status: 'NG',
          crawl_status: crawlStatusView(result.run, timezone),
        };
      }
      return {
        message: 'cancel requested',
        status: 'OK',
        crawl_status: crawlStatusView(result.run, timezone),
      };
    },
  );

  record('GET', `${TENANT_PATH}/histories`);
  app.get(`${TENANT_PATH}/histories`, { schema: HistoriesSchema }, async (request) => {
    const { from_datetime, to_datetime, instant_crawl_request_id } = request.query;
    const fromMicros = parseDatetimeParameter(from_datetime, 'from_datetime');
    const toMicros = parseDatetimeParameter(to_datetime, 'to_datetime');
    checkDatetimeRange(fromMicros, toMicros);
    const runs = await service.histories(tenantOf(request), {
      fromMicros,
      toMicros,
      requestId: instant_crawl_request_id,
    });
    return {
      message: `${runs.length} crawl history record(s)`,
      status: 'OK',
      crawl_histories: runs.map((run) => crawlHistoryView(run, timezone)),
    };
  });
};

/** 429 NG with Retry-After (whole seconds, at least 1). */
function tooMany(message: string, field: string, reason: string, retryAfterSeconds: number): ApiError {
  return new ApiError('rate_limited', `${message}: ${reason}`, [{ field, reason }], {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
}

/** Queues the run, or 429 when the tenant has KUMO_MAX_ACTIVE_RUNS_PER_TENANT pending or running. */
async function requestWithinCap(service: InstantCrawlService, tenant: TenantRef, setting: unknown) {
  try {
    return await service.request(tenant, setting);
  } catch (error) {
    if (!(error instanceof ActiveRunLimitError)) throw error;
    throw activeRunsRefused(error);
  }
}

/** The 429 of a crawl refused at KUMO_MAX_ACTIVE_RUNS_PER_TENANT (the instant crawl API, the console). */
export function activeRunsRefused(error: ActiveRunLimitError): ApiError {
  const reason =
    `${error.active} crawls of this service group are pending or running; at most ${error.limit} at once. ` +
    'Retry when one has finished, or cancel one';
  return tooMany('too many active crawls', 'path.servicegroup_id', reason, ACTIVE_RUN_RETRY_AFTER_SECONDS);
}

/** Comma-separated decimal ids, nothing else between them (docs/reference/instant-crawl.md). */
function parseIdList(raw: string | undefined): number[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  const parts = raw.split(',');
  const field = 'query.instant_crawl_request_ids';
  if (parts.length > MAX_STATUS_IDS) {
    const reason = `at most ${MAX_STATUS_IDS} ids`;
    throw new ApiError('invalid_input', `instant_crawl_request_ids: ${reason}`, [{ field, reason }]);
  }
  const bad = parts.find((part) => !/^[1-9]\d{0,15}$/.test(part));
  if (bad !== undefined) {
    const reason = `"${bad}" is not a decimal integer id`;
    throw new ApiError('invalid_input', `instant_crawl_request_ids: ${reason}`, [{ field, reason }]);
  }
  return parts.map(Number);
}
