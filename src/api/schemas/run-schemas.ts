import { Type } from '@sinclair/typebox';
import { InstantCrawlerSettingSchema } from '../../domain/schemas.js';
import { ARTIFACT_FILE_NAMES, RUN_MESSAGE_CODES, RUN_END_REASONS } from '../../domain/index.js';
import { RUNS_PAGE_LIMIT } from '../../usecases/index.js';
import { datetime, GroupParams, nullableDatetime, ok, responses, route } from './admin-schema-parts.js';
import { IdParam, NgBodySchema, RUN_MESSAGE_DESCRIPTION } from './common-schemas.js';

/** Schemas of the runs of a service group under /admin/v1 (docs/api.md, Runs). */

export const RunParams = Type.Object({ ...GroupParams.properties, run_id: IdParam('run id') });

const LiveView = Type.Object({
  crawled: Type.Integer({ description: 'URLs fetched so far, failures included' }),
  total: Type.Integer({ description: 'URLs known: fetched or queued' }),
  error_kinds: Type.Record(Type.String(), Type.Integer(), { description: 'failed URLs by kind' }),
  pages_per_second: Type.Union([Type.Number(), Type.Null()], { description: 'over the last ~5 s' }),
  at_datetime: datetime('when the crawl reported this'),
});

export const RunView = Type.Object({
  id: Type.Integer(),
  kind: Type.Union([Type.Literal('instant'), Type.Literal('scheduled')]),
  trigger: Type.Union([Type.Literal('api'), Type.Literal('schedule'), Type.Literal('manual')], {
    description: 'api: an instant crawl request (API or console); schedule: a schedule slot; manual: run now',
  }),
  instant_crawl_request_id: Type.Union([Type.Integer(), Type.Null()]),
  service_setting_id: Type.Union([Type.Integer(), Type.Null()]),
  service_setting_name: Type.Union([Type.String(), Type.Null()]),
  crawl_execution_status_dtype_id: Type.Integer({
    description: '2010 pending, 2020 running, 2030 stopped, 2040 fault, 2050 cancel, 2060 timeout',
  }),
  crawl_execution_status_dtype_name: Type.String(),
  is_cancel_request: Type.Boolean(),
  created_datetime: datetime('requested'),
  start_datetime: nullableDatetime('crawl start; null while pending'),
  end_datetime: nullableDatetime('crawl end; null until it ends'),
  crawled_count: Type.Integer({
    description: 'URLs fetched, as last stored (at most a second old while running)',
  }),
  total_count: Type.Integer(),
  seed_urls: Type.Array(Type.String()),
  artifacts: Type.Array(Type.String(), { description: 'artifact files the run has (empty once removed)' }),
  message: Type.String({ description: RUN_MESSAGE_DESCRIPTION }),
  message_parts: Type.Array(
    Type.Object({
      code: Type.Union(RUN_MESSAGE_CODES.map((code) => Type.Literal(code))),
      values: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
    }),
    {
      description:
        'the parts of message in order, each with a code and the values it was made from, to say it in ' +
        'another language; empty for a run ended before parts were kept',
    },
  ),
  end_reason: Type.Union([...RUN_END_REASONS.map((reason) => Type.Literal(reason)), Type.Null()], {
    description:
      'why the run ended: completed (nothing left to fetch), documents_limit (its page limit), ' +
      'time_limit (execution_timeout), cancelled; null while it runs, when it failed, or when it ' +
      'ended before the reason was recorded',
  }),
  screenshots: Type.Boolean({ description: "the run's setting takes screenshots of its pages" }),
  live: Type.Union([LiveView, Type.Null()], {
    description: "this process's latest progress report while the run crawls here; null otherwise",
  }),
});

const RunListQuery = Type.Object({
  kind: Type.Optional(Type.Union([Type.Literal('instant'), Type.Literal('scheduled')])),
  state: Type.Optional(
    Type.Union(
      ['active', 'ended', '2010', '2020', '2030', '2040', '2050', '2060'].map((value) => Type.Literal(value)),
      { description: 'active (pending or running), ended, or one state id' },
    ),
  ),
  service_setting_id: Type.Optional(IdParam('runs of this crawl service setting only')),
  before_id: Type.Optional(IdParam('runs with a smaller id (the next page)')),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: RUNS_PAGE_LIMIT, default: 50 })),
});

export const ListRunsSchema = {
  ...route('List the runs of a service group', 'Instant and scheduled runs, newest first.'),
  params: GroupParams,
  querystring: RunListQuery,
  response: responses(
    ok({
      runs: Type.Array(RunView),
      next_before_id: Type.Union([Type.Integer(), Type.Null()], {
        description: 'before_id of the next page',
      }),
    }),
  ),
};

export const StartRunSchema = {
  ...route(
    'Start an instant crawl of the service group',
    'As POST …/request of the instant crawl API, with a session or the admin token (editors).',
  ),
  params: GroupParams,
  body: Type.Object({ setting: InstantCrawlerSettingSchema }, { additionalProperties: false }),
  response: responses(ok({ run: RunView }), { 429: NgBodySchema }),
};

export const GetRunSchema = {
  ...route('Show a run with its live progress'),
  params: RunParams,
  response: responses(ok({ run: RunView })),
};

export const CancelRunSchema = {
  ...route('Cancel a pending or running run', '409 when it has ended.'),
  params: RunParams,
  response: responses(ok({ run: RunView }), { 409: NgBodySchema }),
};

export const RunEventsSchema = {
  ...route(
    "Follow a run's progress (server-sent events)",
    'text/event-stream: an event `run` (the run as GET shows it) at once, on every progress report ' +
      '(at most two a second) and on every change of state; `end` when the run has ended, then the ' +
      'stream closes.',
  ),
  params: RunParams,
};

const ReportRowView = Type.Object({
  row_id: Type.Integer({ description: 'position in fetch order, from 1' }),
  url: Type.String(),
  last_url: Type.Union([Type.String(), Type.Null()]),
  ok: Type.Boolean(),
  crawl_datetime: datetime('fetched'),
  http_status: Type.Union([Type.Integer(), Type.Null()]),
  content_type: Type.Union([Type.String(), Type.Null()]),
  content_length: Type.Union([Type.Integer(), Type.Null()]),
  depth: Type.Union([Type.Integer(), Type.Null()]),
  error_kind: Type.Union([Type.String(), Type.Null()]),
  fetch_error: Type.Union([Type.String(), Type.Null()]),
});

export const RunUrlsSchema = {
  ...route(
    "Search and filter a finished run's URLs",
    '404 when the run has no report (it did not end with artifacts, or they were removed).',
  ),
  params: RunParams,
  querystring: Type.Object({
    q: Type.Optional(Type.String({ maxLength: 2048, description: 'part of the URL, case-insensitive' })),
    ok: Type.Optional(Type.Boolean()),
    status: Type.Optional(
      Type.Union(
        ['2xx', '3xx', '4xx', '5xx', 'none'].map((value) => Type.Literal(value)),
        {
          description: 'status class; none: no HTTP answer',
        },
      ),
    ),
    content_type: Type.Optional(
      Type.String({ maxLength: 200, description: 'media type without parameters' }),
    ),
    depth: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    error_kind: Type.Optional(Type.String({ maxLength: 500 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  }),
  response: responses(ok({ matched: Type.Integer(), urls: Type.Array(ReportRowView) })),
};

export const RunUrlSchema = {
  ...route(
    'One URL of a finished run, with its referrer and links',
    '404 when the run has no report or no such row.',
  ),
  params: Type.Object({ ...RunParams.properties, row_id: IdParam('row id') }),
  response: responses(
    ok({
      url: Type.Object({
        ...ReportRowView.properties,
        referrer: Type.Union([Type.String(), Type.Null()], {
          description: 'the page whose link queued the URL; null for a seed or a sitemap URL',
        }),
        links_found: Type.Union([Type.Integer(), Type.Null()], {
          description: 'links found on the page; null when the setting did not collect the link list',
        }),
        links: Type.Array(Type.Object({ url: Type.String(), anchor_text: Type.String() }), {
          description: 'the first 100 links of the page, in page order',
        }),
      }),
    }),
  ),
};

export const RunReportSchema = {
  ...route(
    "A finished run's URL counts, filter choices and failures by kind",
    'Each error group has its count and its first three URLs. 404 when the run has no report.',
  ),
  params: RunParams,
  response: responses(
    ok({
      rows: Type.Integer(),
      content_types: Type.Array(Type.Object({ value: Type.String(), count: Type.Integer() })),
      depths: Type.Array(Type.Object({ value: Type.Integer(), count: Type.Integer() })),
      error_groups: Type.Array(
        Type.Object({ kind: Type.String(), count: Type.Integer(), examples: Type.Array(ReportRowView) }),
      ),
    }),
  ),
};

export const RunScreenshotsSchema = {
  ...route(
    'The pages of a finished run that may have a screenshot',
    "HTML pages answered 2xx with bundled files; none when the run's setting took no screenshots.",
  ),
  params: RunParams,
  querystring: Type.Object({
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 24 })),
  }),
  response: responses(
    ok({
      matched: Type.Integer(),
      screenshots: Type.Array(Type.Object({ row_id: Type.Integer(), url: Type.String() })),
    }),
  ),
};

export const RunScreenshotSchema = {
  ...route("A page's screenshot (image/jpeg)", '404 when the page has none.'),
  params: Type.Object({ ...RunParams.properties, row_id: IdParam('row id') }),
};

export const RunFileSchema = {
  ...route(
    "Download a run's artifact with a session",
    '404 when the run has no such file; 410 after retention removed it. With KUMO_BLOB_DOWNLOADS=presigned: ' +
      '302 to the object store, usable for 30 seconds.',
  ),
  params: Type.Object({
    ...RunParams.properties,
    file: Type.Union(ARTIFACT_FILE_NAMES.map((name) => Type.Literal(name))),
  }),
};
