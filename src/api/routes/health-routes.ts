import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { BrowserAvailability } from '../../browser/index.js';
import {
  type HealthSources,
  runLeaseProblem,
  type SchedulerHealth,
  schedulerProblem,
} from '../../observability/index.js';
import { formatApiTimestamp } from '../../util/index.js';
import type { MethodRegistry } from '../method-not-allowed.js';

export interface HealthRoutesOptions {
  /** Answers whether the store (and every open search index) answers; throwing counts as no. */
  storeHealthy: () => Promise<boolean>;
  /** Whether screenshots and wait_type 2 can run here; plain crawls do not need it. */
  browserStatus: () => BrowserAvailability | undefined;
  /** The artifact storage and the scheduler; without them those components are not reported. */
  sources?: HealthSources;
  /** Time zone of `last_tick_datetime`. */
  timezone: string;
  methods: MethodRegistry;
  /** Base path the plugin is mounted under, for the 405 registry. */
  basePath: string;
}

const Status = Type.Union([Type.Literal('OK'), Type.Literal('NG')]);
const Component = {
  status: Status,
  /** Why the component is NG. */
  message: Type.Optional(Type.String()),
};

const HealthBody = Type.Object({
  status: Status,
  message: Type.String(),
  browser: Type.Optional(Type.Object({ available: Type.Boolean() })),
  components: Type.Object({
    store: Type.Object(Component),
    blob_store: Type.Optional(Type.Object(Component)),
    /** Availability only: a missing browser does not make the service unhealthy. */
    browser: Type.Optional(Type.Object({ available: Type.Boolean() })),
    run_leases: Type.Optional(Type.Object({ ...Component, held: Type.Integer() })),
    /** Reported only: a node behind on some services still serves them, from the generation it has. */
    search_generations: Type.Optional(
      Type.Object({ behind: Type.Integer(), message: Type.Optional(Type.String()) }),
    ),
    scheduler: Type.Optional(
      Type.Object({
        ...Component,
        running: Type.Boolean(),
        last_tick_datetime: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
  }),
});

const HealthSchema = {
  summary: 'Health check',
  description:
    'OK (200) when the store, the artifact folder and the scheduler are fine, NG (503) otherwise. ' +
    'The browser is reported but does not make the service unhealthy: plain crawls do not need it.',
  tags: ['site search'],
  response: {
    200: HealthBody,
    503: HealthBody,
  },
};

interface ComponentView {
  status: 'OK' | 'NG';
  message?: string;
}

const componentOf = (problem: string | undefined): ComponentView =>
  problem === undefined ? { status: 'OK' } : { status: 'NG', message: problem };

/**
 * GET {finder_base}/health_check (docs/reference/site-search.md, Health check): 200 OK, or 503 NG
 * when the store, the artifact folder or the scheduler fails. Public, so it names no path, version
 * or tenant.
 */
export const healthRoutes: FastifyPluginAsyncTypebox<HealthRoutesOptions> = async (app, options) => {
  options.methods.record(`${options.basePath}/health_check`, 'GET');
  app.get('/health_check', { schema: HealthSchema }, async (request, reply) => {
    const store = componentOf(await storeProblem(options.storeHealthy));
    const blobStore = options.sources && componentOf(await blobStoreProblem(options.sources));
    const scheduler =
      options.sources?.scheduler && schedulerView(options.sources.scheduler(), options.timezone);
    const browser = browserView(options.browserStatus());
    const leases = options.sources?.runLeases?.();
    const runLeases = leases && { ...componentOf(runLeaseProblem(leases)), held: leases.held };
    const followed = options.sources?.searchGenerations?.();
    const searchGenerations = followed && {
      behind: followed.behind,
      ...(followed.problem !== undefined && { message: followed.problem }),
    };
    const failing = Object.entries({ store, blob_store: blobStore, scheduler, run_leases: runLeases })
      .filter(([, component]) => component?.status === 'NG')
      .map(([name]) => name);
    const body = {
      status: failing.length === 0 ? ('OK' as const) : ('NG' as const),
      message: failing.length === 0 ? 'healthy' : `unhealthy: ${failing.join(', ')}`,
      browser,
      components: {
        store,
        blob_store: blobStore,
        browser,
        scheduler,
        ...(runLeases && { run_leases: runLeases }),
        ...(searchGenerations && { search_generations: searchGenerations }),
      },
    };
    if (failing.length === 0) return body;
    request.log.warn({ components: body.components }, 'health check failed');
    return reply.code(503).send(body);
  });
};

async function storeProblem(storeHealthy: () => Promise<boolean>): Promise<string | undefined> {
  try {
    if (await storeHealthy()) return undefined;
  } catch {
    // counted as not answering
  }
  return 'the store is not answering';
}

async function blobStoreProblem(sources: HealthSources): Promise<string | undefined> {
  try {
    return await sources.blobStoreProblem();
  } catch {
    return 'the artifact storage cannot be checked';
  }
}

function schedulerView(state: SchedulerHealth | undefined, timezone: string) {
  const last = state?.lastTickMicros;
  return {
    ...componentOf(schedulerProblem(state)),
    running: state?.running ?? false,
    last_tick_datetime: last === undefined ? null : formatApiTimestamp(last, timezone),
  };
}

/**
 * Only whether rendering works: the check is public, and the browser's version and path would
 * tell an attacker which exploits to try. `kumo serve` prints the details at start.
 */
function browserView(status: BrowserAvailability | undefined) {
  return status === undefined ? undefined : { available: status.available };
}
