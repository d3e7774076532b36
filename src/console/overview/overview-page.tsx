/**
 * A service group's overview (docs/console.md, Overview): runs in progress with their live
 * progress, the latest runs and their outcome, the next scheduled runs, and the search traffic
 * of the last 7 days.
 */
import { groupPath } from '../api.js';
import { Page, Section } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { DateTime } from '../components/date-time.js';
import { count } from '../format.js';
import { href } from '../router.js';
import { RunStateBadge } from '../runs/run-state-badge.js';
import type { RunView } from '../runs/run-types.js';
import { runsTexts } from '../runs/runs-texts.js';
import { useSession } from '../session.js';
import { scheduleText } from '../settings/schedule-words.js';
import { groupHref } from '../shell/route-types.js';
import { shellTexts } from '../shell/shell-texts.js';
import { useResource } from '../use-resource.js';
import { ActiveRun } from './active-runs.js';
import { overviewTexts } from './overview-texts.js';
import { SearchTraffic } from './search-traffic.js';
import './overview.css';

interface Setting {
  id: number;
  name: string;
  schedule: { interval: number; min?: number; hour?: number; day_of_week?: number; day_of_month?: number };
  next_run_datetime: string | null;
}

export function OverviewPage(props: { contractId: number; groupId: number }) {
  const t = overviewTexts();
  const shell = shellTexts();
  const r = runsTexts();
  const { timezone } = useSession();
  const group = groupPath(props.contractId, props.groupId);
  const runsPath = `${group}/runs`;
  const active = useResource<{ runs: RunView[] }>(`${runsPath}?state=active&limit=10`);
  const recent = useResource<{ runs: RunView[] }>(`${runsPath}?state=ended&limit=5`);
  const settings = useResource<{ service_settings: Setting[] }>(`${group}/service_settings`);
  const inside = (rest: string) => href(groupHref(props.contractId, props.groupId, rest));
  const next = (settings.data?.service_settings ?? [])
    .filter((setting) => setting.next_run_datetime !== null)
    .sort((a, b) => Date.parse(a.next_run_datetime!) - Date.parse(b.next_run_datetime!))
    .slice(0, 5);
  const ended = () => {
    active.reload();
    recent.reload();
    settings.reload();
  };

  return (
    <Page title={shell.overview} context={shell.contract(props.contractId)}>
      <ProblemMessage problem={active.problem ?? recent.problem ?? settings.problem} />
      <Section title={t.running} actions={<a href={inside('/runs')}>{t.allRuns}</a>}>
        {active.data === undefined ? (
          <Loading />
        ) : active.data.runs.length === 0 ? (
          <p>{t.noneRunning}</p>
        ) : (
          <ul class="active-runs">
            {active.data.runs.map((run) => (
              <ActiveRun
                key={run.id}
                runsPath={runsPath}
                runHref={groupHref(props.contractId, props.groupId, `/runs/${run.id}`)}
                run={run}
                onEnded={ended}
              />
            ))}
          </ul>
        )}
      </Section>
      <div class="form-columns">
        <Section title={t.recent}>
          {recent.data === undefined ? (
            <Loading />
          ) : recent.data.runs.length === 0 ? (
            <p>{t.noneRecent}</p>
          ) : (
            <div class="table-wrap">
              <table class="table">
                <tbody>
                  {recent.data.runs.map((run) => (
                    <tr key={run.id}>
                      <td>
                        <a href={inside(`/runs/${run.id}`)}>{r.runTitle(run.id)}</a>
                        <span class="hint">
                          {' '}
                          · {run.kind === 'instant' ? r.instant : (run.service_setting_name ?? r.scheduled)}
                        </span>
                      </td>
                      <td>
                        <RunStateBadge state={run.crawl_execution_status_dtype_id} />
                      </td>
                      <td class="number">{count(run.crawled_count)}</td>
                      <td>
                        <DateTime value={run.end_datetime} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Section>
        <Section title={t.next} actions={<a href={inside('/settings')}>{t.allSettings}</a>}>
          {settings.data === undefined ? (
            <Loading />
          ) : next.length === 0 ? (
            <p>{t.noneNext}</p>
          ) : (
            <div class="table-wrap">
              <table class="table">
                <tbody>
                  {next.map((setting) => (
                    <tr key={setting.id}>
                      <td>
                        <a href={inside(`/settings/${setting.id}`)}>{setting.name}</a>
                        <span class="hint"> · {scheduleText(setting.schedule)}</span>
                      </td>
                      <td>
                        <DateTime value={setting.next_run_datetime} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Section>
      </div>
      <Section title={t.traffic} actions={<a href={inside('/analytics')}>{t.analytics}</a>}>
        <SearchTraffic group={group} timezone={timezone} />
      </Section>
    </Page>
  );
}
