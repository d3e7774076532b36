import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type ArtifactFileName,
  endReasonOfState,
  isActiveState,
  type RunStateId,
  stateName,
  takesScreenshots,
} from '../../../domain/index.js';
import type { InstantCrawlerSetting } from '../../../domain/schemas.js';
import type { ManagedRun } from '../../../usecases/index.js';
import type { ReportRow, StatusClass } from '../../../run-data/index.js';
import { ActiveRunLimitError } from '../../../store/index.js';
import { ApiError } from '../../api-error.js';
import {
  CancelRunSchema,
  GetRunSchema,
  ListRunsSchema,
  RunEventsSchema,
  RunFileSchema,
  RunReportSchema,
  RunScreenshotSchema,
  RunScreenshotsSchema,
  RunUrlSchema,
  RunUrlsSchema,
  StartRunSchema,
} from '../../schemas/run-schemas.js';
import { activeRunsRefused } from '../instant-crawl-routes.js';
import { sendArtifact } from '../send-artifact.js';
import {
  type AdminRoutesOptions,
  datetimeOf,
  GROUP_PATH,
  methodRecorder,
  tenantOf,
} from './admin-support.js';
import { actorOf, stillSignedIn } from './management-auth.js';
import { followRun } from './run-events.js';

const RUNS_PATH = `${GROUP_PATH}/runs`;
const RUN_PATH = `${RUNS_PATH}/:run_id`;

/**
 * The runs of a service group for the console (docs/api.md, Runs): list, start an instant crawl,
 * read and follow one, cancel it, and read a finished run's URLs, failures, screenshots and files.
 */
export const runRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { management, timezone } = options;
  const runs = management.runs;
  const record = methodRecorder(options);
  const view = (managed: ManagedRun) => runView(managed, timezone);
  const rowView = (row: ReportRow) => ({
    row_id: row.id,
    url: row.url,
    last_url: row.lastUrl,
    ok: row.ok,
    crawl_datetime: datetimeOf(row.crawlMicros, timezone),
    http_status: row.httpStatus,
    content_type: row.contentType,
    content_length: row.contentLength,
    depth: row.depth,
    error_kind: row.errorKind,
    fetch_error: row.fetchError,
  });

  record('GET', RUNS_PATH);
  app.get(RUNS_PATH, { schema: ListRunsSchema }, async (request) => {
    const { kind, state, service_setting_id, before_id, limit = 50 } = request.query;
    const listed = await runs.list(tenantOf(request.params), {
      kind,
      state:
        state === undefined || state === 'active' || state === 'ended'
          ? state
          : (Number(state) as RunStateId),
      serviceSettingId: service_setting_id,
      beforeId: before_id,
      limit,
    });
    return {
      status: 'OK' as const,
      message: `${listed.length} run(s)`,
      runs: listed.map(view),
      next_before_id: listed.length === limit ? listed[listed.length - 1]!.run.id : null,
    };
  });

  record('POST', RUNS_PATH);
  app.post(RUNS_PATH, { schema: StartRunSchema }, async (request) => {
    const tenant = tenantOf(request.params);
    try {
      const run = await runs.startInstant(
        actorOf(request),
        tenant,
        request.body.setting as InstantCrawlerSetting,
      );
      return {
        status: 'OK' as const,
        message: `run ${run.id} queued`,
        run: view(await runs.get(tenant, run.id)),
      };
    } catch (error) {
      if (!(error instanceof ActiveRunLimitError)) throw error;
      throw activeRunsRefused(error);
    }
  });

  record('GET', RUN_PATH);
  app.get(RUN_PATH, { schema: GetRunSchema }, async (request) => {
    const run = await runs.get(tenantOf(request.params), request.params.run_id);
    return { status: 'OK' as const, message: `run ${run.run.id}`, run: view(run) };
  });

  record('POST', `${RUN_PATH}/cancel`);
  app.post(`${RUN_PATH}/cancel`, { schema: CancelRunSchema }, async (request) => {
    const run = await runs.cancel(actorOf(request), tenantOf(request.params), request.params.run_id);
    return { status: 'OK' as const, message: `run ${run.run.id}: cancel requested`, run: view(run) };
  });

  record('GET', `${RUN_PATH}/events`);
  app.get(`${RUN_PATH}/events`, { schema: RunEventsSchema }, async (request, reply) => {
    const { run_id: runId } = request.params;
    await followRun(request, reply, runs, tenantOf(request.params), runId, view, () =>
      stillSignedIn(request),
    );
  });

  record('GET', `${RUN_PATH}/urls`);
  app.get(`${RUN_PATH}/urls`, { schema: RunUrlsSchema }, async (request) => {
    const { q, ok, status, content_type, depth, error_kind, offset = 0, limit = 50 } = request.query;
    const page = await runs.withReport(tenantOf(request.params), request.params.run_id, (report) =>
      report.rows(
        {
          text: q,
          ok,
          statusClass: status as StatusClass | undefined,
          contentType: content_type,
          depth,
          errorKind: error_kind,
        },
        offset,
        limit,
      ),
    );
    return {
      status: 'OK' as const,
      message: `${page.matched} URL(s) match`,
      matched: page.matched,
      urls: page.rows.map(rowView),
    };
  });

  record('GET', `${RUN_PATH}/urls/:row_id`);
  app.get(`${RUN_PATH}/urls/:row_id`, { schema: RunUrlSchema }, async (request) => {
    const { run_id, row_id } = request.params;
    const detail = await runs.withReport(tenantOf(request.params), run_id, (report) => report.detail(row_id));
    if (detail === undefined) throw new ApiError('not_found', `run ${run_id} has no URL row ${row_id}`);
    return {
      status: 'OK' as const,
      message: `row ${row_id} of run ${run_id}`,
      url: {
        ...rowView(detail.row),
        referrer: detail.referrer,
        links_found: detail.linksFound,
        links: detail.links.map((link) => ({ url: link.url, anchor_text: link.anchorText })),
      },
    };
  });

  record('GET', `${RUN_PATH}/report`);
  app.get(`${RUN_PATH}/report`, { schema: RunReportSchema }, async (request) => {
    const { choices, groups } = await runs.withReport(
      tenantOf(request.params),
      request.params.run_id,
      (report) => ({
        choices: report.choices(),
        groups: report.errorGroups(3),
      }),
    );
    return {
      status: 'OK' as const,
      message: `${choices.rows} URL(s)`,
      rows: choices.rows,
      content_types: choices.contentTypes,
      depths: choices.depths,
      error_groups: groups.map((group) => ({ ...group, examples: group.examples.map(rowView) })),
    };
  });

  record('GET', `${RUN_PATH}/screenshots`);
  app.get(`${RUN_PATH}/screenshots`, { schema: RunScreenshotsSchema }, async (request) => {
    const { offset = 0, limit = 24 } = request.query;
    const page = await runs.screenshotPages(tenantOf(request.params), request.params.run_id, offset, limit);
    return {
      status: 'OK' as const,
      message: `${page.matched} page(s)`,
      matched: page.matched,
      screenshots: page.rows.map((row) => ({ row_id: row.id, url: row.url })),
    };
  });

  record('GET', `${RUN_PATH}/screenshots/:row_id`);
  app.get(`${RUN_PATH}/screenshots/:row_id`, { schema: RunScreenshotSchema }, async (request, reply) => {
    const { run_id, row_id } = request.params;
    const image = await runs.screenshot(tenantOf(request.params), run_id, row_id);
    if (image === undefined)
      throw new ApiError('not_found', `row ${row_id} of run ${run_id} has no screenshot`);
    return reply
      .header('content-type', 'image/jpeg')
      .header('cache-control', 'private, max-age=3600')
      .header('content-disposition', `inline; filename="run-${run_id}-${row_id}.jpg"`)
      .send(image);
  });

  record('GET', `${RUN_PATH}/files/:file`);
  app.get(`${RUN_PATH}/files/:file`, { schema: RunFileSchema }, async (request, reply) => {
    const { run_id, file } = request.params;
    const lookup = await runs.artifact(tenantOf(request.params), run_id, file as ArtifactFileName);
    if (lookup.kind === 'not_found') throw new ApiError('not_found', lookup.reason);
    if (lookup.kind === 'gone') throw new ApiError('gone');
    return sendArtifact(reply, options.downloads, run_id, lookup.file, `run-${run_id}_${lookup.file}`);
  });
};

/** The run as the runs routes and the run events show it. */
export function runView(managed: ManagedRun, timezone: string) {
  const { run, live } = managed;
  return {
    id: run.id,
    kind: run.serviceSettingId === null ? ('instant' as const) : ('scheduled' as const),
    trigger: run.trigger,
    instant_crawl_request_id: run.serviceSettingId === null ? run.requestId : null,
    service_setting_id: run.serviceSettingId,
    service_setting_name: managed.settingName,
    crawl_execution_status_dtype_id: run.state,
    crawl_execution_status_dtype_name: stateName(run.state),
    is_cancel_request: run.isCancelRequest,
    created_datetime: datetimeOf(run.createdMicros, timezone),
    start_datetime: datetimeOf(run.startMicros, timezone),
    end_datetime: datetimeOf(run.endMicros, timezone),
    crawled_count: run.crawledCount,
    total_count: run.totalCount,
    seed_urls: run.setting.seed_urls,
    artifacts: run.artifactsDeletedMicros === null ? run.artifacts : [],
    message: run.message,
    message_parts: run.messageParts,
    end_reason: run.endReason ?? endReasonOfState(run.state),
    screenshots: takesScreenshots(run.setting),
    live:
      live === undefined || !isActiveState(run.state)
        ? null
        : {
            crawled: live.crawled,
            total: live.total,
            error_kinds: live.errorKinds,
            pages_per_second: live.pagesPerSecond,
            at_datetime: datetimeOf(live.atMs * 1000, timezone),
          },
  };
}
