/**
 * Search analytics of a service group's search services (docs/console.md, Search analytics): a
 * service and a period chosen in the address, totals, a chart of searches per day, the top
 * queries, the queries without results, click-through rates, the most clicked results, and the
 * CSV of the period.
 */
import { API_BASE, groupPath } from '../api.js';
import { Stat } from '../components/stat.js';
import { Page, Section } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { count, percent } from '../format.js';
import { setQuery, useLocation } from '../router.js';
import { useSession } from '../session.js';
import { useResource } from '../use-resource.js';
import { analyticsTexts } from './analytics-texts.js';
import { DailyChart, type DayRow } from './daily-chart.js';
import { UrlText } from '../components/url-text.js';

interface QueryRow {
  query: string;
  searches: number;
  no_results: number;
  clicks: number;
  click_through_rate: number;
}

interface Report {
  from: string;
  to: string;
  days: DayRow[];
  totals: { searches: number; no_results: number; clicks: number; click_through_rate: number };
  top_queries: QueryRow[];
  no_result_queries: QueryRow[];
  clicked_results: { query: string; url: string; clicks: number }[];
}

const PRESETS = [7, 30, 90];

export function AnalyticsPage(props: { contractId: number; groupId: number }) {
  const t = analyticsTexts();
  const { query } = useLocation();
  const { timezone } = useSession();
  const group = groupPath(props.contractId, props.groupId);
  const services = useResource<{ search_services: { id: number; name: string }[] }>(
    `${group}/search_services`,
  );
  const list = services.data?.search_services ?? [];
  const serviceId = query.get('service') ?? (list[0] === undefined ? null : String(list[0].id));
  const days = query.get('days') ?? (query.has('from') ? '' : '30');
  const range = new URLSearchParams();
  if (days !== '') {
    // "Last 7 days" ends today in the service's time zone, whatever the browser's is.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(new Date());
    const from = new Date(Date.parse(`${today}T00:00:00Z`) - (Number(days) - 1) * 86_400_000);
    range.set('from', from.toISOString().slice(0, 10));
    range.set('to', today);
  } else {
    if (query.get('from')) range.set('from', query.get('from')!);
    if (query.get('to')) range.set('to', query.get('to')!);
  }
  const base = serviceId === null ? null : `${group}/search_services/${serviceId}/analytics`;
  const report = useResource<Report>(base === null ? null : `${base}?${range.toString()}`);

  return (
    <Page title={t.title}>
      <p>{t.intro}</p>
      <ProblemMessage problem={services.problem ?? report.problem} />
      {services.data !== undefined && list.length === 0 && <p class="section">{t.noService}</p>}
      {list.length > 0 && (
        <div class="filters">
          <label class="filter">
            <span>{t.service}</span>
            <select
              value={serviceId ?? ''}
              onChange={(event) => setQuery({ service: event.currentTarget.value })}
            >
              {list.map((service) => (
                <option key={service.id} value={String(service.id)}>
                  {service.name}
                </option>
              ))}
            </select>
          </label>
          <label class="filter">
            <span>{t.period}</span>
            <select
              value={days}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setQuery(
                  value === ''
                    ? { days: '', from: report.data?.from ?? null, to: report.data?.to ?? null }
                    : { days: value, from: null, to: null },
                );
              }}
            >
              {PRESETS.map((preset) => (
                <option key={preset} value={String(preset)}>
                  {t.last(preset)}
                </option>
              ))}
              <option value="">{t.custom}</option>
            </select>
          </label>
          {days === '' && (
            <>
              <label class="filter">
                <span>{t.from}</span>
                <input
                  type="date"
                  value={query.get('from') ?? ''}
                  onChange={(event) => setQuery({ from: event.currentTarget.value })}
                />
              </label>
              <label class="filter">
                <span>{t.to}</span>
                <input
                  type="date"
                  value={query.get('to') ?? ''}
                  onChange={(event) => setQuery({ to: event.currentTarget.value })}
                />
              </label>
            </>
          )}
          {base !== null && (
            <a class="button" href={`${API_BASE}${base}.csv?${range.toString()}`} download>
              {t.csv}
            </a>
          )}
        </div>
      )}
      {report.data === undefined ? (
        base !== null && report.problem === undefined && <Loading />
      ) : (
        <>
          <div class="cards">
            <Stat label={t.searches} value={count(report.data.totals.searches)} />
            <Stat label={t.noResults} value={count(report.data.totals.no_results)} />
            <Stat label={t.clicks} value={count(report.data.totals.clicks)} />
            <Stat label={t.ctr} value={percent(report.data.totals.click_through_rate)} />
          </div>
          <Section title={t.perDay}>
            <DailyChart days={report.data.days} />
          </Section>
          <div class="form-columns">
            <QueryTable title={t.topQueries} rows={report.data.top_queries} />
            <QueryTable title={t.noResultQueries} rows={report.data.no_result_queries} />
          </div>
          <Section title={t.clickedResults}>
            {report.data.clicked_results.length === 0 ? (
              <p>{t.none}</p>
            ) : (
              <div class="table-wrap">
                <table class="table">
                  <thead>
                    <tr>
                      <th scope="col">{t.query}</th>
                      <th scope="col">{t.result}</th>
                      <th scope="col" class="number">
                        {t.clicks}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.data.clicked_results.map((row) => (
                      <tr key={`${row.query}\u0000${row.url}`}>
                        <td class="wrap query-cell">{row.query}</td>
                        <td class="wrap url-cell">
                          <UrlText url={row.url} />
                        </td>
                        <td class="number">{count(row.clicks)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Section>
        </>
      )}
    </Page>
  );
}

function QueryTable(props: { title: string; rows: readonly QueryRow[] }) {
  const t = analyticsTexts();
  return (
    <Section title={props.title}>
      {props.rows.length === 0 ? (
        <p>{t.none}</p>
      ) : (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">{t.query}</th>
                <th scope="col" class="number">
                  {t.searches}
                </th>
                <th scope="col" class="number">
                  {t.noResults}
                </th>
                <th scope="col" class="number">
                  {t.ctr}
                </th>
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <tr key={row.query}>
                  <td class="wrap query-cell">{row.query}</td>
                  <td class="number">{count(row.searches)}</td>
                  <td class="number">{count(row.no_results)}</td>
                  <td class="number">{percent(row.click_through_rate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
