import { Type } from '@sinclair/typebox';
import { InstantCrawlerSettingSchema, ScheduleSchema } from '../../domain/schemas.js';
import { FAILURE_RESPONSES, IdParam, RUN_MESSAGE_DESCRIPTION } from './common-schemas.js';

const SettingParams = Type.Object({
  contract_id: IdParam('contract id'),
  servicegroup_id: IdParam('service group id'),
  service_setting_id: IdParam('crawl service setting id (a decimal integer)'),
});

export const ScheduledHistorySchema = Type.Object({
  id: Type.Integer({ description: 'run history id' }),
  crawl_execution_status_dtype_id: Type.Integer(),
  crawl_execution_status_dtype_name: Type.String(),
  is_cancel_request: Type.Boolean(),
  start_datetime: Type.Optional(Type.String()),
  end_datetime: Type.Optional(Type.String()),
  crawl_url_list_path: Type.String({
    description: '/crawler/{generated_string}/url_list.csv.gz, or - when the run produced no artifact',
  }),
  message: Type.Optional(Type.String({ description: RUN_MESSAGE_DESCRIPTION })),
});

export const SettingHistoriesSchema = {
  summary: 'Latest 5 runs of a crawl service setting in a time range (newest first)',
  description: 'Needs no API key. Both from_datetime and to_datetime are required.',
  tags: ['scheduled crawler'],
  params: SettingParams,
  querystring: Type.Object(
    {
      from_datetime: Type.String({
        description: 'yyyy-MM-ddTHH:mm:ss+NN:NN; runs started at or after it',
        maxLength: 64,
      }),
      to_datetime: Type.String({
        description: 'yyyy-MM-ddTHH:mm:ss+NN:NN; runs started at or before it',
        maxLength: 64,
      }),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({
      status: Type.String(),
      message: Type.String(),
      contents: Type.Array(ScheduledHistorySchema),
    }),
    ...FAILURE_RESPONSES,
  },
};

export const StoredSettingSchema = {
  summary: 'The crawler setting of a crawl service setting',
  tags: ['scheduled crawler'],
  params: SettingParams,
  response: {
    200: Type.Object({ status: Type.String(), message: Type.String(), setting: InstantCrawlerSettingSchema }),
    ...FAILURE_RESPONSES,
  },
};

export const StoredScheduleSchema = {
  summary: 'The schedule of a crawl service setting',
  tags: ['scheduled crawler'],
  params: SettingParams,
  response: {
    200: Type.Object({ status: Type.String(), message: Type.String(), schedule: ScheduleSchema }),
    ...FAILURE_RESPONSES,
  },
};
