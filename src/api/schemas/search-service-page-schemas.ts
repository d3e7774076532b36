import { type TSchema, Type } from '@sinclair/typebox';
import { SearchServiceConfigSchema } from '../../domain/schemas.js';
import { ANALYTICS_MAX_DAYS, PREVIEW_DOCUMENTS } from '../../usecases/index.js';
import { nullableDatetime, ok, responses, route, SearchServiceParams } from './admin-schema-parts.js';

/** Schemas of what the console's search service page reads (docs/api.md, Management API). */

export const SearchServiceStatusSchema = {
  ...route("A search service's index: documents, size, last change and last feed"),
  params: SearchServiceParams,
  response: responses(
    ok({
      documents: Type.Integer({ description: 'documents searchable now' }),
      bytes: Type.Integer({ description: 'size of the index files' }),
      updated_datetime: nullableDatetime('when the index files last changed (a feed, or search activity)'),
      last_feed: Type.Union(
        [
          Type.Object({
            run_id: Type.Integer(),
            service_setting_id: Type.Integer(),
            crawl_execution_status_dtype_id: Type.Integer(),
            end_datetime: nullableDatetime('when the run ended'),
          }),
          Type.Null(),
        ],
        { description: 'the latest ended run of a crawl service setting feeding the service' },
      ),
    }),
  ),
};

const Node: TSchema = Type.Recursive((self) =>
  Type.Object({ label: Type.String(), count: Type.Integer(), children: Type.Array(self) }),
);

export const FacetPreviewSchema = {
  ...route(
    'Preview the categories and drill-down tree of a configuration',
    `Applies the category and drill-down rules of \`config\` (checked as PUT would; nothing is stored) to the ` +
      `URLs of the first ${PREVIEW_DOCUMENTS} indexed documents and counts the pages of each category and ` +
      'drill-down label.',
  ),
  params: SearchServiceParams,
  body: Type.Object({ config: SearchServiceConfigSchema }, { additionalProperties: false }),
  response: responses(
    ok({
      documents: Type.Integer({ description: 'documents read' }),
      of_documents: Type.Integer({ description: 'documents in the index' }),
      categories: Type.Array(Type.Object({ name: Type.String(), count: Type.Integer() })),
      uncategorized: Type.Integer({ description: 'pages in no category' }),
      drilldown: Type.Array(Node),
    }),
  ),
};

const Range = Type.Object({
  from: Type.Optional(
    Type.String({ maxLength: 10, description: 'first day, yyyy-MM-dd (default: 29 days before to)' }),
  ),
  to: Type.Optional(
    Type.String({
      maxLength: 10,
      description: 'last day, yyyy-MM-dd (default: today in the service time zone)',
    }),
  ),
});

const QueryRow = Type.Object({
  query: Type.String({ description: 'the query, normalized (case and width folded)' }),
  searches: Type.Integer(),
  no_results: Type.Integer(),
  clicks: Type.Integer(),
  click_through_rate: Type.Number({ description: 'clicks / searches' }),
});

export const SearchAnalyticsSchema = {
  ...route(
    "A search service's searches and clicks over a period",
    `Per day (every day of the period), in all, the top queries, the queries without results and the most clicked ` +
      `results per query. At most ${ANALYTICS_MAX_DAYS} days. Counted from the first page of each search ` +
      '(with or without results) and from clicks through the click route; kept KUMO_SEARCH_LOG_RETENTION_DAYS days.',
  ),
  params: SearchServiceParams,
  querystring: Type.Object({
    ...Range.properties,
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'rows of each list' }),
    ),
  }),
  response: responses(
    ok({
      from: Type.String(),
      to: Type.String(),
      days: Type.Array(
        Type.Object({
          day: Type.String(),
          searches: Type.Integer(),
          no_results: Type.Integer(),
          clicks: Type.Integer(),
        }),
      ),
      totals: Type.Object({
        searches: Type.Integer(),
        no_results: Type.Integer(),
        clicks: Type.Integer(),
        click_through_rate: Type.Number(),
      }),
      top_queries: Type.Array(QueryRow),
      no_result_queries: Type.Array(QueryRow),
      clicked_results: Type.Array(
        Type.Object({ query: Type.String(), url: Type.String(), clicks: Type.Integer() }),
      ),
    }),
  ),
};

export const SearchAnalyticsCsvSchema = {
  ...route(
    "A search service's searches and clicks per day and query, as CSV",
    'text/csv, UTF-8 with a byte order mark: day, query, searches, no_results, clicks, click_through_rate. ' +
      'Cells a spreadsheet would run as formulas are written as text.',
  ),
  params: SearchServiceParams,
  querystring: Range,
};
