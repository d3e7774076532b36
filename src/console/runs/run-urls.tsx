/**
 * A finished run's URLs (docs/console.md, Run page): its failures grouped by kind with examples,
 * and every URL in a table searched and filtered by the service (status, result, content type,
 * depth, error kind), the filters kept in the page's address so a filtered view can be shared; a
 * row opens the URL's detail.
 */
import { useEffect, useState } from 'preact/hooks';
import { Section } from '../components/page.js';
import { ProblemMessage } from '../components/problem.js';
import { bytes, count, dateTime } from '../format.js';
import { setQuery, useLocation } from '../router.js';
import { useResource } from '../use-resource.js';
import { UrlText } from '../components/url-text.js';
import type { UrlRow } from './run-url-row.js';
import { runsTexts } from './runs-texts.js';
import { UrlDetailDialog } from './url-detail.js';

interface Report {
  rows: number;
  content_types: { value: string; count: number }[];
  depths: { value: number; count: number }[];
  error_groups: { kind: string; count: number; examples: UrlRow[] }[];
}

const PAGE = 50;
const FILTERS = ['q', 'ok', 'status', 'content_type', 'depth', 'error_kind'] as const;

export function RunUrls(props: { runPath: string }) {
  const t = runsTexts();
  const report = useResource<Report>(`${props.runPath}/report`);
  if (report.problem?.status === 404) return <p class="section">{t.noReport}</p>;
  return (
    <>
      <ProblemMessage problem={report.problem} />
      {report.data !== undefined && <ErrorGroups groups={report.data.error_groups} />}
      {report.data !== undefined && <UrlTable runPath={props.runPath} report={report.data} />}
    </>
  );
}

function ErrorGroups(props: { groups: Report['error_groups'] }) {
  const t = runsTexts();
  return (
    <Section title={t.errorGroups}>
      {props.groups.length === 0 ? (
        <p>{t.noErrors}</p>
      ) : (
        <ul class="error-groups">
          {props.groups.map((group) => (
            <li key={group.kind} class="error-group">
              <div class="error-group-head">
                <strong>{group.kind}</strong>
                <span class="badge badge-failed">{count(group.count)}</span>
                <button
                  type="button"
                  class="link-button"
                  onClick={() => setQuery({ error_kind: group.kind, ok: null, offset: null })}
                >
                  {t.showKind(group.kind)}
                </button>
              </div>
              <ul class="examples" aria-label={`${t.examples}: ${group.kind}`}>
                {group.examples.map((row) => (
                  <li key={row.row_id}>
                    <span class="verdict-url">{row.url}</span>
                    {row.fetch_error !== null && <span class="hint"> · {row.fetch_error}</span>}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function UrlTable(props: { runPath: string; report: Report }) {
  const t = runsTexts();
  const { query } = useLocation();
  const [text, setText] = useState(query.get('q') ?? '');
  const [detailRow, setDetailRow] = useState<number | undefined>(undefined);
  useEffect(() => {
    // Typing searches after a short pause, without a history entry per keystroke.
    const timer = setTimeout(() => {
      if ((query.get('q') ?? '') !== text) setQuery({ q: text, offset: null });
    }, 300);
    return () => clearTimeout(timer);
  }, [text]);
  const offset = Number(query.get('offset') ?? '0') || 0;
  const search = new URLSearchParams();
  for (const name of FILTERS) {
    const value = query.get(name);
    if (value !== null && value !== '') search.set(name, value);
  }
  search.set('offset', String(offset));
  search.set('limit', String(PAGE));
  const page = useResource<{ matched: number; urls: UrlRow[] }>(`${props.runPath}/urls?${search.toString()}`);
  const choose = (name: (typeof FILTERS)[number]) => ({
    value: query.get(name) ?? '',
    onChange: (event: Event) =>
      setQuery({ [name]: (event.currentTarget as HTMLSelectElement).value, offset: null }),
  });
  const filtered = FILTERS.some((name) => (query.get(name) ?? '') !== '');
  const matched = page.data?.matched ?? 0;
  const shown = page.data?.urls.length ?? 0;

  return (
    <Section title={t.urls}>
      <div class="filters">
        <label class="filter filter-wide">
          <span>{t.search}</span>
          <input type="search" value={text} onInput={(event) => setText(event.currentTarget.value)} />
        </label>
        <label class="filter">
          <span>{t.result}</span>
          <select {...choose('ok')}>
            <option value="">{t.anyResult}</option>
            <option value="true">{t.okOnly}</option>
            <option value="false">{t.failedOnly}</option>
          </select>
        </label>
        <label class="filter">
          <span>{t.status}</span>
          <select {...choose('status')}>
            <option value="">{t.anyStatus}</option>
            {['2xx', '3xx', '4xx', '5xx'].map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
            <option value="none">{t.noAnswer}</option>
          </select>
        </label>
        <label class="filter">
          <span>{t.contentType}</span>
          <select {...choose('content_type')}>
            <option value="">{t.anyType}</option>
            {props.report.content_types.map((type) => (
              <option key={type.value} value={type.value}>
                {type.value} ({count(type.count)})
              </option>
            ))}
          </select>
        </label>
        <label class="filter">
          <span>{t.depth}</span>
          <select {...choose('depth')}>
            <option value="">{t.anyDepth}</option>
            {props.report.depths.map((depth) => (
              <option key={depth.value} value={String(depth.value)}>
                {depth.value} ({count(depth.count)})
              </option>
            ))}
          </select>
        </label>
        <label class="filter">
          <span>{t.errorKind}</span>
          <select {...choose('error_kind')}>
            <option value="">{t.anyKind}</option>
            {props.report.error_groups.map((group) => (
              <option key={group.kind} value={group.kind}>
                {group.kind} ({count(group.count)})
              </option>
            ))}
          </select>
        </label>
        {filtered && (
          <button
            type="button"
            class="button button-small"
            onClick={() => {
              setText('');
              setQuery({
                q: null,
                ok: null,
                status: null,
                content_type: null,
                depth: null,
                error_kind: null,
                offset: null,
              });
            }}
          >
            {t.clear}
          </button>
        )}
      </div>
      <ProblemMessage problem={page.problem} />
      <p class="hint" role="status">
        {page.data !== undefined && t.matched(count(shown === 0 ? 0 : offset + shown), count(matched))}
      </p>
      <div class="table-wrap">
        <table class="table">
          <thead>
            <tr>
              <th scope="col">{t.url}</th>
              <th scope="col">{t.status}</th>
              <th scope="col">{t.contentType}</th>
              <th scope="col" class="number">
                {t.depth}
              </th>
              <th scope="col" class="number">
                {t.size}
              </th>
              <th scope="col">{t.started}</th>
            </tr>
          </thead>
          <tbody>
            {(page.data?.urls ?? []).map((row) => (
              <tr
                key={row.row_id}
                class={row.ok ? 'row-open' : 'row-open row-failed'}
                onClick={() => setDetailRow(row.row_id)}
              >
                <td class="url-cell">
                  {/* The button makes the row's detail reachable by keyboard; the row takes clicks. */}
                  <button type="button" class="link-button">
                    <UrlText url={row.url} />
                  </button>
                  {row.last_url !== null && (
                    <span class="hint">
                      {' → '}
                      <UrlText url={row.last_url} />
                    </span>
                  )}
                  {row.fetch_error !== null && <span class="hint"> · {row.fetch_error}</span>}
                </td>
                <td class="nowrap">
                  <span class={row.ok ? 'badge badge-ok' : 'badge badge-failed'}>
                    {row.http_status ?? t.noAnswer}
                  </span>
                </td>
                <td class="type-cell">{row.content_type ?? '—'}</td>
                <td class="number">{row.depth ?? '—'}</td>
                <td class="number nowrap">{row.content_length === null ? '—' : bytes(row.content_length)}</td>
                <td class="nowrap">{dateTime(row.crawl_datetime, { seconds: true })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <UrlDetailDialog runPath={props.runPath} rowId={detailRow} onClose={() => setDetailRow(undefined)} />
      <nav class="pager" aria-label={t.urls}>
        <button
          type="button"
          class="button"
          disabled={offset === 0}
          onClick={() => setQuery({ offset: Math.max(0, offset - PAGE) || null })}
        >
          {t.previous}
        </button>
        <button
          type="button"
          class="button"
          disabled={offset + shown >= matched}
          onClick={() => setQuery({ offset: offset + PAGE })}
        >
          {t.next}
        </button>
      </nav>
    </Section>
  );
}
