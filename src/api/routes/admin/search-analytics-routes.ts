import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { spreadsheetCsvLines } from '../../../artifacts/index.js';
import {
  SearchAnalyticsCsvSchema,
  SearchAnalyticsSchema,
} from '../../schemas/search-service-page-schemas.js';
import { type AdminRoutesOptions, GROUP_PATH, methodRecorder, tenantOf } from './admin-support.js';

const ANALYTICS_PATH = `${GROUP_PATH}/search_services/:service_id/analytics`;

const rate = (clicks: number, searches: number) =>
  searches === 0 ? 0 : Math.round((clicks / searches) * 10_000) / 10_000;

/** A search service's searches and clicks per day, as JSON for the console and as CSV. */
export const searchAnalyticsRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const analytics = options.management.searchAnalytics;
  const record = methodRecorder(options);
  const queryView = (row: { query: string; searches: number; noResults: number; clicks: number }) => ({
    query: row.query,
    searches: row.searches,
    no_results: row.noResults,
    clicks: row.clicks,
    click_through_rate: rate(row.clicks, row.searches),
  });

  record('GET', ANALYTICS_PATH);
  app.get(ANALYTICS_PATH, { schema: SearchAnalyticsSchema }, async (request) => {
    const { from, to, limit = 20 } = request.query;
    const report = await analytics.report(
      tenantOf(request.params),
      request.params.service_id,
      { from, to },
      limit,
    );
    return {
      status: 'OK' as const,
      message: `${report.totals.searches} search(es) from ${report.from} to ${report.to}`,
      from: report.from,
      to: report.to,
      days: report.days.map((day) => ({
        day: day.day,
        searches: day.searches,
        no_results: day.noResults,
        clicks: day.clicks,
      })),
      totals: {
        searches: report.totals.searches,
        no_results: report.totals.noResults,
        clicks: report.totals.clicks,
        click_through_rate: rate(report.totals.clicks, report.totals.searches),
      },
      top_queries: report.topQueries.map(queryView),
      no_result_queries: report.noResultQueries.map(queryView),
      clicked_results: report.clickedResults,
    };
  });

  record('GET', `${ANALYTICS_PATH}.csv`);
  app.get(`${ANALYTICS_PATH}.csv`, { schema: SearchAnalyticsCsvSchema }, async (request, reply) => {
    const { service_id: serviceId } = request.params;
    const { from, to, rows } = await analytics.rows(tenantOf(request.params), serviceId, request.query);
    const records: string[][] = [];
    for await (const row of rows)
      records.push([
        row.day,
        row.query,
        String(row.searches),
        String(row.noResults),
        String(row.clicks),
        String(rate(row.clicks, row.searches)),
      ]);
    const lines = spreadsheetCsvLines(
      ['day', 'query', 'searches', 'no_results', 'clicks', 'click_through_rate'],
      records,
    );
    // The byte order mark makes spreadsheets read the Japanese queries as UTF-8.
    const body = `\ufeff${[...lines].join('')}`;
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="search-${serviceId}-${from}-${to}.csv"`)
      .header('cache-control', 'private, no-store')
      .send(body);
  });
};
