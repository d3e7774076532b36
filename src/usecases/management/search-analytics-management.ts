import { luxon } from '../../util/index.js';
import { InvalidInputError } from '../../domain/index.js';
import type { ClickedResult, DayTotals, QueryTotals, SearchDayCount, TenantRef } from '../../store/index.js';
import { ManagementOperations } from './management-context.js';
import { NotFoundError } from './management-errors.js';

/** The longest period one report covers. */
export const ANALYTICS_MAX_DAYS = 366;
/** The period of a report that names none: the last 30 days, today included. */
export const ANALYTICS_DEFAULT_DAYS = 30;

export interface AnalyticsRange {
  from?: string | undefined;
  to?: string | undefined;
}

/** A search service's analytics over a period (docs/console.md, Search analytics). */
export interface AnalyticsReport {
  from: string;
  to: string;
  /** Every day of the period, those without searches at zero. */
  days: DayTotals[];
  totals: { searches: number; noResults: number; clicks: number };
  topQueries: QueryTotals[];
  noResultQueries: QueryTotals[];
  clickedResults: ClickedResult[];
}

/**
 * What visitors searched and clicked on a search service, per day, over a chosen period: read by
 * the console's analytics page and its CSV export. Viewers may read it.
 */
export class SearchAnalyticsManagement extends ManagementOperations {
  async report(
    scope: TenantRef,
    serviceId: number,
    range: AnalyticsRange,
    limit = 20,
  ): Promise<AnalyticsReport> {
    const { log, from, to } = await this.open(scope, serviceId, range);
    const counted = new Map((await log.days(from, to)).map((day) => [day.day, day]));
    const days: DayTotals[] = [];
    for (let day = luxon().DateTime.fromISO(from); day.toISODate()! <= to; day = day.plus({ days: 1 })) {
      const date = day.toISODate()!;
      days.push(counted.get(date) ?? { day: date, searches: 0, noResults: 0, clicks: 0 });
    }
    const totals = days.reduce(
      (sum, day) => ({
        searches: sum.searches + day.searches,
        noResults: sum.noResults + day.noResults,
        clicks: sum.clicks + day.clicks,
      }),
      { searches: 0, noResults: 0, clicks: 0 },
    );
    return {
      from,
      to,
      days,
      totals,
      topQueries: await log.queries(from, to, 'searches', limit),
      noResultQueries: await log.queries(from, to, 'noResults', limit),
      clickedResults: await log.clickedResults(from, to, limit),
    };
  }

  /** Every day and query of the period, for the CSV export. */
  async rows(
    scope: TenantRef,
    serviceId: number,
    range: AnalyticsRange,
  ): Promise<{ from: string; to: string; rows: AsyncIterable<SearchDayCount> }> {
    const { log, from, to } = await this.open(scope, serviceId, range);
    return { from, to, rows: log.rows(from, to) };
  }

  private async open(scope: TenantRef, serviceId: number, range: AnalyticsRange) {
    await this.enter(scope);
    const log = await this.deps.searchIndexes?.analytics(scope, serviceId);
    if (log === undefined) {
      throw new NotFoundError(
        'search service',
        serviceId,
        `no search service ${serviceId} in this service group`,
      );
    }
    return { log, ...this.period(range) };
  }

  /** The period asked for, checked; by default the last 30 days in the service time zone. */
  private period(range: AnalyticsRange): { from: string; to: string } {
    const today = luxon()
      .DateTime.fromMillis(this.now() / 1000, { zone: this.deps.timezone })
      .toISODate()!;
    const errors = [];
    const parsed = (field: 'from' | 'to', value: string | undefined, fallback: string) => {
      if (value === undefined || value === '') return fallback;
      const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? luxon().DateTime.fromISO(value) : undefined;
      if (date === undefined || !date.isValid) {
        errors.push({ field: `query.${field}`, reason: 'must be a date written yyyy-MM-dd' });
        return fallback;
      }
      return value;
    };
    const to = parsed('to', range.to, today);
    const from = parsed(
      'from',
      range.from,
      luxon()
        .DateTime.fromISO(to)
        .minus({ days: ANALYTICS_DEFAULT_DAYS - 1 })
        .toISODate()!,
    );
    if (errors.length === 0) {
      const span = luxon().DateTime.fromISO(to).diff(luxon().DateTime.fromISO(from), 'days').days + 1;
      if (span < 1) errors.push({ field: 'query.from', reason: 'must not be after to' });
      else if (span > ANALYTICS_MAX_DAYS)
        errors.push({
          field: 'query.from',
          reason: `the period may cover at most ${ANALYTICS_MAX_DAYS} days`,
        });
    }
    if (errors.length > 0) throw new InvalidInputError(errors);
    return { from, to };
  }
}
