/**
 * A service group's runs (docs/console.md, Runs): instant crawls and the runs of crawl settings,
 * newest first, filtered by kind and state in the address, paged back by run id.
 */
import { groupPath } from '../api.js';
import { Page } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { DateTime } from '../components/date-time.js';
import { count } from '../format.js';
import { href, setQuery, useLocation } from '../router.js';
import { useCan } from '../session.js';
import { groupHref } from '../shell/route-types.js';
import { useResource } from '../use-resource.js';
import { RunStateBadge } from './run-state-badge.js';
import type { RunView } from './run-types.js';
import { runsTexts } from './runs-texts.js';
import { UrlText } from '../components/url-text.js';

export function RunsPage(props: { contractId: number; groupId: number }) {
  const t = runsTexts();
  const { query } = useLocation();
  const canRun = useCan('editor');
  const kind = query.get('kind') ?? '';
  const state = query.get('state') ?? '';
  const before = query.get('before_id') ?? '';
  const search = new URLSearchParams();
  if (kind !== '') search.set('kind', kind);
  if (state !== '') search.set('state', state);
  if (before !== '') search.set('before_id', before);
  search.set('limit', '50');
  const runs = useResource<{ runs: RunView[]; next_before_id: number | null }>(
    `${groupPath(props.contractId, props.groupId)}/runs?${search.toString()}`,
  );
  const runHref = (id: number) => href(groupHref(props.contractId, props.groupId, `/runs/${id}`));

  return (
    <Page
      title={t.title}
      actions={
        canRun && (
          <a
            class="button button-primary"
            href={href(groupHref(props.contractId, props.groupId, '/runs/new'))}
          >
            {t.newCrawl}
          </a>
        )
      }
    >
      <p>{t.intro}</p>
      <div class="filters">
        <label class="filter">
          <span>{t.kind}</span>
          <select
            value={kind}
            onChange={(event) => setQuery({ kind: event.currentTarget.value, before_id: null })}
          >
            <option value="">{t.allKinds}</option>
            <option value="instant">{t.instant}</option>
            <option value="scheduled">{t.scheduled}</option>
          </select>
        </label>
        <label class="filter">
          <span>{t.state}</span>
          <select
            value={state}
            onChange={(event) => setQuery({ state: event.currentTarget.value, before_id: null })}
          >
            <option value="">{t.allStates}</option>
            <option value="active">{t.active}</option>
            <option value="ended">{t.ended}</option>
            {[2030, 2040, 2050, 2060].map((id) => (
              <option key={id} value={String(id)}>
                {t.stateName(id)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ProblemMessage problem={runs.problem} />
      {runs.data === undefined ? (
        runs.problem === undefined && <Loading />
      ) : runs.data.runs.length === 0 ? (
        <p class="section">{t.none}</p>
      ) : (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">{t.run}</th>
                <th scope="col">{t.what}</th>
                <th scope="col">{t.state}</th>
                <th scope="col">{t.started}</th>
                <th scope="col">{t.endedAt}</th>
                <th scope="col" class="number">
                  {t.pages}
                </th>
              </tr>
            </thead>
            <tbody>
              {runs.data.runs.map((run) => (
                <tr key={run.id}>
                  <td>
                    <a href={runHref(run.id)}>{t.runTitle(run.id)}</a>
                  </td>
                  <td class="wrap">
                    {run.kind === 'instant' ? t.instant : (run.service_setting_name ?? t.scheduled)}
                    <span class="hint">
                      {' · '}
                      <UrlText url={run.seed_urls[0] ?? ''} />
                    </span>
                  </td>
                  <td>
                    <RunStateBadge state={run.crawl_execution_status_dtype_id} />
                  </td>
                  <td>
                    <DateTime value={run.start_datetime ?? run.created_datetime} />
                  </td>
                  <td>
                    <DateTime value={run.end_datetime} />
                  </td>
                  <td class="number">{count(run.live?.crawled ?? run.crawled_count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(before !== '' || runs.data?.next_before_id != null) && (
        <nav class="pager" aria-label={t.title}>
          {before !== '' && (
            <button type="button" class="button" onClick={() => setQuery({ before_id: null })}>
              {t.newest}
            </button>
          )}
          {runs.data?.next_before_id != null && (
            <button
              type="button"
              class="button"
              onClick={() => setQuery({ before_id: runs.data!.next_before_id })}
            >
              {t.older}
            </button>
          )}
        </nav>
      )}
    </Page>
  );
}
