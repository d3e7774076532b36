import { Type } from '@sinclair/typebox';
import { InstantCrawlerSettingSchema } from '../../domain/schemas.js';
import {
  ApiKeyHeader,
  FAILURE_RESPONSES,
  IdParam,
  RUN_MESSAGE_DESCRIPTION,
  TenantParams,
} from './common-schemas.js';

const timestamp = (description: string) =>
  Type.Optional(
    Type.String({ description: `${description}; yyyy-MM-ddTHH:mm:ss.SSSSSS+NN:NN in the service time zone` }),
  );

export const CrawlStatusSchema = Type.Object({
  id: Type.Optional(Type.Integer({ description: 'crawl execution state id (internal use)' })),
  instant_crawl_request_id: Type.Optional(Type.Integer()),
  crawl_execution_status_dtype_id: Type.Optional(
    Type.Integer({
      description: '2010 pending, 2020 running, 2030 stopped, 2040 fault, 2050 cancel, 2060 timeout',
    }),
  ),
  crawl_execution_status_dtype_name: Type.Optional(Type.String()),
  is_cancel_request: Type.Optional(Type.Boolean()),
  start_datetime: timestamp('crawl start (absent while pending)'),
  end_datetime: timestamp('crawl end (absent until finished)'),
  crawled_url_count: Type.Optional(Type.Integer()),
  total_url_count: Type.Optional(Type.Integer()),
  message: Type.Optional(
    Type.String({
      description:
        'extension: why a pending run has not started, e.g. "waiting: 2 of 2 run slots busy"; absent once it runs',
    }),
  ),
});

export const CrawlHistorySchema = Type.Object({
  ...CrawlStatusSchema.properties,
  crawl_url_list_path: Type.Optional(
    Type.String({
      description: 'download path relative to the download base, or "-" when there is no artifact',
    }),
  ),
  message: Type.Optional(Type.String({ description: RUN_MESSAGE_DESCRIPTION })),
});

export const RequestCrawlSchema = {
  summary: 'Request an instant crawl',
  tags: ['instant crawl'],
  headers: ApiKeyHeader,
  params: TenantParams,
  body: Type.Object({ setting: InstantCrawlerSettingSchema }, { additionalProperties: false }),
  response: {
    200: Type.Object({
      message: Type.String(),
      status: Type.String({ description: 'OK or NG' }),
      instant_crawl_request_id: Type.Integer(),
    }),
    ...FAILURE_RESPONSES,
  },
};

export const StatusesSchema = {
  summary: 'Running state of instant crawls',
  description:
    'crawl_status is the first requested id that is pending or running, or {} when none is; crawl_statuses lists ' +
    'every requested id that is pending or running (all of the service group when no ids are given).',
  tags: ['instant crawl'],
  headers: ApiKeyHeader,
  params: TenantParams,
  querystring: Type.Object(
    {
      instant_crawl_request_ids: Type.Optional(
        Type.String({ description: 'comma-separated request ids', maxLength: 4096 }),
      ),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({
      message: Type.String(),
      crawl_status: Type.Union([CrawlStatusSchema, Type.Object({})]),
      crawl_statuses: Type.Array(CrawlStatusSchema),
    }),
    ...FAILURE_RESPONSES,
  },
};

export const CancelSchema = {
  summary: 'Cancel an instant crawl',
  tags: ['instant crawl'],
  headers: ApiKeyHeader,
  params: Type.Object({ ...TenantParams.properties, instant_crawl_request_id: IdParam('request id') }),
  response: {
    200: Type.Object({ message: Type.String(), status: Type.String(), crawl_status: CrawlStatusSchema }),
    ...FAILURE_RESPONSES,
  },
};

export const HistoriesSchema = {
  summary: 'History of finished instant crawls (newest first, at most 10)',
  tags: ['instant crawl'],
  headers: ApiKeyHeader,
  params: TenantParams,
  querystring: Type.Object(
    {
      from_datetime: Type.Optional(
        Type.String({ description: 'yyyy-MM-ddTHH:mm:ss+NN:NN; runs started at or after it', maxLength: 64 }),
      ),
      to_datetime: Type.Optional(
        Type.String({
          description: 'yyyy-MM-ddTHH:mm:ss+NN:NN; runs started at or before it',
          maxLength: 64,
        }),
      ),
      instant_crawl_request_id: Type.Optional(IdParam('limit the result to this request')),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({
      message: Type.String(),
      status: Type.String(),
      crawl_histories: Type.Array(CrawlHistorySchema),
    }),
    ...FAILURE_RESPONSES,
  },
};
